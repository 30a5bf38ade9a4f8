"""Snapshots: what one repo at one commit defines and cites, as the index stage gives
it to resolution (and as the snapshot cache and index files store it)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field

from anchorcheck.model.anchor import Anchor
from anchorcheck.model.reference import Reference
from anchorcheck.model.suppression import Suppression


@dataclass(frozen=True, slots=True)
class Mention:
    """A code-shaped mention of a name in a comment (`name`, name())."""

    name: str
    repo: str
    path: str
    line: int
    col: int


@dataclass(frozen=True, slots=True)
class SkippedFile:
    """A file the crawl did not read, and why."""

    path: str
    reason: str  # "binary", "too large", "not UTF-8", "submodule", "symlink"


@dataclass(frozen=True, slots=True)
class SnapshotIndex:
    """What one repo at one commit defines and cites. `paths` holds every file in the
    tree (read or not), so a citation of an image or a lock file still resolves."""

    repo: str
    ref: str
    commit: str
    # A frozenset, or from the snapshot cache a LazyPaths (index/lazy.py) (a set when first asked as one).
    paths: AbstractSet[str]
    # A tuple, or from the snapshot cache a LazyTuple (built when first read); so are
    # mentions and suppressions.
    anchors: Sequence[Anchor]
    # A tuple, or from the snapshot cache a LazyReferences (decoded when first read).
    references: Sequence[Reference]
    line_counts: Mapping[str, int] = field(hash=False, compare=False)
    # path -> blob id, so claims can read just the files they name, later.
    oids: Mapping[str, str] = field(default_factory=dict, hash=False, compare=False)
    skipped: tuple[SkippedFile, ...] = ()
    mentions: Sequence[Mention] = ()
    suppressions: Sequence[Suppression] = ()
    files_read: int = 0
    bytes_read: int = 0
    # The path patterns not read (config/excludes.py): those files are in `paths`, unread.
    excluded: tuple[str, ...] = ()
