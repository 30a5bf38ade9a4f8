"""The index stage: each repo at its ref, read from git objects, into a snapshot.

Data flows one way through it, and the cache is asked only at its edges, here:

1. before: a whole snapshot by commit (stored.snapshot_key); for a repo not stored,
   its tree is listed and planned (plan.Plan), and the cache asked for the blobs and
   the unread files' Notes the plan wants (`_ask`);
2. extraction: what is still pending goes through one pool of workers (pool.py);
3. after: the new blobs, Notes and snapshots are stored (`_store_*`), or handed to
   the caller as `writes` to run while it waits anyway.
"""

from __future__ import annotations

import contextlib
import functools
import gc
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from anchorcheck.config.workspace import RepoSpec, Settings
from anchorcheck.git.blobtext import UNREADABLE
from anchorcheck.git.output import TreeEntry
from anchorcheck.git.oversized import note_oversized
from anchorcheck.git.process import Background, set_process_limit
from anchorcheck.git.repo import GitRepo, StartedResolve, abandon_resolve
from anchorcheck.index.cache import BlobCache
from anchorcheck.index.plan import BlobMemo, Plan, extract_options, notes_to_json
from anchorcheck.index.pool import BlobJob, extract_blobs, worker_count
from anchorcheck.index.stored import snapshot_from_packed, snapshot_key, snapshot_to_packed
from anchorcheck.model.snapshot import SnapshotIndex


@dataclass(frozen=True, slots=True)
class Progress:
    """How far the scan of one repo is: blobs done of those to read, bytes, anchors."""

    files: int
    total: int
    bytes: int
    anchors: int


def crawl(
    spec: RepoSpec,
    settings: Settings,
    memo: BlobMemo | None = None,
    progress: Callable[[Progress], None] | None = None,
    cache: BlobCache | None = None,
) -> SnapshotIndex:
    step = None if progress is None else (lambda _name, p: progress(p))
    return crawl_many([spec], settings, memo, step, cache)[0]


def crawl_many(
    specs: Sequence[RepoSpec],
    settings: Settings,
    memo: BlobMemo | None = None,
    progress: Callable[[str, Progress], None] | None = None,
    cache: BlobCache | None = None,
    resolved: Callable[[dict[str, str]], None] | None = None,
    writes: list[Callable[[], None]] | None = None,
) -> list[SnapshotIndex]:
    """Each repo's snapshot, in order. The blobs of every repo go through one
    extraction pool: repo by repo, each small repo ran in one process and each large
    one ended with a worker idle while the other finished. `resolved` is told every
    repo's commit (by name; but those of cached snapshots that mention no name) once
    the first blob's results are in, before most are read:
    work that needs only the commits starts then, beside the crawl. `writes`, when
    given, receives the cache writes (new blobs, new snapshots: 0.3 s on the bench
    workspace) for the caller to run while it waits anyway, instead of their running
    at the end of the crawl."""
    with paused_gc():
        return _crawl_many(specs, settings, memo, progress, cache, resolved, writes)


@contextlib.contextmanager
def paused_gc() -> Iterator[None]:
    """The cyclic garbage collector off while a crawl builds its snapshots: hundreds of
    thousands of small objects (decoded from the cache or built from the scans), none
    of them in a cycle, each batch of which made the collector walk every object alive
    (a merge-order run on the bench workspace, which decodes every repo's snapshot:
    1,704M -> 1,627M instructions; with the collector off for the whole run, 1,568M).
    Only paused: what it would have collected is collected when it runs again."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _crawl_many(
    specs: Sequence[RepoSpec],
    settings: Settings,
    memo: BlobMemo | None,
    progress: Callable[[str, Progress], None] | None,
    cache: BlobCache | None,
    resolved: Callable[[dict[str, str]], None] | None,
    writes: list[Callable[[], None]] | None,
) -> list[SnapshotIndex]:
    done: dict[int, SnapshotIndex] = {}
    pending: list[Callable[[], None]] = []
    plans: dict[int, Plan] = {}
    listings: list[tuple[int, RepoSpec, GitRepo, str, Background]] = []
    set_process_limit(settings.git_processes)
    repos = [GitRepo(spec.path) for spec in specs]
    resolving: list[StartedResolve] = []
    try:
        for repo, spec in zip(repos, specs, strict=True):
            resolving.append(repo.start_resolve(spec.ref))  # every ref at once
        commits = [repo.finish_resolve(spec.ref, proc)
                   for repo, spec, proc in zip(repos, specs, resolving, strict=True)]
        for i, spec in enumerate(specs):
            repo, commit = repos[i], commits[i]
            # A whole snapshot is cached by commit: a run over an unchanged repo lists
            # no tree and decodes one row, however many files the repo has.
            stored = cache.get_text(snapshot_key(spec, commit, settings)) if cache is not None else None
            snap = snapshot_from_packed(stored, spec) if stored is not None else None
            if snap is not None:
                done[i] = snap
                too_large = [s.path for s in snap.skipped if s.reason == "too large"]
                note_oversized(repo.git_dir, commit, too_large, settings.max_file_size)
                continue
            # Every tree is listed at once, in the background, while earlier listings
            # are read.
            listings.append((i, spec, repo, commit, repo.start_list_tree(commit)))

        def tell() -> None:
            if resolved is not None:
                # A snapshot from the cache that mentions no name needs no history: its
                # commit is not told, and a warm run of such a repo starts no git.
                pairs = enumerate(zip(specs, commits, strict=True))
                resolved({spec.name: commit for i, (spec, commit) in pairs
                          if i not in done or done[i].mentions})

        def planned() -> Iterator[Plan]:
            for i, spec, repo, commit, listing in listings:
                plan = Plan(repo, spec, commit, repo.list_tree(commit, listing), settings, memo)
                plans[i] = _ask(plan, cache)
                yield plans[i]

        # Each repo's blobs go to the pool as soon as its tree is read: the workers scan
        # the first repos while this process reads the trees of the next (reading
        # GHC's listing of 25k files takes ~0.3 s).
        _extract(planned(), settings, progress, cache, pending, tell)
    except BaseException:
        for plan in plans.values():
            plan.cancel()
        raise
    finally:
        for *_, listing in listings:
            listing.cancel()  # a no-op for those read; the others were left by an error
        for started in resolving:
            abandon_resolve(started)  # a no-op for those finished; the others were left by an error
    for i, plan in plans.items():
        snap = done[i] = plan.finish()
        if cache is not None:
            pending.extend(_store_notes(plan, cache))
            if not any(s.reason == UNREADABLE for s in snap.skipped):
                # Encoded when written, not here: with `writes`, after git's searches start
                # (GHC's snapshot: ~0.08 s that stood before them).
                key = snapshot_key(plan.spec, plan.commit, settings)
                pending.append(functools.partial(_store_snapshot, cache, key, snap))
    if writes is not None:
        writes.extend(pending)
    else:
        for write in pending:
            write()
    return [done[i] for i in range(len(specs))]


def _ask(plan: Plan, cache: BlobCache | None) -> Plan:
    """The edge before extraction: the cache answers for what the plan wants."""
    if cache is None:
        plan.answer({})
        return plan
    stored = cache.get_many(plan.wanted()) if plan.pending else {}
    key = plan.notes_key()
    plan.answer(stored, cache.get_result(key) if key is not None else None)
    return plan


def _store_notes(plan: Plan, cache: BlobCache) -> list[Callable[[], None]]:
    """The edge after extraction: the Notes git found in the files not read, to store."""
    key = plan.notes_key()
    if plan.found_notes is None or key is None:
        return []
    return [functools.partial(cache.put_result, key, notes_to_json(plan.found_notes))]


def _store_snapshot(cache: BlobCache, key: str, snap: SnapshotIndex) -> None:
    cache.put_snapshot(snap.repo, key, snapshot_to_packed(snap))


def index_entries(
    repo: GitRepo,
    spec: RepoSpec,
    commit: str,
    entries: Iterable[TreeEntry],
    settings: Settings,
    memo: BlobMemo | None = None,
    progress: Callable[[Progress], None] | None = None,
    cache: BlobCache | None = None,
) -> SnapshotIndex:
    """The snapshot of just these tree entries (a PR's changed files)."""
    plan = _ask(Plan(repo, spec, commit, entries, settings, memo), cache)
    step = None if progress is None else (lambda _name, p: progress(p))
    _extract([plan], settings, step, cache)
    snap = plan.finish()
    if cache is not None:
        for write in _store_notes(plan, cache):
            write()
    return snap


def _extract(
    plans: Iterable[Plan], settings: Settings,
    progress: Callable[[str, Progress], None] | None, cache: BlobCache | None,
    writes: list[Callable[[], None]] | None = None,
    underway: Callable[[], None] = lambda: None,
) -> None:
    """Read and scan what the plans still need, through one pool; store what was new
    (or leave that write in `writes`). The plans may come one by one: each one's blobs
    are handed out as it comes. `underway` is called once the first result is in (or
    at the end, when nothing was to be read): work started then (AC203's history,
    which waits for git a few ms per repo) no longer holds back the first scans, ~60
    ms on the bench when only this process works, and still starts early in a crawl
    of one large repo."""
    given: list[tuple[BlobJob, Plan]] = []
    taken: list[Plan] = []

    def jobs() -> Iterator[BlobJob]:
        for plan in plans:
            taken.append(plan)
            git_dir = plan.repo.git_dir
            for oid in plan.pending:
                job = (git_dir, oid, plan.sizes.get(oid, 0), plan.langs_of[oid])
                given.append((job, plan))  # before it is handed out, so before its result
                yield job

    options = extract_options(settings)
    results = extract_blobs(jobs(), options, worker_count(settings.jobs), encode=cache is not None)
    told = False
    for k, (read, values, encoded) in enumerate(results):
        (_, oid, size, _), plan = given[k]
        plan.take(oid, size if read else 0, read, values, encoded)
        if progress is not None:
            progress(plan.spec.name, Progress(plan.files_read, len(plan.pending), plan.bytes_read,
                                              plan.anchors_found))
        if not told:
            told = True
            underway()
    if not told:
        underway()
    if cache is not None:
        write = functools.partial(cache.put_many, [item for plan in taken for item in plan.fresh])
        if writes is not None:
            writes.append(write)
        else:
            write()
