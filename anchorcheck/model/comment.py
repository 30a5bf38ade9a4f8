"""Comments: the text blocks in source files where decisions are written down."""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from typing import NamedTuple


class CommentLine(NamedTuple):
    """One line of a comment block, leader removed.

    `line` counts from 1; `col` is the 0-based column in the source line where `text`
    starts, so anchors and underlines can be compared by column as GHC does.

    A named tuple, immutable as a frozen dataclass is, because it is made for every
    line of every comment block read (GHC: 161k): a frozen dataclass sets each field
    through object.__setattr__ (1.25 us a line, 4% of Haskell extraction), a tuple is
    made at once (0.35 us). Only extraction makes and reads them; nothing stores them.
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
    # The code a `restates` marker speaks of: before a trailing comment on its line,
    # or the first code line after an own-line block.
    code: str = ""

    @property
    def start_line(self) -> int:
        return self.lines[0].line

    @property
    def end_line(self) -> int:
        return self.lines[-1].line

    @property
    def text(self) -> str:
        return "\n".join(cl.text for cl in self.lines)


@dataclass(frozen=True, slots=True)
class JoinedText:
    """A block's lines joined by newlines, so patterns can match across wrapped lines,
    with the way back from an offset to the line and column it came from."""

    text: str
    starts: tuple[int, ...]
    comment: Comment

    @classmethod
    def of(cls, comment: Comment) -> JoinedText:
        starts: list[int] = []
        pos = 0
        for cl in comment.lines:
            starts.append(pos)
            pos += len(cl.text) + 1
        return cls("\n".join(cl.text for cl in comment.lines), tuple(starts), comment)

    def locate(self, offset: int) -> tuple[int, int]:
        idx = bisect_right(self.starts, offset) - 1
        cl = self.comment.lines[idx]
        return cl.line, cl.col + offset - self.starts[idx]
