"""What a merge-order run finds: the dependencies between changes, the references
they break, their conflicts, version bumps and races, the facts they move, and the
order, gathered in an Analysis. The vocabulary the analysis (mergeorder.py), the
order (order.py), the advisory (report/merge_order.py) and the rules share."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from anchorcheck.model.anchor import Anchor
from anchorcheck.model.reference import Reference
from anchorcheck.pr.change import Change
from anchorcheck.pr.stale import StaleComment
from anchorcheck.resolve.resolution import Resolution
from anchorcheck.resolve.workspace_index import WorkspaceIndex


@dataclass(frozen=True, slots=True)
class Dependency:
    """`after` cites, at `reference`, what `first` adds (`anchors`)."""

    first: str
    after: str
    reference: Reference
    anchors: tuple[Anchor, ...]


@dataclass(frozen=True, slots=True)
class Break:
    """`change` removes `anchor`, which `citations` (in the base, or in `by` changes)
    still cite; `renamed_to` is the anchor that took its place in the file, if any."""

    change: str
    anchor: Anchor
    citations: tuple[tuple[str | None, Reference], ...]  # (citing change or None, ref)
    renamed_to: Anchor | None


@dataclass(frozen=True, slots=True)
class Conflict:
    """Paths a change and another (or its base) both changed."""

    change: str
    other: str  # another change's label, or "base:<ref>"
    paths: tuple[str, ...]
    # Where, in the change's version of paths[0], its edit meets the other's (conflict_line).
    line: int = 1


@dataclass(frozen=True, slots=True)
class VersionBump:
    """A version a change sets, against the merge base and the base's tip."""

    change: str
    repo: str
    path: str
    old: str  # at the merge base
    new: str  # at the head
    base_now: str | None  # at the base's current tip
    line: int


@dataclass(frozen=True, slots=True)
class UnbumpedPackage:
    """A change that edits a package's content (a chart: any file under the folder of
    its Chart.yaml, comments too) and leaves its version as the merge base has it."""

    change: str
    repo: str
    path: str  # the version file
    version: str
    touched: tuple[str, ...]
    line: int
    suggested: str  # the next version free of the base and of every other open bump


@dataclass(frozen=True, slots=True)
class VersionRace:
    """A version bump that others make too, or that the base has passed."""

    bump: VersionBump
    others: tuple[str, ...]  # changes that set the same new version
    behind: bool  # the base has moved to or past the new version
    suggested: str


@dataclass(frozen=True, slots=True)
class FactChange:
    """`change` moves a fact that `restating` references restate (or a contract lists)."""

    change: str
    address: str
    old: str
    new: str
    line: int
    restating: tuple[Reference, ...]
    contracts: tuple[str, ...]


@dataclass
class Analysis:
    """What a merge-order run found: dependencies, breaks, cycles, conflicts, races, and the order."""

    changes: tuple[Change, ...]
    base: WorkspaceIndex
    dependencies: list[Dependency] = field(default_factory=list)
    breaks: list[Break] = field(default_factory=list)
    cycles: list[tuple[str, ...]] = field(default_factory=list)
    conflicts: list[Conflict] = field(default_factory=list)
    bumps: list[VersionBump] = field(default_factory=list)
    races: list[VersionRace] = field(default_factory=list)
    fact_changes: list[FactChange] = field(default_factory=list)
    unbumped: list[UnbumpedPackage] = field(default_factory=list)
    # (change, the claim it makes stale): line claims elsewhere whose text held on the
    # lines of a file the change edits, and no longer does there after it (AC201).
    stale_claims: list[tuple[str, Any]] = field(default_factory=list)
    # (change, a comment it leaves naming a token it replaced): AC206, pr/stale.py.
    stale_comments: list[tuple[str, StaleComment]] = field(default_factory=list)
    dangling: list[tuple[str, Resolution]] = field(default_factory=list)
    order: tuple[str, ...] = ()
    # (first, after): `after` needs `first` merged before it; each pair once.
    edges: tuple[tuple[str, str], ...] = ()
    added_anchors: dict[str, tuple[Anchor, ...]] = field(default_factory=dict)
    removed_anchors: dict[str, tuple[Anchor, ...]] = field(default_factory=dict)
    blobs_read_base: int = 0
    blobs_read_changes: int = 0
    # Changes that could not be placed (e.g. a shallow clone lacks the merge base):
    # (label, why). The others are still ordered; the report names these.
    unplanned: list[tuple[str, str]] = field(default_factory=list)
    # Depends-On lines: (first, after, as written) where `first` is an open change of
    # the run; they order the changes as computed dependencies do.
    declared: list[tuple[str, str, str]] = field(default_factory=list)
    # Computed dependencies that `after` does not declare (AC307), and declared ones
    # its content does not need (AC308); declared lines naming no change of the run.
    undeclared: list[Dependency] = field(default_factory=list)
    unneeded: list[tuple[str, str, str]] = field(default_factory=list)
    unknown_declared: list[tuple[str, str]] = field(default_factory=list)
