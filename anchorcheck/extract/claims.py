"""Claims inside comments: lines that hold some text, files that define a symbol, and
literals that restate a fact of another file.

- line claim: `PATH:N`, `PATH:N-M` (also an en dash), `PATH#LN-LM`, blob URLs with
  `#L..`, and `at :N` / `on lines N-M` (the last path named in the same comment, or
  the citing file). A code span, `key: value` text or a `--flag` right before
  "at"/"on" the location is the text claimed to stand on those lines.
- symbol claim: `PATH:name()` and `` `name()` in PATH ``.
- restated value: `restates [REPO:]PATH::KEY` on a line whose code holds a literal
  (or in an own-line comment above such a line).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container, Iterator

from anchorcheck.extract.languages import language_of
from anchorcheck.extract.locations import PATH as _PATH
from anchorcheck.extract.locations import REPO as _REPO
from anchorcheck.extract.locations import RUN_START as _RUN_START
from anchorcheck.extract.locations import looks_like_path
from anchorcheck.model.comment import JoinedText
from anchorcheck.model.reference import Reference, RefKind
from anchorcheck.patterns import compiled_on_use

_RANGE = r"(?P<l1>\d{1,7})(?:[ \t]*[-–][ \t]*(?P<l2>\d{1,7}))?"

# Not followed by `.digit`: `nvidia/dcgm-exporter:1.4.3` is an image and its version,
# not line 1 (a Helm chart's values.yaml shows such images in comments).
_PATH_LINES = compiled_on_use(rf"{_RUN_START}(?:{_REPO})?{_PATH}:{_RANGE}(?![\d:]|\.\d)")
# (`\b(?:at|on)` written as its letters then the word boundary behind them: the engine
# then tries it only at an `a` or an `o`, not at every position.)
_AT_LINES = compiled_on_use(
    rf"(?:at|on)(?<=\bat|\bon)[ \t\n]+(?P<loc>(?i:lines?)[ \t]+|:){_RANGE}(?![\w:])"
    rf"(?:[ \t\n]+(?:of|in)[ \t\n]+{_RUN_START}(?:{_REPO})?{_PATH})?"
)
_PATH_SYMBOL = compiled_on_use(rf"{_RUN_START}(?:{_REPO})?{_PATH}:(?P<name>[A-Za-z_]\w{{0,100}})\(\)")
# Every _PATH_SYMBOL match holds this: a comment with `()` somewhere (most docstrings)
# is searched by _PATH_SYMBOL, which no literal starts, only when it holds `:name()`.
_PATH_SYMBOL_HINT = compiled_on_use(r":[A-Za-z_]\w{0,100}\(\)")
_SYMBOL_IN = compiled_on_use(
    rf"`(?P<name>[A-Za-z_][\w.]{{0,150}})\(\)`[ \t\n]+in[ \t\n]+{_RUN_START}(?:{_REPO})?{_PATH}"
)
_RESTATES = compiled_on_use(
    r"\brestates[ \t]+(?:(?P<repo>[A-Za-z0-9_][\w.-]{0,100}):(?!:))?(?P<path>[^\s:]{1,300})"
    r"::(?P<key>[\w.\-\[\]]{1,200})"
)
_COLON_DIGIT = compiled_on_use(r":\d")
# `\b(?:at|on)...` written to start with its letters (the word boundary checked behind
# them), so that the engine tries it only where an `a` or an `o` stands.
_AT_HINT = compiled_on_use(r"(?:at|on)(?<=\bat|\bon)[ \t\n]+(?:(?i:lines?)[ \t]+)?:?\d")
_ANY_PATH = compiled_on_use(rf"{_RUN_START}(?:{_REPO})?{_PATH}")
_CLAIM_BEFORE = compiled_on_use(
    r"(?:`(?P<code>[^`\n]{1,150})`|(?P<kv>(?:[A-Za-z_][\w.-]{0,80}:[ \t]+){1,6}[\w./\"'-]{1,80})"
    r"|(?P<flag>--?[A-Za-z][\w-]{0,80}))[ \t\n]+(?:at|on)[ \t\n]+(?:(?i:lines?)[ \t]+)?\Z"
)
_LITERAL = compiled_on_use(r"\"(?:[^\"\\\n]|\\.)*\"|'[^'\n]*'|[-+]?\b\d+(?:\.\d+)?\b|\b(?:true|false)\b")
_BARE_VALUE = compiled_on_use(r"[:=][ \t]*([^\s#,;{}\[\]]+)[ \t]*[,;]?[ \t]*$")

# Every claim, and every mention find_mentions gives, contains one of these (joined
# into triggers.REFERENCE_PATTERN): a mention in backticks is a dotted name, has a
# role before it (:func:`x`) or is a call (`x()`); a plain `word` is none.
TRIGGER = r":\d|\(\)|restates|\b(?:at|on)[ \t\n]+(?:(?i:lines?)[ \t]+)?:?\d|`[~!]?[A-Za-z_]\w*\.[A-Za-z_]|:`"

# Code-shaped mentions: `mod.name`, `name()`, :func:`~pkg.name`, and a bare name() in
# prose. A lone `name` in backticks is left out: docstrings write parameters and
# plain words that way (`iterable`, `numpy`), and those are not definitions.
#
# Both are found from their literal: a search for the whole shape would try it at
# every word of every comment (15% of extraction time). A backtick mention is
# searched from its backtick, and its Sphinx role read just before it; a call from
# its `()`, and its dotted name read backwards from there.
_MENTION_TICK = compiled_on_use(
    r"`[~!]?(?P<name>[A-Za-z_]\w{0,100}(?:\.[A-Za-z_]\w{0,100}){0,10})(?P<call>\(\))?`"
)
_ROLES = tuple(f":{r}:" for r in ("func", "meth", "class", "obj", "attr", "data", "exc"))
_MENTION_CALL = compiled_on_use(r"(?<![\w.`])(?P<name>[A-Za-z_]\w{0,100}(?:\.[A-Za-z_]\w{0,100}){0,10})\(\)")
_DOCTEST = compiled_on_use(r"^[ \t]*(?:>>>|\.\.\.)", re.MULTILINE)


def claimed_text(text: str, end: int) -> str | None:
    """The text claimed to stand at the location that starts at `end`, if any."""
    m = _CLAIM_BEFORE.search(text, max(0, end - 200), end)
    if m is None:
        return None
    claim = m.group("code") or m.group("kv") or m.group("flag")
    return " ".join(claim.split()) if claim else None


def literal_of(code: str) -> str | None:
    """The literal a line of code states: the last quoted string or number on it, else
    the bare value of a trailing `key: value` / `key = value`."""
    found = _LITERAL.findall(code)
    if found:
        return str(found[-1]).strip("\"'")
    m = _BARE_VALUE.search(code)
    return str(m.group(1)).strip("\"'") if m else None


# A symbol named as absent ("Why is there no `source/driver.go:Last()`?", golang-migrate's
# FAQ): no claim that the file defines it.
_NEGATED = compiled_on_use(r"(?i)\b(?:no|not|without|never)[ \t]+`?$")


def find_claims(
    joined: JoinedText, free: Callable[[re.Match[str]], bool], verbatim: Container[int] = (),
) -> Iterator[Reference]:
    """Claims in a joined comment text; `free(m)` takes a span unless a reference
    found earlier overlaps it. Line and symbol claims on a `verbatim` line (pasted
    output, examples: verbatim.py) are no claims; a `restates` marker is one anywhere."""
    text = joined.text
    # Each pattern runs only where its literal occurs (`:` alone is everywhere in
    # Haskell comments: `::`).
    if "()" in text:
        patterns = (_PATH_SYMBOL, _SYMBOL_IN) if _PATH_SYMBOL_HINT.search(text) else (_SYMBOL_IN,)
        for pattern in patterns:
            for m in pattern.finditer(text):
                path = m.group("path").removeprefix("./")
                line, col = joined.locate(m.start())
                # (A file: "### `auto()` in tuple/list entries", a heading of ty's
                # tests, names no place.)
                if looks_like_path(path) and _names_a_file(path) and line not in verbatim \
                        and not _NEGATED.search(text, max(0, m.start() - 24), m.start()) and free(m):
                    yield Reference.make(RefKind.SYMBOL, line, col, _flat(m.group(0)),
                                         name=m.group("name").rsplit(".", 1)[-1],
                                         target_repo=m.group("repo"), target_path=path)
    if _COLON_DIGIT.search(text):
        for m in _PATH_LINES.finditer(text):
            path = m.group("path").removeprefix("./")
            span = _range(m)
            line, col = joined.locate(m.start())
            if span is not None and looks_like_path(path) and _names_a_file(path) and line not in verbatim \
                    and not _stack_frame(text, m.start(), m.end()) and not _log_field(text, m.start()) \
                    and not _pasted_output(text, m.start(), m.end()) and free(m):
                yield Reference.make(RefKind.LINES, line, col, _flat(m.group(0)),
                                     target_repo=m.group("repo"), target_path=path,
                                     lines=span, claim=claimed_text(text, m.start()))
    last_path = _LastPath(text)
    for m in _AT_LINES.finditer(text) if _AT_HINT.search(text) else ():
        start = m.start("loc")
        span = _range(m)
        if span is None:
            continue
        named = m.group("path")
        claim = claimed_text(text, start)
        if m.group("loc").strip() != ":" and claim is None and named is None:
            # anchorcheck: ignore[AC201] (the claims on the next line are examples)
            continue  # "on line 1" in prose claims nothing; `at :27` and "`x` on line 3" do
        if m.group("loc").strip() == ":" and named is None and claim is None and _port(text, m.start(), span):
            continue  # "serves /health on :8080" is a port
        line, col = joined.locate(start)
        if line in verbatim or not free(m):
            continue
        if named is not None and looks_like_path(named):
            last: tuple[str | None, str] | None = (m.group("repo"), named.removeprefix("./"))
        else:
            last = last_path.before(start)
            if last is None and joined.comment.kind in ("prose", "heading"):
                continue  # Markdown prose's `at :12` speaks of the code block above, not the page
        yield Reference.make(RefKind.LINES, line, col, _flat(text[start:m.end()]),
                             target_repo=last[0] if last else None,
                             target_path=last[1] if last else None,
                             lines=span, claim=claim)
    if "restates" in text:
        literal = literal_of(joined.comment.code)
        for m in _RESTATES.finditer(text):
            if literal is not None and free(m):
                line, col = joined.locate(m.start())
                yield Reference.make(RefKind.FACT, line, col, _flat(m.group(0)), name=m.group("key"),
                                     target_repo=m.group("repo"), target_path=m.group("path"),
                                     claim=literal)


def _names_a_file(path: str) -> bool:
    """Whether a `PATH:N` names a file: its last part has an extension or is a file
    name anchorcheck knows (`Makefile`). `default/example-tcp-svc:9000` (a Kubernetes
    service and its port, in ingress-nginx's and bitnami's values.yaml) names none."""
    base = path.rpartition("/")[2]
    if base.replace(".", "").isdigit():
        return False  # an address or a version: `example/resource/0.0.0.0:8080` (grpc-go)
    return "." in base.strip(".") or language_of(base) is not None


def _stack_frame(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] is the place of a JVM stack frame pasted into a comment,
    `at java.lang.Class.getDeclaredFields(Class.java:992)`: a method's parentheses
    around it, which no one writes around a claim (commons-lang's tests quote such
    traces: a line past the end of today's TypeUtils.java, and a Class.java that is
    the JDK's)."""
    return (start >= 2 and text[start - 1] == "(" and (text[start - 2].isalnum() or text[start - 2] in "_$>")
            and text.startswith(")", end))


def _log_field(text: str, start: int) -> bool:
    """Whether text[start:] is a logged key's value, `caller=main.go:112` (go-kit's
    logfmt lines pasted into loki's docs: 7 AC103 naming every main.go)."""
    return start >= 2 and text[start - 1] == "=" and (text[start - 2].isalnum() or text[start - 2] == "_")


# What follows a place in pasted output rather than a claim: a Go stack frame's
# `file.go:123 +0x1d`, glog and klog's `file.go:1048]`, a date run on after a colon
# (`helpers.go:2023-01-13 - 38.1%`, a coverage report).
_PASTED_AFTER = compiled_on_use(r"[ \t]+\+0x[0-9a-f]|-\d")
# A log line's header: glog/klog's `I0204 15:04:05.123456    1 `, or a clock time
# with a fraction of a second, a date before it or not (git's trace lines,
# `23:59:59.123456 git.c:312  trace: ...`, shown in trace.h: a line claim that history
# walked 24,000 commits for, and `builtin/foo.c:99` under it a file that is not there).
_GLOG_HEADER = compiled_on_use(
    r"(?m)^[ \t]*(?:[IWEF]\d{4}[ \t]+\d\d:\d\d:\d\d\.\d+[ \t]+\d+"
    r"|(?:\d{4}-\d\d-\d\d[ T])?\d\d:\d\d:\d\d[.,]\d+Z?)[ \t]")
# Words of a network address: "listens on :8080", "the endpoint on :9153".
# (anchorcheck: ignore[AC201]: examples, not citations)
_NETWORK = compiled_on_use(
    r"(?i:\b(?:port|ports|listen|listens|listening|serve|serves|served|serving|server|endpoint|bind|binds|"
    r"bound|http|https|tcp|udp|grpc|localhost|address|host|metrics|probe|socket|expose|exposes)\b)")


def _pasted_output(text: str, start: int, end: int) -> bool:
    """Whether a `PATH:N` is part of pasted output: a stack frame, a log line, a date."""
    if _PASTED_AFTER.match(text, end):
        return True
    line_start = text.rfind("\n", 0, start) + 1
    if text.startswith("]", end):  # klog's `file.go:1048]`, unless a `[` opened it: `[in x.go:40]`
        before = text[line_start:start]
        if before.count("[") <= before.count("]"):
            return True
    return _GLOG_HEADER.match(text, line_start) is not None


def _port(text: str, start: int, span: tuple[int, int]) -> bool:
    """Whether `on :N` (no path named) is a port: a number that large, and a network
    word in the words before it."""
    return (span[0] >= 80 and span[0] == span[1]
            and _NETWORK.search(text, max(0, start - 60), start) is not None)


def _range(m: re.Match[str]) -> tuple[int, int] | None:
    """The line range written, or None for one that names no line (`:0`)."""
    return line_range(m.group("l1"), m.group("l2"))


def line_range(first_text: str, last_text: str | None) -> tuple[int, int] | None:
    first = int(first_text)
    last = int(last_text or first_text)
    return None if first < 1 else (first, max(first, last))


class _LastPath:
    """The last path named before each offset of one text, asked at offsets in
    increasing order. Matches before the last one found stay as they were for a later
    offset, so each ask scans on from that last match, not from the start: a comment
    of 10,000 `on lines 1-2 of` was quadratic (253 s at 192 KB)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.resume = 0  # where the last match found starts: scanning goes on from here
        self.settled: tuple[str | None, str] | None = None  # from the matches before it

    def before(self, end: int) -> tuple[str | None, str] | None:
        if end < self.resume:  # asked out of order: start over (never happens in a pass)
            self.resume, self.settled = 0, None
        last = self.settled
        for m in _ANY_PATH.finditer(self.text, self.resume, end):
            self.settled = last
            self.resume = m.start()
            path = m.group("path").removeprefix("./")
            if looks_like_path(path):
                last = (m.group("repo"), path)
        return last


def _flat(text: str) -> str:
    return " ".join(text.split())


def find_mentions(joined: JoinedText) -> Iterator[tuple[str, int, int]]:
    """(name, line, col) of each code-shaped mention; a dotted name gives its last part.
    Doctest lines (`>>> fh.close()`) are code, not mentions."""
    text = joined.text
    if "`" not in text and "()" not in text:
        return
    doctest = [(m.start(), text.find("\n", m.start())) for m in _DOCTEST.finditer(text)]
    for start, name, role, call in _tick_mentions(text):
        if role or call or "." in name:
            yield from _mention(joined, start, name)
    for start, name in _call_mentions(text):
        receiver = name.rpartition(".")[0]
        # `obj.close()` is a method of some object's type, often not ours; `Class.m()` is.
        if receiver and not receiver.rsplit(".", 1)[-1][:1].isupper():
            continue
        if any(s <= start and (e < 0 or start < e) for s, e in doctest):
            continue
        yield from _mention(joined, start, name)


def _tick_mentions(text: str) -> Iterator[tuple[int, str, bool, bool]]:
    """(start, name, has a role, is a call) of each `name` / :role:`name` / `name()`;
    the start is the role's when there is one."""
    for m in _MENTION_TICK.finditer(text):
        start = m.start()
        # (Every role ends with the `:` before the backtick: most mentions have none.)
        role = next((r for r in _ROLES if start >= len(r) and text.startswith(r, start - len(r))), None) \
            if start and text[start - 1] == ":" else None
        if role is not None:
            start -= len(role)
        yield start, m.group("name"), role is not None, m.group("call") is not None


def _call_mentions(text: str) -> Iterator[tuple[int, str]]:
    """(start, dotted name) of each bare `name()`: found from its `()`, the name read
    back to where it starts and then matched in full."""
    i = text.find("()")
    while i >= 0:
        start = i
        while start > 0 and (text[start - 1].isalnum() or text[start - 1] in "_."):
            start -= 1
        m = _MENTION_CALL.match(text, start)
        if m is not None and m.end() == i + 2:
            yield start, m.group("name")
        i = text.find("()", i + 2)


def _mention(joined: JoinedText, start: int, dotted: str) -> Iterator[tuple[str, int, int]]:
    name = dotted.rsplit(".", 1)[-1]
    if len(name) >= 3:
        line, col = joined.locate(start)
        yield name, line, col
