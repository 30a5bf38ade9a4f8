"""Comments: the text blocks in source files where decisions are written down."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class CommentLine:
    """One line of a comment block, leader removed.

    `line` counts from 1; `col` is the 0-based column in the source line where `text`
    starts, so anchors and underlines can be compared by column as GHC does.
    """

    line: int
    col: int
    text: str


@dataclass(frozen=True, slots=True)
class Comment:
    """A comment block (or a Markdown prose block) and its line span.

    `own_line` is false for a trailing comment after code on the same line: such a
    comment cannot be a heading.
    """

    lines: tuple[CommentLine, ...]
    own_line: bool = True
    kind: str = "comment"  # "comment" (line), "block", "docstring", "prose" (Markdown)

    @property
    def start_line(self) -> int:
        return self.lines[0].line

    @property
    def end_line(self) -> int:
        return self.lines[-1].line

    @property
    def text(self) -> str:
        return "\n".join(cl.text for cl in self.lines)
