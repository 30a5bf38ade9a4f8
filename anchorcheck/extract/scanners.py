"""Comment scanners: one regex per language family, string-literal aware.

Each family's pattern matches, at every position the loop stops at, either a comment
(which is kept) or a region that cannot hold a comment (a string, a heredoc, a
template action), which is skipped whole. Every alternative starts with a literal
and every repetition is bounded by a terminator or the end of input, so a scan is
linear in the size of the file, also on hostile input (an unterminated `/*` simply
runs to the end of the file instead of being retried at every later position).
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from anchorcheck.model.comment import Comment, CommentLine
from anchorcheck.patterns import compiled_on_use

# Strings, unrolled so that no two branches of a repetition can match the same text.
_DQ = r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"?'
_SQ = r"'[^'\\\n]*(?:\\.[^'\\\n]*)*'?"
_DQ_ML = r'"[^"\\]*(?:\\.[^"\\]*)*"?'  # may span lines (shell)
_SQ_RAW_ML = r"'[^']*'?"  # shell single quotes: no escapes, may span lines
_TRIPLE_DQ = r'"""[^"\\]*(?:(?:\\.|"(?!""))[^"\\]*)*(?:"""|\Z)'
_TRIPLE_SQ = r"'''[^'\\]*(?:(?:\\.|'(?!''))[^'\\]*)*(?:'''|\Z)"
_CHAR = r"'(?:\\[^'\n]{1,10}|[^\\'\n])'"  # a C-like character literal, exactly
_BLOCK_C = r"/\*.*?(?:\*/|\Z)"
_BACKTICK = r"`[^`]*`?"


@dataclass(frozen=True, slots=True)
class _Family:
    """A comment family's compiled pattern and its opener rule."""

    pattern: re.Pattern[str]
    # Dockerfile/INI rule: the opener opens a comment only as the first non-blank
    # character of its line. Every other family's opener rule is a lookbehind inside its
    # pattern, so that a rejected opener is never matched to the end of its line and
    # retried one character later (quadratic on a long line of `a#a#a#...`).
    line_start_only: bool = False


_V = TypeVar("_V")


@dataclass(frozen=True, slots=True)
class _Source:
    """A comment family's pattern, as alternatives not yet compiled."""

    alternatives: tuple[str, ...]
    line_start_only: bool = False


class _OnFirstUse(Mapping[str, _V]):
    """A mapping whose values are made on first use, from its keys."""

    def __init__(self, keys: Iterable[str], make: Callable[[str], _V]) -> None:
        self._keys = tuple(keys)
        self._make = make
        self._made: dict[str, _V] = {}

    def __getitem__(self, key: str) -> _V:
        if key in self._made:
            return self._made[key]
        if key not in self._keys:
            raise KeyError(key)
        value = self._made[key] = self._make(key)
        return value

    def __contains__(self, key: object) -> bool:
        return key in self._keys

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)


# `#` opens a comment at the start of the text or after one of these (shell, YAML, HCL).
_HASH = r"(?<![^ \t\n\r;|&()])#"


def _compile(*alternatives: str) -> re.Pattern[str]:
    return re.compile("|".join(alternatives), re.DOTALL)


def _first_chars(pattern: re.Pattern[str]) -> re.Pattern[str] | None:
    """A character class of every character a match of `pattern` can start with, or
    None when that cannot be told.

    Why: `pattern.search` tries every alternative at every position of the file, and
    the alternatives start inside named groups, which hides their first characters from
    the regex engine's own prefix scan; most of a source file cannot start a string or
    a comment. Scanning for these characters first and matching only there finds the
    same matches (every match starts at such a character), 2-3 times faster. Read from
    the parsed pattern (the `re` parser is private API: where it is missing or changes,
    this returns None and the scanner simply searches as before)."""
    try:
        from re import _constants as c  # type: ignore[attr-defined]
        from re import _parser  # type: ignore[attr-defined]

        chars = _first_of(_parser.parse(pattern.pattern, pattern.flags).data, c)
    except (ImportError, AttributeError, TypeError, ValueError, re.error):
        return None
    if not chars:
        return None
    return re.compile("[" + "".join(re.escape(ch) for ch in sorted(chars)) + "]")


def _first_of(items: list[tuple[Any, Any]], c: Any) -> set[str] | None:
    """First characters of a parsed sequence; None for "could be anything"."""
    for op, av in items:
        if op in (c.ASSERT, c.ASSERT_NOT, c.AT):
            continue  # zero width: the next item starts the match
        if op is c.LITERAL:
            return {chr(av)}
        if op is c.IN:
            out: set[str] = set()
            for kind, value in av:
                if kind is c.LITERAL:
                    out.add(chr(value))
                elif kind is c.RANGE and value[1] - value[0] < 256:
                    out.update(chr(x) for x in range(value[0], value[1] + 1))
                else:
                    return None  # a negated set, a category: too wide to help
            return out
        if op is c.SUBPATTERN:
            return _first_of(list(av[3]), c)
        if op is c.BRANCH:
            union: set[str] = set()
            for alternative in av[1]:
                first = _first_of(list(alternative), c)
                if first is None:
                    return None
                union |= first
            return union
        if op in (c.MAX_REPEAT, c.MIN_REPEAT) and av[0] >= 1:
            return _first_of(list(av[2]), c)
        return None
    return None  # an empty pattern matches anywhere


# A Haskell line comment: dashes that are not part of an operator (`-->`, `|--`).
_HS_LC = r"(?<![!#$%&*+./<=>?@\\^|~:])--+(?![!#$%&*+./<=>?@\\^|~:])[^\n]*"

_SOURCES: dict[str, _Source] = {
    "python": _Source((
        rf"(?P<str>{_TRIPLE_DQ}|{_TRIPLE_SQ}|{_DQ}|{_SQ})",
        r"(?P<lc>#[^\n]*)",
    )),
    "hash": _Source((
        rf"(?P<str>{_DQ}|{_SQ})", rf"(?P<lc>{_HASH}[^\n]*)",
    )),
    "yaml": _Source((
        r"(?P<bc>\{\{-?\s*/\*.*?(?:\*/\s*-?\}\}|\Z))",
        r"(?P<skip>\{\{.*?(?:\}\}|\Z))",
        rf"(?P<str>{_DQ}|'(?:[^'\n]|'')*'?)",
        rf"(?P<lc>{_HASH}[^\n]*)",
    )),
    "shell": _Source((
        r"(?P<heredoc><<-?[ \t]*(?P<q>['\"]?)(?P<tag>[A-Za-z_][A-Za-z0-9_]*)(?P=q))",
        rf"(?P<str>\$'[^'\\]*(?:\\.[^'\\]*)*'?|{_DQ_ML}|{_SQ_RAW_ML}|{_BACKTICK})",
        rf"(?P<lc>{_HASH}[^\n]*)",
    )),
    "dockerfile": _Source((r"(?P<lc>#[^\n]*)",), line_start_only=True),
    "toml": _Source((
        rf"(?P<str>{_TRIPLE_DQ}|{_TRIPLE_SQ}|{_DQ}|'[^'\n]*'?)", r"(?P<lc>#[^\n]*)",
    )),
    "ini": _Source((r"(?P<lc>[#;][^\n]*)",), line_start_only=True),
    "make": _Source((r"(?P<lc>(?<!\\)#[^\n]*)",)),
    "c": _Source((
        rf"(?P<str>{_DQ}|{_CHAR}|{_BACKTICK})",
        r"(?P<lc>//[^\n]*)",
        rf"(?P<bc>{_BLOCK_C})",
    )),
    "js": _Source((
        rf"(?P<str>{_DQ}|{_SQ}|{_BACKTICK})",
        r"(?P<lc>//[^\n]*)",
        rf"(?P<bc>{_BLOCK_C})",
    )),
    "rust": _Source((
        r"(?P<raw>r(?P<hashes>#+)\")",
        rf"(?P<str>{_DQ_ML}|{_CHAR})",
        r"(?P<lc>//[^\n]*)",
        rf"(?P<bc>{_BLOCK_C})",
    )),
    "css": _Source((rf"(?P<str>{_DQ}|{_SQ})", rf"(?P<bc>{_BLOCK_C})")),
    "hcl": _Source((
        rf"(?P<str>{_DQ})", r"(?P<lc>(?:#|//)[^\n]*)", rf"(?P<bc>{_BLOCK_C})",
    )),
    "haskell": _Source((
        r"(?P<nbc>\{-)",
        # A quote after a name character is a prime (x', foldl'), never a character
        # literal: x'a' is one name.
        rf"(?P<str>{_DQ}|(?<![\w']){_CHAR})",
        rf"(?P<lc>{_HS_LC})",
    )),
    # m4 and autoconf: `dnl` to the end of the line, and `#` (kept in m4's output, but a
    # comment to its reader). No strings: m4 quotes with brackets, and English
    # apostrophes stand in its text.
    "m4": _Source((rf"(?P<lc>(?:{_HASH}|(?<![\w$])dnl\b)[^\n]*)",)),
    "sql": _Source((
        r"(?P<str>'[^']*'?|\"[^\"\n]*\"?)",
        r"(?P<lc>--[^\n]*)",
        rf"(?P<bc>{_BLOCK_C})",
    )),
    "html": _Source((r"(?P<bc><!--.*?(?:-->|\Z))",)),
}

# Each family compiled when first used: a run compiles the patterns of the languages
# it reads (a PR run touching Python files: Python's), not all of them at every start.
_FAMILIES: Mapping[str, _Family] = _OnFirstUse(
    _SOURCES, lambda name: _Family(_compile(*_SOURCES[name].alternatives), _SOURCES[name].line_start_only))
# The characters a match of each family's pattern can start at (see _first_chars).
_FIRST: Mapping[str, re.Pattern[str] | None] = _OnFirstUse(
    _SOURCES, lambda name: _first_chars(_FAMILIES[name].pattern))

_YAML_BLOCK_SCALAR = compiled_on_use(r"(?:^|[:\-]\s+|^\s*)(?P<indicator>[|>])[-+0-9]*\s*(?:#.*)?$")
_YAML_ENTRY_LEAD = compiled_on_use(r" *(?:- +)*")  # indentation and sequence dashes before a key
_OPENERS = compiled_on_use(r"^(?:#+|//+!?|--+|;+|dnl\b)")  # `//!`: Rust's and Doxygen's inner doc comments


# Span kinds: what the scanner found, before any Comment is built.
_LINE, _BLOCK, _DOC, _RUN = 0, 1, 2, 3  # _RUN: consecutive own-line line comments
Span = tuple[int, int, int]  # (start offset, end offset, kind)


def scan(
    text: str, family: str, keep: Callable[[str, int, int], bool] | None = None
) -> list[Comment]:
    """The comment blocks of `text`, a file written in `family`'s syntax.

    With `keep`, only blocks for which `keep(text, start, end)` holds are built: the scanner
    still walks the whole file (it must, to know what is inside a string), but most
    comments hold nothing of interest, and building them is most of the cost.
    """
    blocks: Iterable[list[Span]]
    if family == "python":
        blocks = _python_blocks(text)
    elif family in _NEXT:
        blocks = _matched_blocks(text, _NEXT[family])
    else:
        fam = _FAMILIES.get(family)
        if fam is None:
            return []
        if family == "yaml":
            spans = list(_yaml_spans(text))
            if spans:
                spans = _drop_block_scalar_spans(text, spans)
        else:
            spans = list(_spans(text, fam, _FIRST[family]))
        blocks = _blocks(text, spans)
    loc = _Locator(text)
    select = getattr(keep, "select", None)
    if select is not None:  # a KeepTest: all the blocks tested at once
        found = list(blocks)
        kept = select(text, [(block[0][0], block[-1][1]) for block in found])
        return [_build(text, block, loc) for block, ok in zip(found, kept, strict=True) if ok]
    out: list[Comment] = []
    for block in blocks:
        if keep is not None and not keep(text, block[0][0], block[-1][1]):
            continue
        out.append(_build(text, block, loc))
    return out


def _spans(text: str, fam: _Family, first: re.Pattern[str] | None) -> Iterator[Span]:
    pos = 0
    search = _searcher(fam.pattern, first)
    line_start_only = fam.line_start_only
    while True:
        m = search(text, pos)
        if m is None:
            return
        kind = m.lastgroup
        start, end = m.span()
        pos = end if end > start else start + 1
        if kind == "str" or kind == "skip":
            continue
        if kind == "lc":
            if line_start_only and text[text.rfind("\n", 0, start) + 1:start].strip():
                # No later opener on this line can be its first non-blank character.
                pos = end
                continue
            yield (start, end, _LINE)
        elif kind == "bc":
            yield (start, end, _BLOCK)
        elif kind == "nbc":
            pos = _nested_end(text, start)
            yield (start, pos, _BLOCK)
        elif kind == "heredoc":
            pos = _heredoc_end(text, end, m.group("tag"), m.group(0).startswith("<<-"))
        elif kind == "raw":
            close = '"' + m.group("hashes")
            found = text.find(close, end)
            pos = len(text) if found < 0 else found + len(close)


def _searcher(
    pattern: re.Pattern[str], first: re.Pattern[str] | None
) -> Callable[[str, int], re.Match[str] | None]:
    """`pattern.search`, or the same search done by jumping between the characters a
    match can start at (`first`) and matching only there."""
    if first is None:
        return pattern.search
    find, match = first.search, pattern.match

    def search(text: str, pos: int) -> re.Match[str] | None:
        while True:
            candidate = find(text, pos)
            if candidate is None:
                return None
            pos = candidate.start()
            m = match(text, pos)
            if m is not None:
                return m
            pos += 1

    return search


# YAML (and Helm's templates), from a position to its next comment: code, strings and
# `{{ ... }}` actions are skipped inside the regex engine, where the family pattern's
# search loop stopped at each quote and each action and went back to Python for it (a
# chart's values.yaml quotes most of its values: 39% of YAML extraction was that
# loop). Each match ends at one comment: a `{{/* */}}` (bc) or a `#` line (lc), as the
# family pattern finds them (a hypothesis test compares the spans).
_YAML_BC_OPEN = r"\{\{-?\s*/\*"
_YAML_NEXT = (
    rf"""(?:[^#"'{{]++|{_DQ}|'(?:[^'\n]|'')*'?|(?!{_YAML_BC_OPEN})(?:\{{\{{.*?(?:\}}\}}|\Z)|\{{)"""
    # A `#` that opens no comment (`a#b`): _HASH's look-behind, the other way round.
    r"|(?<=[^ \t\n\r;|&()])#)*+"
    rf"(?:(?P<bc>{_YAML_BC_OPEN}.*?(?:\*/\s*-?\}}\}}|\Z))|(?P<lc>#[^\n]*))"
)

_YAML_NEXT_RE = compiled_on_use(_YAML_NEXT, re.DOTALL)


def _yaml_spans(text: str) -> Iterator[Span]:
    """The spans `_spans` finds in YAML, one match of _YAML_NEXT each."""
    match = _YAML_NEXT_RE.match
    pos = 0
    while True:
        m = match(text, pos)
        if m is None:
            return
        if m.lastgroup == "bc":
            start, pos = m.span("bc")
            yield (start, pos, _BLOCK)
        else:
            start, pos = m.span("lc")
            yield (start, pos, _LINE)


# Python, from a position to its next comment or triple-quoted string: code and
# one-line strings are skipped inside the regex engine (possessively: what is skipped
# is never tried again), where the family pattern stopped at every string and went
# back to Python for it (a third of Python extraction). Same spans as the family
# pattern's search loop (a hypothesis test compares them).
_PY_NEXT = (
    rf"""(?:[^#"']++|"(?!""){_DQ[1:]}|'(?!''){_SQ[1:]})*+"""
    # (A one-line string here only where a triple quote cannot open one: `"""\` at
    # the end of the text.)
    # A run of line comments, each on the line after the last with only blanks before
    # it, is one match (the block _blocks makes of them; a hypothesis test compares).
    rf"(?:(?P<lc>#[^\n]*(?:\n[^\S\n]*#[^\n]*)*)|(?P<str>{_TRIPLE_DQ}|{_TRIPLE_SQ}|{_DQ}|{_SQ}))"
)


# Haskell, from a position to its next `{-` or run of line comments: code, strings,
# character literals and lone -, { and ' are skipped inside the regex engine, and a
# run of line comments, each on the line after the last with only blanks between (a
# block, as _blocks groups them), is one match. GHC has 1.2M dashes and a comment
# line for every four lines of code: the family pattern stopped at each and went back
# to Python. Same blocks as the family pattern's search loop and _blocks (a hypothesis
# test compares them, for each family with such a pattern).
_HS_NEXT = (
    rf"""(?:[^-{{"']++|{_DQ}|(?<![\w']){_CHAR}|'|\{{(?!-)|(?!{_HS_LC})-)*+"""
    rf"(?:(?P<nbc>\{{-)|(?P<lc>{_HS_LC}(?:\n[^\S\n]*{_HS_LC})*))"
)


def _slashes_next(strings: str) -> str:
    """The same for a family with `//` and `/* */` comments and these `strings` (the
    family pattern's, plus whatever consumes a quote that opens none)."""
    return (
        rf"""(?:[^"'`/]++|{strings}|/(?![/*]))*+"""
        r"(?:(?P<lc>//[^\n]*(?:\n[^\S\n]*//[^\n]*)*)" rf"|(?P<bc>{_BLOCK_C}))"
    )


# Compiled when first used, as the families are. Python's is read by _python_blocks
# (its blocks need Python's docstring rules); the others by _matched_blocks.
_NEXT_SOURCES = {
    "python": _PY_NEXT,
    "haskell": _HS_NEXT,
    "c": _slashes_next(f"{_DQ}|{_CHAR}|{_BACKTICK}|'"),  # a quote that opens no character literal
    "js": _slashes_next(f"{_DQ}|{_SQ}|{_BACKTICK}"),
}
_NEXT: Mapping[str, re.Pattern[str]] = _OnFirstUse(
    _NEXT_SOURCES, lambda name: re.compile(_NEXT_SOURCES[name], re.DOTALL))
_NEXT_LINE_START = compiled_on_use(r"\n[^\S\n]*")


def _matched_blocks(text: str, pattern: re.Pattern[str]) -> Iterator[list[Span]]:
    """The comment blocks of a family with a _NEXT pattern, one match each."""
    match = pattern.match
    pos = 0
    while True:
        m = match(text, pos)
        if m is None:
            return
        kind = m.lastgroup
        if kind == "nbc":
            start = m.start("nbc")
            pos = _nested_end(text, start)
            yield [(start, pos, _BLOCK)]
            continue
        if kind == "bc":
            start, pos = m.span("bc")
            yield [(start, pos, _BLOCK)]
            continue
        start, pos = m.span("lc")
        yield from _line_run(text, start, pos)


def _python_blocks(text: str) -> Iterator[list[Span]]:
    """Python's blocks: runs of `#` comments (as _matched_blocks makes them), and
    docstrings (a triple-quoted string in statement position)."""
    first_code = _first_code_offset(text)
    match = _NEXT["python"].match
    pos = 0
    while True:
        m = match(text, pos)
        if m is None:
            return
        kind = m.lastgroup or ""  # always lc or str: the match ends with one of them
        start, pos = m.span(kind)
        if kind == "str":
            if _is_docstring(text, start, first_code):
                yield [(start, pos, _DOC)]
            continue
        yield from _line_run(text, start, pos)


def _line_run(text: str, start: int, end: int) -> Iterator[list[Span]]:
    """The blocks of a run of line comments on consecutive lines: one, unless the first
    follows code on its line (then it is a block of its own)."""
    first_end = text.find("\n", start, end)
    if first_end < 0:
        yield [(start, end, _LINE)]
    elif _own_line(text, start):
        yield [(start, end, _RUN)]
    else:
        yield [(start, first_end, _LINE)]
        nxt = _NEXT_LINE_START.match(text, first_end)
        assert nxt is not None
        yield [(nxt.end(), end, _RUN)]


_CODE_LINE = compiled_on_use(r"^[ \t]*[^\s#]", re.MULTILINE)


def _first_code_offset(text: str) -> int:
    m = _CODE_LINE.search(text)
    return len(text) if m is None else m.end() - 1


def _is_docstring(text: str, start: int, first_code: int) -> bool:
    """A triple-quoted string that opens its line and is the module's first code or
    follows a line ending in `:` (a def or class header)."""
    if not text.startswith(('"""', "'''"), start):
        return False
    # Back over the string's prefix and indentation to the line's start: anything else
    # before it, and it opens no line. (Not `rfind` and a slice: on a line of thousands
    # of strings, each one scanned the line back to its start, 100 KB of `"` took 25
    # times as long as 12.5 KB.)
    line_start = start
    while line_start > 0 and text[line_start - 1] in " \trRbBuUfF":
        line_start -= 1
    if line_start > 0 and text[line_start - 1] != "\n":
        return False
    if line_start <= first_code <= start:
        return True  # module docstring: nothing but comments and blank lines before
    i = line_start - 1
    while i >= 0 and text[i] in " \t\r\n":
        i -= 1
    return i >= 0 and text[i] == ":"


def _own_line(text: str, start: int) -> bool:
    line_start = text.rfind("\n", 0, start) + 1
    return text[line_start:start].strip() == ""


def _blocks(text: str, spans: list[Span]) -> Iterator[list[Span]]:
    """Group consecutive own-line line comments into one block, as a reader sees them."""
    block: list[Span] = []
    for span in spans:
        if block and span[2] == _LINE and block[-1][2] == _LINE and _continues(text, block[-1], span):
            block.append(span)
            continue
        if block:
            yield block
        block = [span]
    if block:
        yield block


def _continues(text: str, prev: Span, span: Span) -> bool:
    gap = text[prev[1]:span[0]]
    return gap.count("\n") == 1 and gap.strip() == "" and _own_line(text, prev[0])


class _Locator:
    """Offsets to (line, column), for offsets visited in increasing order: newlines
    are counted once, from the last offset asked for, and so is the start of the line
    (looked for back from each offset, it made 8k comments on one 100 KB line
    quadratic)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.line = 1
        self.line_start = 0

    def locate(self, offset: int) -> tuple[int, int]:
        if offset < self.pos:
            self.pos, self.line, self.line_start = 0, 1, 0
        last = self.text.rfind("\n", self.pos, offset)
        if last >= 0:
            self.line += self.text.count("\n", self.pos, offset)
            self.line_start = last + 1
        self.pos = offset
        return self.line, offset - self.line_start


def _build(text: str, block: list[Span], loc: _Locator) -> Comment:
    start, end, kind = block[0]
    if kind == _DOC:
        lines, own, kind_name = _docstring(loc, text, start, end), True, "docstring"
    elif kind == _BLOCK:
        lines, own = _block_comment(loc, text, start, end)
        kind_name = "block"
    else:
        own, kind_name = _own_line(text, start), "comment"
        if kind == _RUN:
            lines = _run_comment(loc, text, start, end)
        else:
            lines = tuple(_line_comment(loc, text, s, e) for s, e, _ in block)
    return Comment(lines, own_line=own, kind=kind_name, code=_code_near(text, start, block[-1][1], own))


# How far back the code before a trailing comment is read: what a `restates` marker
# speaks of is the last literal or `key: value` before it (claims.literal_of). Taken
# whole, each of many comments on one long line copied all of the line before it.
_CODE_BEFORE_MAX = 1000


def _code_near(text: str, start: int, end: int, own_line: bool) -> str:
    if not own_line:
        earliest = max(0, start - _CODE_BEFORE_MAX)
        return text[max(earliest, text.rfind("\n", earliest, start) + 1):start].strip()
    pos = end
    while True:
        nl = text.find("\n", pos)
        if nl < 0:
            return ""
        stop = text.find("\n", nl + 1)
        line = text[nl + 1:len(text) if stop < 0 else stop].strip()
        if line:
            return line
        pos = nl + 1


def _run_comment(loc: _Locator, text: str, start: int, end: int) -> tuple[CommentLine, ...]:
    """The lines of a run of line comments: one per source line, in a row, so only
    the first is located; each later one starts after its line's blanks."""
    first_line, first_col = loc.locate(start)
    out = []
    match = _OPENERS.match
    number, line_start, col = first_line, start, first_col
    while True:
        nl = text.find("\n", line_start, end)
        stop = end if nl < 0 else nl
        body = text[line_start:stop].rstrip("\r")
        opener = match(body)
        skip = opener.end() if opener else 1
        out.append(CommentLine(number, col + skip, body[skip:]))
        if nl < 0:
            return tuple(out)
        line_start = _NEXT_LINE_START.match(text, nl).end()  # type: ignore[union-attr]
        number, col = number + 1, line_start - nl - 1


def _line_comment(loc: _Locator, text: str, start: int, end: int) -> CommentLine:
    line, col = loc.locate(start)
    body = text[start:end].rstrip("\r")
    opener = _OPENERS.match(body)
    skip = opener.end() if opener else 1
    return CommentLine(line, col + skip, body[skip:])


def _block_comment(loc: _Locator, text: str, start: int, end: int) -> tuple[tuple[CommentLine, ...], bool]:
    """A `/* */`-like block's lines, and whether it opens its line: each line keeps its
    column; openers, closers and the ` * ` gutter are removed so that headings inside
    stand alone."""
    first_line, first_col = loc.locate(start)
    # Only blanks before it on its line (matched, not copied: a long line may hold
    # thousands of blocks).
    own = _BLANK_RUN.match(text, start - first_col, start).end() == start  # type: ignore[union-attr]
    body = text[start:end]
    opener = _BLOCK_OPENER.match(body)
    skip = opener.end() if opener else 0
    closer = _BLOCK_CLOSER.search(body, max(0, len(body) - 32))  # closers are short
    stop = closer.start() if closer else len(body)
    inner = body[skip:stop]
    lines = inner.split("\n")
    if "\r" in inner:
        lines = [raw.rstrip("\r") for raw in lines]
    out = [CommentLine(first_line, first_col + skip, lines[0])]
    number = first_line
    for stripped in itertools.islice(lines, 1, None):
        number += 1
        # The gutter: blanks, then perhaps a `*` that closes nothing and one blank
        # (as `[ \t]*(?:\*(?!/)[ \t]?)?`; str methods, not a regex match a line).
        rest = stripped.lstrip(" \t")
        cut = len(stripped) - len(rest)
        if rest[:1] == "*" and rest[1:2] != "/":
            cut += 2 if rest[1:2] in _BLANK else 1
        out.append(CommentLine(number, cut, stripped[cut:]))
    return tuple(out), own


_BLANK = (" ", "\t")
_BLANK_RUN = compiled_on_use(r"[^\S\n]*")
_BLOCK_OPENER = compiled_on_use(r"\{\{-?\s*/\*|/\*+!?|<!--|\{-\|?")
_BLOCK_CLOSER = compiled_on_use(r"(?:\*+/\s*-?\}\}|\*+/|-->|-\})\Z")


def _docstring(loc: _Locator, text: str, start: int, end: int) -> tuple[CommentLine, ...]:
    inner_start = start + 3
    closed = text.startswith(('"""', "'''"), end - 3) and end - 3 >= inner_start
    inner_end = end - 3 if closed else end
    first_line, first_col = loc.locate(inner_start)
    out = []
    for i, raw in enumerate(text[inner_start:inner_end].split("\n")):
        col = first_col if i == 0 else 0
        out.append(CommentLine(first_line + i, col, raw.rstrip("\r")))
    return tuple(out)


def _nested_end(text: str, start: int) -> int:
    """End offset of a Haskell `{- -}` comment (which nests) opening at `start`: the
    `{-` and `-}` left to right, each taken whole (in `{-}` the `{-` opens). Found by
    `str.find`, each opener only up to the next closer: a regex for either stopped at
    every dash of the comment (GHC's notes are full of them)."""
    depth = 0
    pos = start
    while True:
        close = text.find("-}", pos)
        if close < 0:
            return len(text)
        opening = text.find("{-", pos, close + 1)  # one ending inside the closer comes first
        if opening >= 0:
            depth += 1
            pos = opening + 2
            continue
        depth -= 1
        pos = close + 2
        if depth == 0:
            return pos


def _heredoc_end(text: str, pos: int, tag: str, dash: bool) -> int:
    """Offset just after a heredoc's terminating line (end of text when there is none)."""
    body_start = text.find("\n", pos)
    if body_start < 0:
        return len(text)
    indent = r"[\t]*" if dash else ""
    m = re.compile(rf"^{indent}{re.escape(tag)}[ \t]*\r?$", re.MULTILINE).search(
        text, body_start + 1
    )
    return len(text) if m is None else m.end()


def _drop_block_scalar_spans(text: str, spans: list[Span]) -> list[Span]:
    """Spans that do not start inside a YAML block scalar (`key: |`), where `#` is content."""
    hidden = yaml_block_scalar_lines(text)
    if not hidden:
        return spans
    loc = _Locator(text)
    return [sp for sp in spans if loc.locate(sp[0])[0] not in hidden]


def yaml_block_scalar_lines(text: str) -> frozenset[int]:
    """Line numbers (from 1) inside YAML block scalars (`key: |`, `- >-`), where `#` is
    content. A line belongs to the scalar while it is blank or indented past the
    scalar's owner: the key's column (`- run: |` owns from the column of `run`, so a
    sibling key or comment under it ends the scalar), or for `- |` the dash's."""
    hidden: set[int] = set()
    for first, last in yaml_block_scalars(text):
        hidden.update(range(first, last + 1))
    return frozenset(hidden)


# Where a line may open a block scalar: an indicator, then only its modifiers, blanks and
# a comment to the line's end (`| quote }}`, Helm's pipe, is none: a chart template has
# one on most lines).
_YAML_INDICATOR = compiled_on_use(r"[|>][-+0-9]*[^\S\n]*(?:#|\n|\Z)")


@functools.cache
def _yaml_scalar_body(owner: int) -> re.Pattern[str]:
    """The lines of a block scalar owned at column `owner`: blank, or indented past it."""
    return re.compile(rf"(?:[^\S\n]*(?:\n|\Z)| {{{owner + 1},}}[^\n]*(?:\n|\Z))*")


def yaml_block_scalars(text: str) -> list[tuple[int, int]]:
    """(first, last) line numbers (from 1) of each YAML block scalar's content lines.
    Only the lines where an indicator ends the code can open one, so only those are
    read in Python, and the lines of a scalar are skipped by one match (a chart of 4,448
    files: reading every line was a fifth of YAML extraction). Same lines as reading each in turn (a
    hypothesis test compares)."""
    out: list[tuple[int, int]] = []
    search = _YAML_INDICATOR.search
    count = text.count
    size = len(text)
    pos = 0
    number = 1  # the number of the line that starts at `counted`
    counted = 0
    while True:
        m = search(text, pos)
        if m is None:
            return out
        start = text.rfind("\n", 0, m.start()) + 1
        end = text.find("\n", m.start())
        if end < 0:
            end = size
        owner = _yaml_scalar_owner(text[start:end])
        if owner < 0:
            pos = end + 1
            continue
        number += count("\n", counted, start)
        counted = start
        if end == size:  # the last line opens a scalar with no lines
            return out
        body = _yaml_scalar_body(owner).match(text, end + 1)
        assert body is not None  # (the pattern matches the empty string)
        lines = count("\n", end + 1, body.end()) + (body.end() == size)
        if lines:
            out.append((number + 1, number + lines))
        pos = body.end()
        if pos >= size:
            return out


def _yaml_scalar_owner(line: str) -> int:
    """The owner column of the block scalar `line` opens, or -1 when it opens none."""
    code = line.split(" #", 1)[0].rstrip()
    m = _YAML_BLOCK_SCALAR.search(code)
    if m is None or code.lstrip().startswith("#"):
        return -1
    before = code[:m.start("indicator")].rstrip()
    lead = _YAML_ENTRY_LEAD.match(code)
    if before.endswith(":") and lead is not None:
        return lead.end()
    if before.endswith("-"):
        return len(before) - 1
    return len(line) - len(line.lstrip(" "))
