"""Comment scanners: a file walked with its language family's patterns (families.py),
string-literal aware.

Each family's pattern matches, at every position the loop stops at, either a comment
(which is kept) or a region that cannot hold a comment (a string, a heredoc, a
template action), which is skipped whole. Every alternative starts with a literal
and every repetition is bounded by a terminator or the end of input, so a scan is
linear in the size of the file, also on hostile input (an unterminated `/*` simply
runs to the end of the file instead of being retried at every later position).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator

from anchorcheck.extract.comment_lines import (
    BLOCK,
    DOC,
    LINE,
    NEXT_LINE_START,
    RUN,
    Locator,
    Span,
    build_comment,
    on_own_line,
)
from anchorcheck.extract.families import FAMILIES, FIRST, NEXT, YAML_NEXT_RE, Family
from anchorcheck.extract.yaml_scalars import yaml_block_scalar_lines
from anchorcheck.model.comment import Comment
from anchorcheck.patterns import compiled_on_use


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
    elif family in NEXT:
        blocks = _matched_blocks(text, NEXT[family])
    else:
        fam = FAMILIES.get(family)
        if fam is None:
            return []
        if family == "yaml":
            spans = list(_yaml_spans(text))
            if spans:
                spans = _drop_block_scalar_spans(text, spans)
        else:
            spans = list(_spans(text, fam, FIRST[family]))
        blocks = _blocks(text, spans)
    loc = Locator(text)
    select = getattr(keep, "select", None)
    if select is not None:  # a KeepTest: all the blocks tested at once
        found = list(blocks)
        kept = select(text, [(block[0][0], block[-1][1]) for block in found])
        return [build_comment(text, block, loc) for block, ok in zip(found, kept, strict=True) if ok]
    out: list[Comment] = []
    for block in blocks:
        if keep is not None and not keep(text, block[0][0], block[-1][1]):
            continue
        out.append(build_comment(text, block, loc))
    return out


def _spans(text: str, fam: Family, first: re.Pattern[str] | None) -> Iterator[Span]:
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
            yield (start, end, LINE)
        elif kind == "bc":
            yield (start, end, BLOCK)
        elif kind == "nbc":
            pos = _nested_end(text, start)
            yield (start, pos, BLOCK)
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


def _yaml_spans(text: str) -> Iterator[Span]:
    """The spans `_spans` finds in YAML, one match of _YAML_NEXT each."""
    match = YAML_NEXT_RE.match
    pos = 0
    while True:
        m = match(text, pos)
        if m is None:
            return
        if m.lastgroup == "bc":
            start, pos = m.span("bc")
            yield (start, pos, BLOCK)
        else:
            start, pos = m.span("lc")
            yield (start, pos, LINE)


def _matched_blocks(text: str, pattern: re.Pattern[str]) -> Iterator[list[Span]]:
    """The comment blocks of a family with a NEXT pattern, one match each."""
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
            yield [(start, pos, BLOCK)]
            continue
        if kind == "bc":
            start, pos = m.span("bc")
            yield [(start, pos, BLOCK)]
            continue
        start, pos = m.span("lc")
        yield from _line_run(text, start, pos)


def _python_blocks(text: str) -> Iterator[list[Span]]:
    """Python's blocks: runs of `#` comments (as _matched_blocks makes them), and
    docstrings (a triple-quoted string in statement position)."""
    first_code = _first_code_offset(text)
    match = NEXT["python"].match
    pos = 0
    while True:
        m = match(text, pos)
        if m is None:
            return
        kind = m.lastgroup or ""  # always lc or str: the match ends with one of them
        start, pos = m.span(kind)
        if kind == "str":
            if _is_docstring(text, start, first_code):
                yield [(start, pos, DOC)]
            continue
        yield from _line_run(text, start, pos)


def _line_run(text: str, start: int, end: int) -> Iterator[list[Span]]:
    """The blocks of a run of line comments on consecutive lines: one, unless the first
    follows code on its line (then it is a block of its own)."""
    first_end = text.find("\n", start, end)
    if first_end < 0:
        yield [(start, end, LINE)]
    elif on_own_line(text, start):
        yield [(start, end, RUN)]
    else:
        yield [(start, first_end, LINE)]
        nxt = NEXT_LINE_START.match(text, first_end)
        assert nxt is not None
        yield [(nxt.end(), end, RUN)]


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


def _blocks(text: str, spans: list[Span]) -> Iterator[list[Span]]:
    """Group consecutive own-line line comments into one block, as a reader sees them."""
    block: list[Span] = []
    for span in spans:
        if block and span[2] == LINE and block[-1][2] == LINE and _continues(text, block[-1], span):
            block.append(span)
            continue
        if block:
            yield block
        block = [span]
    if block:
        yield block


def _continues(text: str, prev: Span, span: Span) -> bool:
    gap = text[prev[1]:span[0]]
    return gap.count("\n") == 1 and gap.strip() == "" and on_own_line(text, prev[0])


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
    loc = Locator(text)
    return [sp for sp in spans if loc.locate(sp[0])[0] not in hidden]
