"""References: citations of an anchor, a file, or lines, found inside comments."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from anchorcheck.model.pickling import by_constructor


class RefKind(StrEnum):
    HEADING = "heading"  # a named heading, with or without a location
    NOTE = "note"  # GHC-style Note [Title]
    SLUG = "fragment"  # PATH#slug or a Markdown link with a fragment
    PATH = "path"  # a file (Markdown link, blob URL) with no heading
    LINES = "lines"  # a line claim: a file and a line range, maybe with the text claimed there
    SYMBOL = "symbol"  # a symbol claim: the file defines `name`
    FACT = "restates"  # a restated value: `claim` (a literal) equals the fact `name` of the file
    # An issue or change on a forge: `name` its number, `target_repo` REPO, OWNER/NAME or
    # (a URL's) its path, `target_path` a URL's host; `claim` "pending" when waited on.
    ISSUE = "issue"


_NAMED = (RefKind.HEADING, RefKind.NOTE, RefKind.SLUG, RefKind.SYMBOL, RefKind.FACT, RefKind.ISSUE)


@by_constructor
@dataclass(frozen=True, slots=True)
class Reference:
    """One citation. `target_repo`/`target_path` are as written (None when the
    reference names no location); `name` is the heading, note title or fragment."""

    kind: RefKind
    line: int
    col: int
    text: str
    name: str | None = None
    target_repo: str | None = None
    target_path: str | None = None
    relative: bool = False  # a Markdown link: the path is relative to the citing file
    lines: tuple[int, int] | None = None
    via_url: bool = False  # a GitHub blob URL: target_repo is `owner/name`
    claim: str | None = None  # LINES: the text said to be there; FACT: the literal restated
    repo: str = ""
    path: str = ""

    @classmethod
    def make(
        cls,
        kind: RefKind,
        line: int,
        col: int,
        text: str,
        *,
        name: str | None = None,
        target_repo: str | None = None,
        target_path: str | None = None,
        relative: bool = False,
        lines: tuple[int, int] | None = None,
        via_url: bool = False,
        claim: str | None = None,
    ) -> Reference:
        if kind in _NAMED and not name:
            raise ValueError(f"a {kind} reference needs a name")
        if line < 1 or col < 0:
            raise ValueError(f"bad reference position {line}:{col}")
        # (An empty Markdown link, `[x]()`, is a PATH to "": a link that goes nowhere.)
        if kind in (RefKind.PATH, RefKind.SYMBOL, RefKind.FACT) and not target_path \
                and not (kind is RefKind.PATH and relative and target_path == ""):
            raise ValueError(f"a {kind} reference needs a path")
        if lines is not None and not 1 <= lines[0] <= lines[1]:
            raise ValueError(f"bad line range {lines}")
        return cls(
            kind, line, col, text, name, target_repo, target_path, relative, lines, via_url, claim
        )

    @property
    def is_claim(self) -> bool:
        return self.kind in (RefKind.LINES, RefKind.SYMBOL, RefKind.FACT)

    @property
    def location_text(self) -> str:
        if self.target_path is None:
            return ""
        return f"{self.target_repo}:{self.target_path}" if self.target_repo else self.target_path
