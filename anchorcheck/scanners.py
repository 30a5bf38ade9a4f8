"""Comment scanners: one regex per language family, string-literal aware.

Each family's pattern matches, at every position the loop stops at, either a comment
(which is kept) or a region that cannot hold a comment (a string, a heredoc, a
template action), which is skipped whole. Every alternative starts with a literal
and every repetition is bounded by a terminator or the end of input, so a scan is
linear in the size of the file, also on hostile input (an unterminated `/*` simply
runs to the end of the file instead of being retried at every later position).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from anchorcheck.comment import Comment, CommentLine

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
    pattern: re.Pattern[str]
    # A `#` (or other opener) only opens a comment where this says so.
    opener_ok: Callable[[str, int], bool] | None = None


def _hash_ok(text: str, pos: int) -> bool:
    """Shell/YAML/Make rule: `#` opens a comment at line start or after white space."""
    return pos == 0 or text[pos - 1] in " \t\n\r;|&()"


def _line_start_ok(text: str, pos: int) -> bool:
    """Dockerfile/INI rule: only a line whose first non-blank character is the opener."""
    start = text.rfind("\n", 0, pos) + 1
    return text[start:pos].strip() == ""


def _compile(*alternatives: str) -> re.Pattern[str]:
    return re.compile("|".join(alternatives), re.DOTALL)


_FAMILIES: dict[str, _Family] = {
    "python": _Family(_compile(
        rf"(?P<str>{_TRIPLE_DQ}|{_TRIPLE_SQ}|{_DQ}|{_SQ})",
        r"(?P<lc>#[^\n]*)",
    )),
    "hash": _Family(_compile(
        rf"(?P<str>{_DQ}|{_SQ})", r"(?P<lc>#[^\n]*)",
    ), _hash_ok),
    "yaml": _Family(_compile(
        r"(?P<bc>\{\{-?\s*/\*.*?(?:\*/\s*-?\}\}|\Z))",
        r"(?P<skip>\{\{.*?(?:\}\}|\Z))",
        rf"(?P<str>{_DQ}|'(?:[^'\n]|'')*'?)",
        r"(?P<lc>#[^\n]*)",
    ), _hash_ok),
    "shell": _Family(_compile(
        r"(?P<heredoc><<-?[ \t]*(?P<q>['\"]?)(?P<tag>[A-Za-z_][A-Za-z0-9_]*)(?P=q))",
        rf"(?P<str>\$'[^'\\]*(?:\\.[^'\\]*)*'?|{_DQ_ML}|{_SQ_RAW_ML}|{_BACKTICK})",
        r"(?P<lc>#[^\n]*)",
    ), _hash_ok),
    "dockerfile": _Family(_compile(r"(?P<lc>#[^\n]*)"), _line_start_ok),
    "toml": _Family(_compile(
        rf"(?P<str>{_TRIPLE_DQ}|{_TRIPLE_SQ}|{_DQ}|'[^'\n]*'?)", r"(?P<lc>#[^\n]*)",
    )),
    "ini": _Family(_compile(r"(?P<lc>[#;][^\n]*)"), _line_start_ok),
    "make": _Family(_compile(r"(?P<lc>#[^\n]*)"), lambda t, p: p == 0 or t[p - 1] != "\\"),
    "c": _Family(_compile(
        rf"(?P<str>{_DQ}|{_CHAR}|{_BACKTICK})",
        r"(?P<lc>//[^\n]*)",
        rf"(?P<bc>{_BLOCK_C})",
    )),
    "js": _Family(_compile(
        rf"(?P<str>{_DQ}|{_SQ}|{_BACKTICK})",
        r"(?P<lc>//[^\n]*)",
        rf"(?P<bc>{_BLOCK_C})",
    )),
    "rust": _Family(_compile(
        r"(?P<raw>r(?P<hashes>#+)\")",
        rf"(?P<str>{_DQ_ML}|{_CHAR})",
        r"(?P<lc>//[^\n]*)",
        rf"(?P<bc>{_BLOCK_C})",
    )),
    "css": _Family(_compile(rf"(?P<str>{_DQ}|{_SQ})", rf"(?P<bc>{_BLOCK_C})")),
    "hcl": _Family(_compile(
        rf"(?P<str>{_DQ})", r"(?P<lc>(?:#|//)[^\n]*)", rf"(?P<bc>{_BLOCK_C})",
    )),
    "haskell": _Family(_compile(
        r"(?P<nbc>\{-)",
        rf"(?P<str>{_DQ}|{_CHAR})",
        r"(?P<lc>--+(?![!#$%&*+./<=>?@\\^|~:])[^\n]*)",
    ), lambda t, p: p == 0 or t[p - 1] not in "!#$%&*+./<=>?@\\^|~:"),
    "sql": _Family(_compile(
        r"(?P<str>'[^']*'?|\"[^\"\n]*\"?)",
        r"(?P<lc>--[^\n]*)",
        rf"(?P<bc>{_BLOCK_C})",
    )),
    "html": _Family(_compile(r"(?P<bc><!--.*?(?:-->|\Z))")),
}

_YAML_BLOCK_SCALAR = re.compile(r"(?:^|[:\-]\s+|^\s*)[|>][-+0-9]*\s*(?:#.*)?$")
_OPENERS = re.compile(r"^(?:#+|//+|--+|;+)")


def scan(text: str, family: str) -> list[Comment]:
    """All comment blocks of `text`, a file written in `family`'s syntax."""
    if family == "python":
        return _merge(_scan_python(text))
    fam = _FAMILIES.get(family)
    if fam is None:
        return []
    hidden = _yaml_block_scalar_lines(text) if family == "yaml" else frozenset()
    raw = _scan(text, fam)
    if hidden:
        raw = (c for c in raw if c.lines[0].line not in hidden)
    return _merge(raw)


def _scan(text: str, fam: _Family) -> Iterator[Comment]:
    lines = _LineIndex(text)
    pos = 0
    search = fam.pattern.search
    while True:
        m = search(text, pos)
        if m is None:
            return
        kind = m.lastgroup
        pos = max(m.end(), m.start() + 1)
        if kind == "lc":
            if fam.opener_ok is not None and not fam.opener_ok(text, m.start()):
                pos = m.start() + 1
                continue
            yield _line_comment(lines, text, m.start(), m.end())
        elif kind == "bc":
            yield _block_comment(lines, text, m.start(), m.end())
        elif kind == "nbc":
            end = _nested_end(text, m.start())
            yield _block_comment(lines, text, m.start(), end)
            pos = end
        elif kind == "heredoc":
            pos = _heredoc_end(text, m.end(), m.group("tag"), m.group(0).startswith("<<-"))
        elif kind == "raw":
            close = '"' + m.group("hashes")
            end = text.find(close, m.end())
            pos = len(text) if end < 0 else end + len(close)


def _scan_python(text: str) -> Iterator[Comment]:
    """Python: `#` comments, plus docstrings (a triple-quoted string in statement position)."""
    fam = _FAMILIES["python"]
    lines = _LineIndex(text)
    pos = 0
    while True:
        m = fam.pattern.search(text, pos)
        if m is None:
            return
        pos = max(m.end(), m.start() + 1)
        if m.lastgroup == "lc":
            yield _line_comment(lines, text, m.start(), m.end())
        elif _is_docstring(text, m.start(), m.group(0)):
            yield _docstring(lines, text, m.start(), m.end())


def _is_docstring(text: str, start: int, literal: str) -> bool:
    if not literal.startswith(('"""', "'''")):
        return False
    line_start = text.rfind("\n", 0, start) + 1
    if text[line_start:start].strip().strip("rRbBuUfF"):
        return False
    before = text[:line_start].rstrip()
    # Module docstring (nothing but comments before) or right after a `...:` header line.
    return before == "" or before.endswith(":") or all(
        not ln.strip() or ln.lstrip().startswith("#") for ln in before.splitlines()
    )


class _LineIndex:
    """Maps offsets to (line, column) in O(log n)."""

    def __init__(self, text: str) -> None:
        self.starts = [0]
        find = text.find
        i = find("\n")
        while i >= 0:
            self.starts.append(i + 1)
            i = find("\n", i + 1)

    def locate(self, offset: int) -> tuple[int, int]:
        from bisect import bisect_right

        idx = bisect_right(self.starts, offset) - 1
        return idx + 1, offset - self.starts[idx]


def _line_comment(lines: _LineIndex, text: str, start: int, end: int) -> Comment:
    line, col = lines.locate(start)
    body = text[start:end].rstrip("\r")
    opener = _OPENERS.match(body)
    skip = opener.end() if opener else 1
    line_start = start - col
    own = text[line_start:start].strip() == ""
    return Comment((CommentLine(line, col + skip, body[skip:]),), own_line=own)


def _block_comment(lines: _LineIndex, text: str, start: int, end: int) -> Comment:
    """A `/* */`-like block: each line keeps its column; openers, closers and the
    ` * ` gutter are removed so that headings inside stand alone."""
    first_line, first_col = lines.locate(start)
    own = text[start - first_col:start].strip() == ""
    body = text[start:end]
    opener = re.match(r"\{\{-?\s*/\*|/\*+!?|<!--|\{-\|?", body)
    skip = opener.end() if opener else 0
    closer = re.search(r"(?:\*+/\s*-?\}\}|\*+/|-->|-\})\Z", body)
    stop = closer.start() if closer else len(body)
    out: list[CommentLine] = []
    offset = skip
    for i, raw in enumerate(body[skip:stop].split("\n")):
        line = first_line + i
        col = first_col + offset if i == 0 else 0
        stripped = raw.rstrip("\r")
        if i > 0:
            gutter = re.match(r"[ \t]*(?:\*(?!/)[ \t]?)?", stripped)
            cut = gutter.end() if gutter else 0
            col, stripped = cut, stripped[cut:]
        out.append(CommentLine(line, col, stripped))
        offset = 0
    if not out:
        out.append(CommentLine(first_line, first_col, ""))
    return Comment(tuple(out), own_line=own, kind="block")


def _docstring(lines: _LineIndex, text: str, start: int, end: int) -> Comment:
    literal = text[start:end]
    inner_start = start + 3
    inner_end = end - 3 if literal.endswith(('"""', "'''")) and end - 3 >= inner_start else end
    first_line, first_col = lines.locate(inner_start)
    out = []
    for i, raw in enumerate(text[inner_start:inner_end].split("\n")):
        col = first_col if i == 0 else 0
        out.append(CommentLine(first_line + i, col, raw.rstrip("\r")))
    return Comment(tuple(out), own_line=True, kind="docstring")


def _nested_end(text: str, start: int) -> int:
    """End offset of a Haskell `{- -}` comment, which nests."""
    depth = 0
    tokens = re.compile(r"\{-|-\}")
    for m in tokens.finditer(text, start):
        depth += 1 if m.group(0) == "{-" else -1
        if depth == 0:
            return m.end()
    return len(text)


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


def _yaml_block_scalar_lines(text: str) -> frozenset[int]:
    """Line numbers inside YAML block scalars (`key: |`), where `#` is content."""
    hidden: set[int] = set()
    owner_indent = -1
    for number, line in enumerate(text.split("\n"), start=1):
        stripped = line.strip()
        indent = len(line) - len(line.lstrip(" "))
        if owner_indent >= 0:
            if not stripped or indent > owner_indent:
                hidden.add(number)
                continue
            owner_indent = -1
        if "|" in line or ">" in line:
            code = line.split(" #", 1)[0].rstrip()
            if _YAML_BLOCK_SCALAR.search(code) and not code.lstrip().startswith("#"):
                owner_indent = indent
    return frozenset(hidden)


def _merge(comments: Iterator[Comment] | list[Comment]) -> list[Comment]:
    """Join consecutive own-line line comments into one block, as a reader sees them."""
    out: list[Comment] = []
    for c in comments:
        prev = out[-1] if out else None
        if (
            prev is not None
            and c.own_line
            and prev.own_line
            and len(c.lines) == 1
            and prev.kind == c.kind == "comment"
            and prev.end_line + 1 == c.start_line
        ):
            out[-1] = Comment(prev.lines + c.lines, own_line=True, kind="comment")
        else:
            out.append(c)
    return out

