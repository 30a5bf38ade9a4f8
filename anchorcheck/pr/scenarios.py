"""Scenarios: the workspace as it would be with some of the open changes merged, each
change applied to its repo's base as a PR merge would (the files it touches replace
the base's; the rest is the base's index, shared), each set of changes indexed and
resolved once. What the analysis (mergeorder.py) asks its questions of."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from anchorcheck.config.workspace import Workspace
from anchorcheck.git.output import TreeEntry
from anchorcheck.git.repo import GitRepo
from anchorcheck.index.cache import BlobCache
from anchorcheck.index.crawl import crawl_many, index_entries
from anchorcheck.index.plan import BlobMemo
from anchorcheck.model.snapshot import SnapshotIndex
from anchorcheck.pr.change import Change
from anchorcheck.resolve.resolver import Resolver
from anchorcheck.resolve.workspace_index import WorkspaceIndex


class Scenarios:
    """Workspace indexes for the base with a set of changes applied, built on demand
    and cached: a pair analysis over n changes needs at most n² of them."""

    def __init__(
        self, workspace: Workspace, base_refs: dict[str, str], memo: BlobMemo,
        cache: BlobCache | None = None,
    ) -> None:
        self.workspace = workspace
        self.memo = memo
        self.gits = {r.name: GitRepo(r.path) for r in workspace.repos}
        self.cache = cache
        self.base_snaps: dict[str, SnapshotIndex] = {}
        self.changes: dict[str, Change] = {}
        self._overlays: dict[tuple[str, frozenset[str]], SnapshotIndex] = {}
        self._scenarios: dict[frozenset[str], Resolver] = {}
        self.blobs_read_base = 0
        # The base comes whole from the snapshot cache when the base commit was seen
        # before (the nightly run saw it): a PR check then reads only what the PRs
        # touch. All repos at once: their refs are resolved together.
        specs = [replace(spec, ref=base_refs[spec.name]) for spec in workspace.repos]
        for spec, snap in zip(specs, crawl_many(specs, workspace.settings, memo, cache=cache), strict=True):
            self.base_snaps[spec.name] = snap
            self.blobs_read_base += snap.files_read

    def add(self, change: Change) -> None:
        self.changes[change.label] = change

    def snapshot(self, repo: str, labels: frozenset[str]) -> SnapshotIndex:
        mine = frozenset(label for label in labels if self.changes[label].repo == repo)
        if not mine:
            return self.base_snaps[repo]
        key = (repo, mine)
        if key not in self._overlays:
            changed: dict[str, TreeEntry | None] = {}
            for label in sorted(mine):
                change = self.changes[label]
                for path in change.changed:
                    changed[path] = change.head_entries.get(path)
            spec = self.workspace.repo(repo)
            assert spec is not None
            commit = "+".join(self.changes[label].head_commit[:12] for label in sorted(mine))
            # Only the changed files are indexed; the rest of the base is kept as is.
            touched = index_entries(self.gits[repo], spec, commit,
                                    [e for e in changed.values() if e is not None],
                                    self.workspace.settings, self.memo, cache=self.cache)
            self._overlays[key] = overlay(self.base_snaps[repo], touched, set(changed))
        return self._overlays[key]

    def resolver(self, labels: Iterable[str]) -> Resolver:
        key = frozenset(labels)
        if key not in self._scenarios:
            snaps = [self.snapshot(r.name, key) for r in self.workspace.repos]
            base = self._scenarios[frozenset()].index if key and frozenset() in self._scenarios else None
            index = WorkspaceIndex(snaps, self.workspace.repos, share=base)
            self._scenarios[key] = Resolver(index, self.workspace.settings.headings,
                                            self.workspace.settings.ignore_targets,
                                            self.workspace.settings.ignore_evidence)
        return self._scenarios[key]


def overlay(base: SnapshotIndex, touched: SnapshotIndex, changed: set[str]) -> SnapshotIndex:
    """The base snapshot with the changed paths replaced by their new index (a path
    changed but absent from `touched` was deleted)."""
    def keep(items: Iterable[Any]) -> tuple[Any, ...]:
        return tuple(x for x in items if x.path not in changed)

    oids = {**{p: o for p, o in base.oids.items() if p not in changed}, **touched.oids}
    lines = {**{p: n for p, n in base.line_counts.items() if p not in changed}, **touched.line_counts}
    return replace(
        base,
        commit=touched.commit,
        paths=frozenset(p for p in base.paths if p not in changed) | touched.paths,
        anchors=keep(base.anchors) + tuple(touched.anchors),
        references=keep(base.references) + tuple(touched.references),
        line_counts=lines,
        oids=oids,
        skipped=keep(base.skipped) + touched.skipped,
        mentions=keep(base.mentions) + tuple(touched.mentions),
        suppressions=keep(base.suppressions) + tuple(touched.suppressions),
        files_read=touched.files_read,
        bytes_read=touched.bytes_read,
    )
