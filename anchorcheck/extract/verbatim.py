"""Verbatim text inside comments: examples and pasted output, not prose.

Comments quote what tools print: a debugger's backtrace (`... at Fib.hs:9`), a
compiler's error (`Defined at bug4.lhs:2`), a doctest's result (`"output/Foo.hs#foo"`).
Those locations are not claims about the workspace's files: checked as claims they
were 7 of the 12 dangling-path errors on GHC and seven Python packages. Nor is a caps
line there a heading (a diagram's `INPUT  DECODED`, a dump's `COERCION AXIOMS`).
Three conventions mark such text; file claims and caps headings are not read inside
it (Notes, cited headings, links and `restates` still are):

- a fenced code block (a line opening with three or more backticks, or tildes after a
  blank line, up to the closing fence): doc comments are Markdown in Rust and
  elsewhere. (Right under a line, `~~~~` is a rule: GHC's Notes underline their
  titles so);
- a doctest example: a `>>>` line and the lines after it up to a blank line (Python's
  doctest, Haddock's examples);
- a display block: after a blank line, a run of lines indented deeper than the
  last line before the blank, when that line ends with `:` ("The error message
  is:") or the run is indented 4 or more columns deeper (Markdown's indented code
  block). A run that starts with a list item (`-`, `*`, `1.`, `(a)`) is a list, not
  a display.

(anchorcheck: ignore[AC105]: examples, not citations)"""

from __future__ import annotations

import re

from anchorcheck.model.comment import Comment

# A fence's mark, at the start of a line's text (its indent taken off).
FENCE = re.compile(r"`{3,}|~{3,}")
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
        fence = FENCE.match(body)
        if fence is not None and (body[0] == "`" or i == 0 or indents[i - 1] is None):
            # A fenced code block (a doc comment's Markdown: rustdoc, TSDoc, Javadoc's
            # Markdown), up to its closing fence or the comment's end.
            mark = fence.group(0)
            out.add(lines[i].line)
            i += 1
            while i < n:
                out.add(lines[i].line)
                closing = lines[i].text.strip()
                i += 1
                if closes_fence(closing, mark):
                    break
            continue
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


def closes_fence(rest: str, marker: str) -> bool:
    """Whether a line closes the fence `marker` opened (CommonMark: the same character
    at least as many times, indented less than 4, nothing after but blanks)."""
    stripped = rest.lstrip(" ")
    if len(rest) - len(stripped) >= 4:
        return False
    run = len(stripped) - len(stripped.lstrip(marker[0]))
    return run >= len(marker) and not stripped[run:].strip(" ")


def _introduces(line: str, deeper: int) -> bool:
    return line.endswith(":") or deeper >= _MARKDOWN_CODE_INDENT
