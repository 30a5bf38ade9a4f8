"""Markdown's blocks: the heading and prose blocks of a document, in order.

They come from a line-by-line reader of CommonMark's block rules
(containers: block quotes and list items; leaves: ATX and setext headings, fenced and
indented code, HTML blocks, thematic breaks, paragraphs). markdown-it-py did this
before, but its block parser costs ~25 µs per line that starts a block, so 100 KB of
one-line blocks (a hostile README of `#` lines) took 1.2-1.7 s; this reader does the
same in a tenth of that. What the reader leaves out (link reference definitions are
read as prose; tabs count as spaces up to the next multiple of four over the whole
line) only changes which lines count as prose. `tests/extract/test_markdown.py` compares it
with markdown-it-py on generated documents. markdown-it-py still supplies the HTML
block start and end conditions.

Its own room: the reader knows lines and containers only, nothing of anchors or
references (markdown.py makes Comments and anchors of its blocks), and it is the
costliest step of reading Markdown, measured line by line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple

from markdown_it.rules_block.html_block import HTML_SEQUENCES

from anchorcheck.extract.verbatim import closes_fence
from anchorcheck.patterns import compiled_on_use

# The first characters that may open a container or a leaf other than a paragraph:
# a line of prose starting with anything else skips every pattern below.
_CONTAINER_START = frozenset(">-+*0123456789")
_LEAF_START = frozenset("=-#`~*_<")
_SPECIAL = _LEAF_START | _CONTAINER_START
_QUOTE = compiled_on_use(r" {0,3}>")
_ITEM = compiled_on_use(r" {0,3}(?:[-+*]|(\d{1,9})[.)])(?= |$)")
_ATX = compiled_on_use(r" {0,3}#{1,6}(?: |$)")
_FENCE = compiled_on_use(r" {0,3}(`{3,}|~{3,})")
_BREAK = compiled_on_use(r" {0,3}(?:(?:\*[ ]*){3,}|(?:-[ ]*){3,}|(?:_[ ]*){3,})$")
_SETEXT = compiled_on_use(r" {0,3}(?:=+|-+)[ ]*$")
_CLOSING_HASHES = compiled_on_use(r"(?:^| )#+ *$")


class Block(NamedTuple):
    """Lines [start, end) (0-based) of one heading or prose block. (A named tuple, not a
    frozen dataclass: a long document has a hundred thousand, and a frozen dataclass
    sets each field through object.__setattr__.)"""

    kind: str  # "heading" | "prose"
    start: int
    end: int
    title: str = ""  # a heading's source text, inline markup included


def document_lines(lines: list[str]) -> list[str]:
    """`text.split("\n")` as Markdown counts lines: a final line end does not start
    another line (an unclosed fence or HTML block ends before it)."""
    return lines[:-1] if len(lines) > 1 and lines[-1] == "" else lines


@dataclass(slots=True)
class _Container:
    """An open block quote or list item, while a document is read line by line."""

    quote: bool
    width: int = 0  # a list item: the columns its content is indented by
    # An item whose marker line is empty ends at a blank next line (CommonMark: an
    # item begins with at most one blank line); True until that next line is seen.
    opened_empty: bool = False


@dataclass(slots=True)
class _Leaf:
    """An open leaf block (paragraph, fence, HTML, indented code)."""

    kind: str  # "para" | "fence" | "html" | "code"
    start: int
    end: int  # one past the last line that belongs to it
    close: re.Pattern[str] | str | None = None  # fence marker or HTML end condition
    depth: int = 0  # how many containers it sits in
    text: list[str] | None = None  # a paragraph's lines, container markers gone
    col: int = 0  # a paragraph's content column, as markdown-it-py counts it


def read_blocks(lines: list[str], *, short_ways: bool = True) -> list[Block]:
    """The heading and prose blocks of a Markdown document, in order. Linear: every
    line is looked at once per open container, with anchored patterns only. With
    `short_ways` off, every line goes the general way (the tests compare the two)."""
    out: list[Block] = []
    stack: list[_Container] = []
    leaf: _Leaf | None = None
    special = _SPECIAL
    for n, raw in enumerate(lines):
        line = raw.rstrip("\r")
        if "\t" in line:
            line = line.expandtabs(4)
        if short_ways and not stack:
            # Outside every container (most lines of most documents), the two commonest
            # lines take a short way, to the same end as the general one below: a line
            # of an open fence, and a line of prose that opens nothing.
            if leaf is not None and leaf.kind == "fence":
                assert isinstance(leaf.close, str)
                leaf.end = n + 1
                if closes_fence(line, leaf.close):
                    _close(out, leaf)
                    leaf = None
                continue
            stripped = line.lstrip(" ")
            if stripped and stripped[0] not in special and (leaf is None or leaf.kind == "para"):
                if leaf is not None:
                    _extend(leaf, n, line)
                    continue
                if len(line) - len(stripped) < 4:
                    leaf = _Leaf("para", n, n + 1, depth=0, text=[line], col=0)
                    continue
        # In lists (no block quote open), the two commonest lines of list-heavy documents
        # take a short way too, to the same end as the general one below (each went
        # through the container matching, the lazy-line test and the item parser:
        # kubernetes/community's meeting notes are 45% item lines, 23% blank).
        if short_ways and (leaf is None or leaf.kind == "para"):
            item = _BULLET.match(line)
            if item is not None and item.group(3) not in special:
                column = _bullet(line, item, stack)
                if column >= 0:
                    _close(out, leaf)
                    content = item.start(3)
                    stack.append(_Container(quote=False, width=content - column))
                    # (With no block quote open, the content column is the items' widths
                    # added up: where this content starts.)
                    leaf = _Leaf("para", n, n + 1, depth=len(stack), text=[line[content:]], col=content)
                    continue
            if not line.strip(" ") and all(not c.quote and not c.opened_empty for c in stack):
                _close(out, leaf)  # a blank line: every item goes on, a paragraph ends
                leaf = None
                continue
        pos, matched = _match_containers(line, stack)
        rest = line[pos:]
        blank = not rest.strip(" ")

        if leaf is not None and leaf.kind != "para" and leaf.depth == matched == len(stack):
            step = _leaf_line(leaf, n, rest, blank)
            if step != _GOES_ON:
                _close(out, leaf)
                leaf = None
            if step != _ENDED:
                continue

        if matched < len(stack):
            if (leaf is not None and leaf.kind == "para" and not blank
                    and not _ends_paragraph(rest, pos + _indent(rest) - _lazy_col(stack, matched, leaf),
                                            _past_list_indent(stack, leaf, pos + _indent(rest)))):
                _extend(leaf, n, rest)  # a lazy continuation line
                continue
            del stack[matched:]
            _close(out, leaf)
            leaf = None

        leaf = _open_blocks(out, stack, leaf, n, line, pos, rest)
    _close(out, leaf)
    return out


def _close(out: list[Block], leaf: _Leaf | None) -> None:
    """The end of the open leaf (if any): a paragraph or an HTML block is a prose block
    of `out`; the caller drops the leaf."""
    if leaf is not None and leaf.kind in ("para", "html"):
        out.append(Block("prose", leaf.start, leaf.end))


# What an open fence, HTML block or indented code block does with a line that stays in
# its containers (_leaf_line): takes it and goes on, ends with it (the line is read no
# further), or ended before it (the line is read as any other).
_GOES_ON, _ENDS_HERE, _ENDED = 0, 1, 2


def _leaf_line(leaf: _Leaf, n: int, rest: str, blank: bool) -> int:
    """What the open fence, HTML block or indented code block `leaf` does with line `n`
    (`rest`: the line past its containers' markers): _GOES_ON, _ENDS_HERE or _ENDED."""
    if leaf.kind == "fence":
        assert isinstance(leaf.close, str)
        if closes_fence(rest, leaf.close):
            leaf.end = n + 1
            return _ENDS_HERE
        leaf.end = n + 1
        return _GOES_ON
    if leaf.kind == "html":
        if isinstance(leaf.close, re.Pattern) and leaf.close.pattern == "^$":
            if blank:
                return _ENDS_HERE
            leaf.end = n + 1
            return _GOES_ON
        leaf.end = n + 1
        if isinstance(leaf.close, re.Pattern) and leaf.close.search(rest):
            return _ENDS_HERE
        return _GOES_ON
    # Indented code.
    if blank or _indent(rest) >= 4:
        if not blank:
            leaf.end = n + 1
        return _GOES_ON
    return _ENDED


def _open_blocks(
    out: list[Block], stack: list[_Container], leaf: _Leaf | None, n: int, line: str, pos: int, rest: str
) -> _Leaf | None:
    """What line `n` opens or goes on with once the containers it stays in are matched
    (`rest`: the line from their content's column, `pos`): new containers, then
    indented code, a heading, a fence, a thematic break, an HTML block or a paragraph
    line. The blocks it ends or makes whole go to `out`; the leaf left open is
    returned (None: no leaf is open)."""
    stripped = rest.lstrip(" ")
    if stripped[:1] in _CONTAINER_START and stripped:
        opened_at = _open_containers(line, pos, stack, in_paragraph=leaf is not None and leaf.kind == "para")
        if opened_at > pos:  # (a container opened, and the open leaf ended before it)
            _close(out, leaf)
            leaf = None
            rest = line[opened_at:]
            stripped = rest.lstrip(" ")
    if not stripped:
        _close(out, leaf)
        return None
    depth = len(stack)
    indent = len(rest) - len(stripped)
    in_para = leaf is not None and leaf.kind == "para"
    if indent >= 4:
        if leaf is not None and in_para:
            _extend(leaf, n, rest)
            return leaf
        _close(out, leaf)
        return _Leaf("code", n, n + 1, depth=depth)
    if stripped[0] in _LEAF_START:
        if leaf is not None and in_para and _SETEXT.match(rest):
            title = "\n".join(t.strip(" ") for t in leaf.text or ())
            out.append(Block("heading", leaf.start, n + 1, title.strip()))
            return None
        if _ATX.match(rest):
            _close(out, leaf)
            out.append(Block("heading", n, n + 1, _atx_title(rest)))
            return None
        fence = _FENCE.match(rest)
        if fence is not None and not (fence.group(1)[0] == "`" and "`" in rest[fence.end():]):
            _close(out, leaf)
            return _Leaf("fence", n, n + 1, fence.group(1), depth)
        if _BREAK.match(rest):
            _close(out, leaf)
            return None
        html = _html_start(stripped, in_paragraph=in_para)
        if html is not None:
            _close(out, leaf)
            leaf = _Leaf("html", n, n + 1, html, depth)
            if html.pattern != "^$" and html.search(rest):
                _close(out, leaf)
                return None
            return leaf
    if leaf is not None and in_para:
        _extend(leaf, n, rest)
        return leaf
    return _Leaf("para", n, n + 1, depth=depth, text=[rest], col=_content_col(stack))


def _open_containers(line: str, pos: int, stack: list[_Container], *, in_paragraph: bool) -> int:
    """The block quotes and list items a line opens from column `pos`, pushed on
    `stack`: the column their content starts at (`pos` when none opens). The open
    leaf ends where the first opens, so only the first can be opened in a paragraph."""
    rest = line[pos:]
    stripped = rest.lstrip(" ")
    while stripped[:1] in _CONTAINER_START and stripped:
        q = _QUOTE.match(rest) if stripped[0] == ">" else None
        if q is not None:
            stack.append(_Container(quote=True))
            pos += q.end() + (1 if line[pos + q.end():pos + q.end() + 1] == " " else 0)
        else:
            width = _item(rest, in_paragraph=in_paragraph)
            if width is None:
                break
            stack.append(_Container(quote=False, width=width, opened_empty=not rest[width:].strip(" ")))
            pos += min(width, len(rest))
        in_paragraph = False
        rest = line[pos:]
        stripped = rest.lstrip(" ")
    return pos


def _extend(leaf: _Leaf, n: int, rest: str) -> None:
    leaf.end = n + 1
    if leaf.text is not None:
        leaf.text.append(rest)


# A bullet item's line: its indentation, marker and 1-4 blanks, then its content (the
# first character, which the caller checks opens nothing of its own).
_BULLET = compiled_on_use(r"( *)[-+*]( {1,4})([^ ])")


def _bullet(line: str, item: re.Match[str], stack: list[_Container]) -> int:
    """Where a bullet item line (`_BULLET`, its content opening nothing) opens a new item,
    as the general way reads it: in the innermost list item it stays in, with a
    paragraph in it. Then the items it leaves are closed, those it stays in go on
    (marked so), and that item's content column is returned; else -1, nothing changed:
    a block quote open, or the marker 4 or more past that column (indented code). (It
    is never a lazy line of an open paragraph: that paragraph's content column is past
    every item's, so the line is less indented than it, and a bullet with content may
    interrupt a paragraph.)"""
    if any(c.quote for c in stack):
        return -1
    pos, kept = _match_containers(line, stack)  # (marks the items it stays in, as the general way would)
    if item.end(1) - pos > 3:
        return -1
    del stack[kept:]
    return pos


def _match_containers(line: str, stack: list[_Container]) -> tuple[int, int]:
    """How far the open containers continue on this line: (column, how many). List
    items before the first block quote are matched by the line's indentation, counted
    once (the meeting notes of kubernetes/community nest lists four deep: each line
    sliced and re-counted per item was a fifth of reading their blocks)."""
    stripped = line.lstrip(" ")
    pos = 0
    if not stripped:  # a blank line: an item goes on unless it opened empty
        for i, c in enumerate(stack):
            if c.quote or c.opened_empty:
                return pos, i
            pos = len(line)
        return pos, len(stack)
    indent = len(line) - len(stripped)
    for i, c in enumerate(stack):
        if c.quote:
            return _match_from(line, stack, i, pos)
        if indent - pos < c.width:  # (pos never passes the indentation here)
            return pos, i
        pos += c.width
        c.opened_empty = False
    return pos, len(stack)


def _match_from(line: str, stack: list[_Container], first: int, pos: int) -> tuple[int, int]:
    """_match_containers from container `first`, at column `pos`: any container."""
    for i in range(first, len(stack)):
        c = stack[i]
        rest = line[pos:]
        if c.quote:
            q = _QUOTE.match(rest)
            if q is None:
                return pos, i
            pos += q.end() + (1 if rest[q.end():q.end() + 1] == " " else 0)
        elif not rest.strip(" "):
            if c.opened_empty:
                return pos, i
            pos = len(line)
        elif _indent(rest) >= c.width:
            pos += c.width
            c.opened_empty = False
        else:
            return pos, i
    return pos, len(stack)


def _item(rest: str, *, in_paragraph: bool) -> int | None:
    """A list item marker opening `rest`: the width of its content indent, or None."""
    first = rest.lstrip(" ")[:1]
    if not first or first not in _CONTAINER_START:
        return None
    m = _ITEM.match(rest)
    if m is None or _BREAK.match(rest):
        return None
    after = rest[m.end():]
    empty = not after.strip(" ")
    if in_paragraph and (empty or (m.group(1) is not None and int(m.group(1)) != 1)):
        return None  # an empty item, or a list not starting at 1, cannot interrupt a paragraph
    spaces = len(after) - len(after.lstrip(" "))
    if empty or spaces > 4:
        return m.end() + 1  # content on the next line, or indented code after one space
    return m.end() + spaces


def _content_col(stack: list[_Container]) -> int:
    """The column markdown-it-py measures a lazy line's indentation from: the item
    widths since the innermost block quote (a quote restarts the count)."""
    col = 0
    for c in stack:
        col = 0 if c.quote else col + c.width
    return col


def _lazy_col(stack: list[_Container], matched: int, leaf: _Leaf) -> int:
    """Where markdown-it-py measures a possibly lazy line's indentation from: an
    unmatched block quote decides from the column it stands at, else the paragraph."""
    for i in range(matched, len(stack)):
        if stack[i].quote:
            return _content_col(stack[:i])
    return leaf.col


def _past_list_indent(stack: list[_Container], leaf: _Leaf, column: int) -> bool:
    """Whether a line indented to `column` stands 4 or more columns past where the
    markers of the paragraph's list item stand, and before the item's content: a list
    item there is text of the paragraph (CommonMark's "- item 4 / - this one is a
    paragraph continuation"; markdown-it-py's listIndent test). kubernetes/community's
    meeting notes have `    *    Removing node.ExternalID` then `        *   https://...`
    (pulldown-cmark and markdown-it-py read the URLs as its text; read as code, their
    references were lost.) Only outside block quotes, where columns count from the line's
    start."""
    if not stack or leaf.depth != len(stack) or any(c.quote for c in stack):
        return False
    return column - (leaf.col - stack[-1].width) >= 4 and column < leaf.col


def _ends_paragraph(rest: str, indent: int, past_list: bool = False) -> bool:
    """Whether a line that leaves the paragraph's containers ends it rather than
    continuing it lazily; `indent` is counted from the paragraph's content column.
    `past_list`: the line stands 4 or more columns past its list's markers (and before
    the item's content), where no list item starts (_past_list_indent)."""
    if indent >= 4:
        return False
    rest = rest.lstrip(" ")
    first = rest[:1]
    if first not in _SPECIAL:  # (most lazy lines: prose)
        return False
    # A block quote or a list item (most lines that end one: the next item), else a leaf.
    if first == ">" or (first in _CONTAINER_START and not past_list
                        and _item(rest, in_paragraph=False) is not None):
        return True
    return _starts_block(rest, in_paragraph=True)


def _starts_block(rest: str, *, in_paragraph: bool) -> bool:
    """Whether `rest` opens a leaf block that ends a paragraph."""
    stripped = rest.lstrip(" ")
    if len(rest) - len(stripped) >= 4 or stripped[:1] not in _LEAF_START or not stripped:
        return False
    if _ATX.match(rest) or _BREAK.match(rest):
        return True
    fence = _FENCE.match(rest)
    if fence is not None and not (fence.group(1)[0] == "`" and "`" in rest[fence.end():]):
        return True
    return _html_start(rest.lstrip(" "), in_paragraph=in_paragraph) is not None


def _html_start(text: str, *, in_paragraph: bool) -> re.Pattern[str] | None:
    """The end condition of the HTML block `text` opens (markdown-it-py's table of
    CommonMark's seven kinds), or None."""
    if not text.startswith("<"):
        return None
    for start, end, interrupts in HTML_SEQUENCES:
        if start.search(text):
            return end if interrupts or not in_paragraph else None
    return None


def _atx_title(rest: str) -> str:
    body = rest.lstrip(" ").lstrip("#").strip(" ")
    m = _CLOSING_HASHES.search(body)
    if m is not None:
        body = body[:m.start()]
    return body.strip(" ")


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip(" "))
