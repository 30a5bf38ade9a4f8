"""From what a scanner found to a Comment: the kinds of span it finds, where each
stands (its line and column, whether it opens its line), and each Comment's lines with
the opener, closer and ` * ` gutter removed, and the code beside it.

Its own room: the scanners (scanners.py) only find spans, and most spans are never
built (the keep test drops them first); what a built comment holds is decided here.
"""

from __future__ import annotations

import itertools

from anchorcheck.model.comment import Comment, CommentLine
from anchorcheck.patterns import compiled_on_use

_OPENERS = compiled_on_use(r"^(?:#+|//+!?|--+|;+|dnl\b)")  # `//!`: Rust's and Doxygen's inner doc comments
NEXT_LINE_START = compiled_on_use(r"\n[^\S\n]*")


# Span kinds: what the scanner found, before any Comment is built.
LINE, BLOCK, DOC, RUN = 0, 1, 2, 3  # RUN: consecutive own-line line comments
Span = tuple[int, int, int]  # (start offset, end offset, kind)


def on_own_line(text: str, start: int) -> bool:
    line_start = text.rfind("\n", 0, start) + 1
    return text[line_start:start].strip() == ""


class Locator:
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


def build_comment(text: str, block: list[Span], loc: Locator) -> Comment:
    start, end, kind = block[0]
    if kind == DOC:
        lines, own, kind_name = _docstring(loc, text, start, end), True, "docstring"
    elif kind == BLOCK:
        lines, own = _block_comment(loc, text, start, end)
        kind_name = "block"
    else:
        own, kind_name = on_own_line(text, start), "comment"
        if kind == RUN:
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


def _run_comment(loc: Locator, text: str, start: int, end: int) -> tuple[CommentLine, ...]:
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
        line_start = NEXT_LINE_START.match(text, nl).end()  # type: ignore[union-attr]
        number, col = number + 1, line_start - nl - 1


def _line_comment(loc: Locator, text: str, start: int, end: int) -> CommentLine:
    line, col = loc.locate(start)
    body = text[start:end].rstrip("\r")
    opener = _OPENERS.match(body)
    skip = opener.end() if opener else 1
    return CommentLine(line, col + skip, body[skip:])


def _block_comment(loc: Locator, text: str, start: int, end: int) -> tuple[tuple[CommentLine, ...], bool]:
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


def _docstring(loc: Locator, text: str, start: int, end: int) -> tuple[CommentLine, ...]:
    inner_start = start + 3
    closed = text.startswith(('"""', "'''"), end - 3) and end - 3 >= inner_start
    inner_end = end - 3 if closed else end
    first_line, first_col = loc.locate(inner_start)
    out = []
    for i, raw in enumerate(text[inner_start:inner_end].split("\n")):
        col = first_col if i == 0 else 0
        out.append(CommentLine(first_line + i, col, raw.rstrip("\r")))
    return tuple(out)
