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


class Evidence(StrEnum):
    """Which syntax a reference came from. The prose shapes (`prose`) are read from free
    text: a bare path in a sentence, `FILE:N` with no text claimed, a quoted phrase."""

    LINK = "link"  # a Markdown or HTML link, a link reference definition
    BLOB_URL = "blob-url"  # a GitHub or GitLab URL into a repo
    NOTE = "note"  # `Note [Title]`
    HEADING_IN_PATH = "heading-in-path"  # "see HEADING in PATH"
    QUOTED_HEADING = "quoted-heading"  # a heading named with no place ("see 'X'")
    PATH_FRAGMENT = "path-fragment"  # `PATH#slug` outside a link
    LINE_CLAIM = "path-line-claim"  # "`text` at PATH:N"
    LINE = "path-line"  # `PATH:N` with no text claimed
    SYMBOL_CLAIM = "symbol-claim"  # "`f()` in PATH"
    RESTATED = "restated-value"  # a literal restating another file's fact
    ISSUE = "issue"  # `#12`, `owner/name#12`, an issue URL
    PATH = "prose-path"  # a path named in a sentence

    @property
    def prose(self) -> bool:
        return self in (Evidence.QUOTED_HEADING, Evidence.LINE, Evidence.PATH)


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
    def evidence(self) -> Evidence:
        """The syntax the reference was read from (issue 40: each finding says it)."""
        if self.kind is RefKind.ISSUE:
            return Evidence.ISSUE
        if self.via_url:
            return Evidence.BLOB_URL
        if self.relative:
            return Evidence.LINK
        if self.kind is RefKind.LINES:
            return Evidence.LINE_CLAIM if self.claim else Evidence.LINE
        if self.kind is RefKind.HEADING and self.target_path is None:
            return Evidence.QUOTED_HEADING
        return _EVIDENCE_OF[self.kind]

    @property
    def is_claim(self) -> bool:
        return self.kind in (RefKind.LINES, RefKind.SYMBOL, RefKind.FACT)

    @property
    def location_text(self) -> str:
        if self.target_path is None:
            return ""
        return f"{self.target_repo}:{self.target_path}" if self.target_repo else self.target_path


_EVIDENCE_OF = {
    RefKind.HEADING: Evidence.HEADING_IN_PATH,
    RefKind.NOTE: Evidence.NOTE,
    RefKind.SLUG: Evidence.PATH_FRAGMENT,
    RefKind.PATH: Evidence.PATH,
    RefKind.SYMBOL: Evidence.SYMBOL_CLAIM,
    RefKind.FACT: Evidence.RESTATED,
}
