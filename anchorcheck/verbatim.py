"""Verbatim text inside comments: examples and pasted output, not prose.

Comments quote what tools print: a debugger's backtrace (`... at Fib.hs:9`), a
compiler's error (`Defined at bug4.lhs:2`), a doctest's result (`"output/Foo.hs#foo"`).
Those locations are not claims about the workspace's files, and checked as claims
they are dangling or ambiguous paths (9 of the 15 such findings on GHC and seven
Python packages were). Two conventions mark such text, and file claims are not read
inside them (Notes, headings, links and `restates` still are):

- a doctest example: a `>>>` line and the lines after it up to a blank line (Python's
  doctest, Haddock's examples);
- a display block: after a blank line, a run of lines indented deeper than the
  last line before the blank, when that line ends with `:` ("The error message
  is:") or the run is indented 4 or more columns deeper (Markdown's indented code
  block). A run that starts with a list item (`-`, `*`, `1.`, `(a)`) is a list, not
  a display.
"""

from __future__ import annotations

import re

from anchorcheck.comment import Comment

_LIST_ITEM = re.compile(r"(?:[-*+•]|\d{1,3}[.)]|\(\w{1,3}\))(?:\s|$)")
_MARKDOWN_CODE_INDENT = 4


class Verbatim:
    """`line in verbatim`: whether a line of `comment` is verbatim, worked out on the
    first question (most comments hold no file claim, and are never asked)."""

    def __init__(self, comment: Comment) -> None:
        self._comment = comment
        self._lines: frozenset[int] | None = None

    def __contains__(self, line: object) -> bool:
        if self._lines is None:
            self._lines = verbatim_lines(self._comment)
        return line in self._lines


def verbatim_lines(comment: Comment) -> frozenset[int]:
    """The line numbers of `comment`'s lines that are verbatim (see the module)."""
    lines = comment.lines
    # Each line's column of its first non-blank character; None for a blank line.
    indents: list[int | None] = []
    for cl in lines:
        body = cl.text.lstrip(" \t")
        indents.append(cl.col + len(cl.text) - len(body) if body.strip() else None)
    out: set[int] = set()
    i = 0
    n = len(lines)
    while i < n:
        indent = indents[i]
        if indent is None:
            i += 1
            continue
        body = lines[i].text.strip()
        if body.startswith(">>>"):
            while i < n and indents[i] is not None:
                out.add(lines[i].line)
                i += 1
            continue
        nxt = i + 1
        if nxt < n and indents[nxt] is None:
            while nxt < n and indents[nxt] is None:
                nxt += 1
            first = indents[nxt] if nxt < n else None
            if first is not None and first > indent and _introduces(body, first - indent) \
                    and not _LIST_ITEM.match(lines[nxt].text.strip()):
                i = nxt
                while i < n:
                    level = indents[i]
                    if level is not None:
                        if level <= indent:
                            break  # back to the prose's level: the display ends
                        out.add(lines[i].line)
                    i += 1
                continue
        i += 1
    return frozenset(out)


def _introduces(line: str, deeper: int) -> bool:
    return line.endswith(":") or deeper >= _MARKDOWN_CODE_INDENT
