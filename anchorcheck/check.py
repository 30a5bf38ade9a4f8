"""The pipeline: crawl -> extract -> index -> resolve (graph) -> check -> filter."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import networkx as nx

from anchorcheck import suppression
from anchorcheck.cache import BlobCache
from anchorcheck.crawl import BlobMemo, Progress, SnapshotIndex, crawl
from anchorcheck.finding import Finding
from anchorcheck.graph import build_graph
from anchorcheck.history import RemovedMention, removed_mentions
from anchorcheck.resolve import Resolution, Resolver, WorkspaceIndex
from anchorcheck.rules import REGISTRY, CheckContext, Rule
from anchorcheck.selection import Selection
from anchorcheck.verify import ClaimCheck, verify
from anchorcheck.workspace import Settings, Workspace

if TYPE_CHECKING:
    from anchorcheck.index_file import IndexedRepo


@dataclass(frozen=True, slots=True)
class FingerprintedFinding:
    finding: Finding
    fingerprint: str


@dataclass(frozen=True)
class CheckResult:
    workspace: Workspace
    index: WorkspaceIndex
    resolutions: tuple[Resolution, ...]
    graph: nx.MultiDiGraph
    findings: tuple[FingerprintedFinding, ...]
    claims: tuple[ClaimCheck, ...] = ()


def index_workspace(
    workspace: Workspace,
    memo: BlobMemo | None = None,
    progress: Callable[[str, Progress], None] | None = None,
    cache: BlobCache | None = None,
    indexed: Mapping[str, SnapshotIndex] | None = None,
) -> WorkspaceIndex:
    """Every repo's snapshot: from an index file when one came (`check --index`),
    else crawled."""
    snapshots: list[SnapshotIndex] = []
    for spec in workspace.repos:
        if indexed and spec.name in indexed:
            snapshots.append(indexed[spec.name])
            continue
        step = None if progress is None else (lambda p, n=spec.name: progress(n, p))
        snapshots.append(crawl(spec, workspace.settings, memo, step, cache))
    return WorkspaceIndex(snapshots, workspace.repos)


def enabled_rules(settings: Settings, selection: Selection | None = None) -> list[Rule]:
    selection = selection or settings.rules
    selection.validate(REGISTRY)
    return [
        r for r in REGISTRY.values()
        if r.mode in ("workspace", "both") and selection.enabled(r.code, r.enabled_by_default)
    ]


def run_check(
    workspace: Workspace,
    memo: BlobMemo | None = None,
    selection: Selection | None = None,
    progress: Callable[[str, Progress], None] | None = None,
    cache: BlobCache | None = None,
    indexed: Sequence[IndexedRepo] = (),
) -> CheckResult:
    index = index_workspace(workspace, memo, progress, cache, {r.spec.name: r.snapshot for r in indexed})
    resolver = Resolver(index, workspace.settings.headings)
    resolutions = tuple(resolver.resolve(ref) for ref in index.references)
    selection = selection or workspace.settings.rules
    rules = enabled_rules(workspace.settings, selection)
    claims, breaches = verify(workspace, index, resolutions, cache)
    removed: list[RemovedMention] = []
    if any(r.code == "AC203" for r in rules):
        removed = removed_mentions(workspace, index, workspace.settings.history_depth, cache,
                                   known={r.spec.name: r.removals for r in indexed},
                                   known_defined={r.spec.name: r.defined for r in indexed})
    graph = build_graph(index, resolutions)
    ctx = CheckContext(index, graph, tuple(claims), tuple(breaches), tuple(removed))
    raw = [f for rule in rules if rule.code != "AC901" for f in rule.check(ctx, rule)]
    suppressions = [s for snap in index.snapshots.values() for s in snap.suppressions]
    kept, unused = suppression.apply(raw, suppressions)
    unused_rule = next((r for r in rules if r.code == "AC901"), None)
    if unused_rule is not None:
        ctx = replace(ctx, unused_suppressions=tuple(unused))
        kept.extend(unused_rule.check(ctx, unused_rule))
    findings = [selection.apply_severity(f) for f in kept]
    return CheckResult(workspace, index, resolutions, graph, fingerprint(findings), tuple(claims))


def fingerprint(findings: Iterable[Finding]) -> tuple[FingerprintedFinding, ...]:
    """Fingerprints without line numbers, numbered when the same finding repeats in
    one file, so a baseline entry survives lines moving above it."""
    seen: Counter[str] = Counter()
    out = []
    for f in sorted(findings, key=lambda f: f.sort_key):
        base = f.base_fingerprint()
        n = seen[base]
        seen[base] += 1
        out.append(FingerprintedFinding(f, base if n == 0 else f"{base}-{n}"))
    return tuple(out)
