"""Crawl: one repo at one ref, read from git objects, into a snapshot index."""

from __future__ import annotations

import contextlib
import functools
import gc
import hashlib
import json
import subprocess
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field, replace
from typing import Any

from anchorcheck.config.excludes import excluder
from anchorcheck.config.workspace import RepoSpec, Settings
from anchorcheck.errors import CacheError
from anchorcheck.extract.blob import BlobIndex, ExtractOptions
from anchorcheck.extract.headings import note_titles
from anchorcheck.extract.languages import READ_PATHSPECS, language_of
from anchorcheck.git.blobtext import UNREADABLE
from anchorcheck.git.repo import PATH_ERRORS, Background, GitRepo, TreeEntry
from anchorcheck.index.cache import BlobCache, Encoded, options_key
from anchorcheck.index.lazy import LazyMapping, LazyPaths, LazyReferences
from anchorcheck.index.pool import BlobJob, PackedIndex, extract_blobs, unpack, worker_count
from anchorcheck.model.anchor import Anchor, AnchorKind
from anchorcheck.model.reference import Reference, RefKind
from anchorcheck.model.suppression import Suppression

# What a blob gave, keyed by (blob id, language, cache.options_key of the options): its
# index, or the reason it is not read as text, so a blob that failed is not read again
# either. (The options as a string: a key holding the options dataclasses was hashed
# field by field at every look-up, 70k of them in a cold run of the bench workspace.)
BlobMemo = dict[tuple[str, str, str], BlobIndex | str]


@dataclass(frozen=True, slots=True)
class Progress:
    """How far the scan of one repo is: blobs done of those to read, bytes, anchors."""

    files: int
    total: int
    bytes: int
    anchors: int


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
    # A frozenset, or from the snapshot cache a LazyPaths (a set when first asked as one).
    paths: AbstractSet[str]
    anchors: tuple[Anchor, ...]
    # A tuple, or from the snapshot cache a LazyReferences (decoded when first read).
    references: Sequence[Reference]
    line_counts: Mapping[str, int] = field(hash=False, compare=False)
    # path -> blob id, so claims can read just the files they name, later.
    oids: Mapping[str, str] = field(default_factory=dict, hash=False, compare=False)
    skipped: tuple[SkippedFile, ...] = ()
    mentions: tuple[Mention, ...] = ()
    suppressions: tuple[Suppression, ...] = ()
    files_read: int = 0
    bytes_read: int = 0
    # The path patterns not read (excludes.py): those files are in `paths`, unread.
    excluded: tuple[str, ...] = ()


def extract_options(settings: Settings) -> ExtractOptions:
    return ExtractOptions(headings=settings.headings, markdown=settings.markdown_headings)


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
    repo's commit (by name) once the first blob's results are in, before most are read:
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
    plans: dict[int, _Plan] = {}
    listings: list[tuple[int, RepoSpec, GitRepo, str, Background]] = []
    repos = [GitRepo(spec.path) for spec in specs]
    resolving: list[subprocess.Popen[bytes] | str] = []
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
                continue
            # Every tree is listed at once, in the background, while earlier listings
            # are read.
            listings.append((i, spec, repo, commit, repo.start_list_tree(commit)))

        def tell() -> None:
            if resolved is not None:
                resolved({spec.name: commit for spec, commit in zip(specs, commits, strict=True)})

        def planned() -> Iterator[_Plan]:
            for i, spec, repo, commit, listing in listings:
                plans[i] = _Plan(repo, spec, commit, repo.list_tree(commit, listing), settings, memo, cache)
                yield plans[i]

        # Each repo's blobs go to the pool as soon as its tree is read: the workers scan
        # the first repos while this process reads the trees of the next (reading
        # GHC's listing of 25k files takes ~0.3 s).
        _extract(planned(), settings, progress, cache, pending, tell)
    except BaseException:
        for plan in plans.values():
            if plan.note_search is not None:
                plan.note_search.cancel()
        raise
    finally:
        for *_, listing in listings:
            listing.cancel()  # a no-op for those read; the others were left by an error
        for proc in resolving:
            if not isinstance(proc, str) and proc.returncode is None:  # not read: left by an error
                proc.kill()
                proc.communicate()
    for i, plan in plans.items():
        snap = done[i] = plan.finish()
        if cache is not None and not any(s.reason == UNREADABLE for s in snap.skipped):
            # Encoded when written, not here: with `writes`, after git's searches start
            # (GHC's snapshot: ~0.08 s that stood before them).
            key = snapshot_key(plan.spec, plan.commit, settings)
            pending.append(functools.partial(_store, cache, key, snap))
    if writes is not None:
        writes.extend(pending)
    else:
        for write in pending:
            write()
    return [done[i] for i in range(len(specs))]


def _store(cache: BlobCache, key: str, snap: SnapshotIndex) -> None:
    cache.put_snapshot(snap.repo, key, snapshot_to_packed(snap))


def snapshot_key(spec: RepoSpec, commit: str, settings: Settings) -> str:
    excluded = json.dumps(settings.excluded_in(spec), separators=(",", ":"))
    return (f"snap4:{spec.name}:{commit}:{options_key(extract_options(settings))}:{settings.max_file_size}:"
            f"{excluded}")


def snapshot_to_json(snap: SnapshotIndex) -> dict[str, Any]:
    """A snapshot as stored (the snapshot cache, index files). Laid out for a cheap
    load: blob ids as one string and line counts as a list, both beside the list of
    paths (two dicts of 25k entries were a third of decoding GHC's), and the
    references as a JSON text of their own, decoded only when used (lazy.py)."""
    from anchorcheck.index.cache import encode_blob_index, encode_reference

    files = list(snap.oids)
    oids = [snap.oids[p] for p in files]
    blob = BlobIndex(snap.anchors, (), 0, 0, tuple((m.name, m.line, m.col) for m in snap.mentions),
                     snap.suppressions)
    refs = tuple(snap.references)
    doc: dict[str, Any] = {
        "commit": snap.commit,
        "files": files,
        "skipped": [[s.path, s.reason] for s in snap.skipped],
        "excluded": list(snap.excluded),
        "index": encode_blob_index(blob),
        "anchor_paths": [a.path for a in snap.anchors],
        "mention_paths": [m.path for m in snap.mentions],
        "suppression_paths": [s.path for s in snap.suppressions],
        # ASCII (other characters escaped): see snapshot_to_packed.
        "refs": json.dumps([[r.path for r in refs], [encode_reference(r) for r in refs]],
                           separators=(",", ":")),
    }
    if len({len(o) for o in oids}) <= 1:
        doc["oids"] = "".join(oids)
    else:  # (ids of one width in any real repo; kept whole otherwise)
        doc["oids"] = dict(snap.oids)
    if snap.line_counts.keys() <= snap.oids.keys():
        doc["lines"] = [snap.line_counts.get(p) for p in files]
    else:
        doc["lines"] = dict(snap.line_counts)
    if snap.paths != snap.oids.keys():
        # A crawl's paths are its blob ids' keys: stored only where they differ.
        doc["paths"] = sorted(snap.paths)
    return doc


def snapshot_from_json(doc: Any, spec: RepoSpec) -> SnapshotIndex | None:
    """None when the stored value is not what this version writes (then: rebuild).
    Reads the layout of snapshot_to_json and the one before it (index files of
    formats 1 and 2: blob ids and line counts as dicts, references in the index)."""
    from anchorcheck.index.cache import decode_reference

    try:
        name = spec.name
        if "files" in doc:
            files: Any = doc["files"]
            oids = _stored_oids(files, doc["oids"])
            lines = _stored_lines(files, doc["lines"])
            if oids is None or lines is None or not isinstance(doc["refs"], str):
                return None
            references: Sequence[Reference] | None = LazyReferences(doc["refs"], name, decode_reference)
        else:
            files, lines, oids = doc["oids"], doc["lines"], doc["oids"]
            if not (isinstance(lines, dict) and isinstance(oids, dict)
                    and set(map(type, lines.values())) <= {int} and set(map(type, oids.values())) <= {str}):
                return None
            references = None  # in the index (formats 1 and 2)
        paths = _stored_paths(doc.get("paths", files))
        if paths is None:
            return None
        return _snapshot(doc, spec, paths, oids, lines, references)
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


def _stored_paths(paths: Any) -> frozenset[str] | None:
    # Checked, not converted: tens of thousands of paths per repo, and JSON already
    # gives str and int. The types are gathered by map (no Python loop).
    if not (isinstance(paths, list | dict) and set(map(type, paths)) <= {str}):
        return None
    return frozenset(paths)


def _snapshot(
    doc: Any, spec: RepoSpec, paths: AbstractSet[str], oids: Mapping[str, str], lines: Mapping[str, int],
    references: Sequence[Reference] | None,
) -> SnapshotIndex | None:
    """The snapshot of a stored document whose paths, blob ids, line counts and (unless
    None: then the index's) references are read already. Raises KeyError, TypeError or
    ValueError on a document of another shape."""
    from anchorcheck.index.cache import decode_blob_index

    name = spec.name
    places = {"a": doc["anchor_paths"], "r": doc.get("ref_paths", []), "s": doc["suppression_paths"]}
    blob = decode_blob_index(doc["index"], name, places)
    if not isinstance(blob, BlobIndex):
        return None
    mention_paths = [str(p) for p in doc["mention_paths"]]
    excluded = doc.get("excluded", [])
    if not (isinstance(excluded, list) and set(map(type, excluded)) <= {str}):
        return None
    return SnapshotIndex(
        repo=name, ref=spec.ref, commit=str(doc["commit"]),
        paths=paths,
        anchors=blob.anchors,
        references=blob.references if references is None else references,
        line_counts=lines,
        oids=oids,
        skipped=tuple(SkippedFile(str(p), str(r)) for p, r in doc["skipped"]),
        mentions=tuple(Mention(m[0], name, p, m[1], m[2])
                       for m, p in zip(blob.mentions, mention_paths, strict=True)),
        suppressions=blob.suppressions,
        excluded=tuple(excluded),
    )


# The snapshot cache's layout: snapshot_to_json's document without its four largest
# parts, on one line (JSON holds no raw line break), then those parts as they are, one
# after the other, their lengths in the document ("packed"): the paths joined by NUL
# (no git path holds one), the blob ids, the references' JSON text, the line counts'
# JSON list. Parsing them as JSON was 10.7 of the 11.9 ms of loading GHC's document,
# and a merge order reads none of them of a repo its changes do not touch.
def snapshot_to_packed(snap: SnapshotIndex) -> str:
    doc = snapshot_to_json(snap)
    if not (isinstance(doc["oids"], str) and isinstance(doc["lines"], list)):
        return json.dumps(doc, separators=(",", ":"))  # read as a document
    parts = ["\0".join(doc.pop("files")), doc.pop("oids"), doc.pop("refs"),
             json.dumps(doc.pop("lines"), separators=(",", ":"))]
    doc["packed"] = [len(part) for part in parts]
    # In ASCII, other characters escaped (the paths aside): one character beyond it makes
    # the whole value a wider string in Python, and every part sliced from it is scanned
    # and copied again (GHC's headings hold a few: loading its snapshot took 15% more).
    return json.dumps(doc, separators=(",", ":")) + "\n" + "".join(parts)


def snapshot_from_packed(text: str, spec: RepoSpec) -> SnapshotIndex | None:
    """snapshot_to_packed's snapshot; None when the text is not what it writes."""
    from anchorcheck.index.cache import decode_reference

    cut = text.find("\n")
    try:
        doc = json.loads(text if cut < 0 else text[:cut])
        if not isinstance(doc, dict):
            return None
        if "packed" not in doc:
            return snapshot_from_json(doc, spec)
        lengths = doc.pop("packed")
        if not (isinstance(lengths, list) and len(lengths) == 4 and set(map(type, lengths)) <= {int}
                and min(lengths) >= 0 and cut >= 0 and sum(lengths) == len(text) - cut - 1):
            return None
        parts, at = [], cut + 1
        for n in lengths:
            parts.append(text[at:at + n])
            at += n
        files, oids, refs, lines = parts
        count = files.count("\0") + 1 if files else 0
        width = len(oids) // count if count else 0
        if width * count != len(oids) or (count and width not in (40, 64)):
            return None
        paths = _stored_paths(doc["paths"]) if "paths" in doc else LazyPaths(files)
        if paths is None:
            return None
        name = spec.name
        # The paths in stored order, split once for blob ids and line counts alike.
        in_order = functools.cache(lambda: files.split("\0") if count else [])
        return _snapshot(
            doc, spec, paths,
            LazyMapping(lambda: _packed_oids(in_order(), oids, width)),
            LazyMapping(lambda: _packed_lines(in_order(), lines, name)),
            LazyReferences(refs, name, decode_reference),
        )
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


def _packed_oids(files: list[str], oids: str, width: int) -> dict[str, str]:
    """Blob ids by path, when first read (snapshot_from_packed checked their width)."""
    ids = [oids[i:i + width] for i in range(0, len(oids), width)]
    return dict(zip(files, ids, strict=True))


def _packed_lines(files: list[str], lines: str, repo: str) -> dict[str, int]:
    """Line counts by path (none for a file not read), when first read."""
    try:
        found = json.loads(lines)
        if not (isinstance(found, list) and len(found) == len(files)
                and set(map(type, found)) <= {int, type(None)}):
            raise ValueError("line counts do not match the paths")
    except ValueError as exc:
        # The rest of the snapshot was read and checked; this part only now.
        raise CacheError.damaged_snapshot(repo, exc) from None
    return {p: n for p, n in zip(files, found, strict=True) if n is not None}


def _stored_oids(files: Any, stored: Any) -> Mapping[str, str] | None:
    """Blob ids by path, built when first read, from ids of one width in one string."""
    if not (isinstance(files, list) and set(map(type, files)) <= {str}):
        return None
    if isinstance(stored, dict):
        return stored if set(map(type, stored.values())) <= {str} else None
    if not isinstance(stored, str):
        return None
    if not files:
        return {} if not stored else None
    width = len(stored) // len(files)
    if width * len(files) != len(stored) or width not in (40, 64):
        return None
    return LazyMapping(lambda: dict(zip(files, [stored[i:i + width] for i in range(0, len(stored), width)],
                                        strict=True)))


def _stored_lines(files: list[str], stored: Any) -> Mapping[str, int] | None:
    """Line counts by path (None for a file not read), built when first read."""
    if isinstance(stored, dict):
        return stored if set(map(type, stored.values())) <= {int} else None
    if not (isinstance(stored, list) and len(stored) == len(files)
            and set(map(type, stored)) <= {int, type(None)}):
        return None
    return LazyMapping(lambda: {p: n for p, n in zip(files, stored, strict=True) if n is not None})


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
    plan = _Plan(repo, spec, commit, entries, settings, memo, cache)
    step = None if progress is None else (lambda _name, p: progress(p))
    _extract([plan], settings, step, cache)
    return plan.finish()


def _extract(
    plans: Iterable[_Plan], settings: Settings,
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
    given: list[tuple[BlobJob, _Plan]] = []
    taken: list[_Plan] = []

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


# A blob's anchors, references, mentions and suppressions, given the repo and path of
# one file holding it.
_Located = tuple[list[Anchor], list[Reference], list[Mention], list[Suppression]]


def _unread_notes_key(unread: list[str]) -> str:
    """The cache key of the Notes in these files not read ("path NUL blob id" each)."""
    digest = hashlib.sha256("\n".join(sorted(unread)).encode(errors=PATH_ERRORS)).hexdigest()
    return f"unread-notes:v1:{digest}"


def _uses_notes(blob: BlobIndex) -> bool:
    """Whether a blob defines or cites a Note."""
    return any(a.kind is AnchorKind.NOTE for a in blob.anchors) or any(
        r.kind is RefKind.NOTE for r in blob.references)


# Changelogs and release notes: records of the past, whose links and mentions (a file
# deleted since, a name an entry says was removed) are not claims about today. Of the
# real repos checked, consul-k8s', ingress-nginx', grafana's charts' and pydantic's had
# findings in theirs (pydantic's HISTORY.md: "Remove support for `eval_type_backport()`").
_HISTORY_NAMES = frozenset(("changelog", "changes", "history", "news", "releasenotes", "release-notes",
                            "release_notes"))
_HISTORY_DIRS = frozenset(("changelog", "changelogs", ".changelog", "release-notes", "releasenotes"))


def is_history(path: str) -> bool:
    """Whether `path` is a changelog or release notes in Markdown (CHANGELOG.md,
    HISTORY.md, changelog/v1.2.md): its anchors count, its references and mentions
    are not read."""
    if not path.lower().endswith((".md", ".markdown")):
        return False
    parts = path.lower().split("/")
    return parts[-1].rpartition(".")[0] in _HISTORY_NAMES or not _HISTORY_DIRS.isdisjoint(parts[:-1])


def _located(blob: BlobIndex, repo: str, path: str) -> _Located:
    """What `blob` holds, placed at `repo` and `path`."""
    if (blob.references or blob.mentions) and is_history(path):
        blob = replace(blob, references=(), mentions=())
    mentions = [Mention(n, repo, path, line, col) for n, line, col in blob.mentions]
    if _placed_at(blob, repo, path):  # as a worker's results are (extract_pool.unpack)
        return list(blob.anchors), list(blob.references), mentions, list(blob.suppressions)
    # Placed with the constructors: dataclasses.replace costs several times more, and a
    # big repo has tens of thousands of these.
    return (
        [Anchor(name=a.name, kind=a.kind, line=a.line, col=a.col, slug=a.slug, repo=repo, path=path)
         for a in blob.anchors],
        [Reference(kind=r.kind, line=r.line, col=r.col, text=r.text, name=r.name, target_repo=r.target_repo,
                   target_path=r.target_path, relative=r.relative, lines=r.lines, via_url=r.via_url,
                   claim=r.claim, repo=repo, path=path) for r in blob.references],
        mentions,
        [Suppression(first=s.first, last=s.last, codes=s.codes, line=s.line, col=s.col, repo=repo, path=path)
         for s in blob.suppressions],
    )


def _languages(users: list[tuple[str, str]]) -> tuple[str, ...]:
    """The languages a blob is read as, by the (path, language) of the files holding it:
    mostly one file."""
    return (users[0][1],) if len(users) == 1 else tuple(sorted({lang for _, lang in users}))


def _placed_at(blob: BlobIndex, repo: str, path: str) -> bool:
    """Whether the objects of `blob` are placed at `repo` and `path` already (they are
    all placed alike: all at one place, or none)."""
    first = blob.anchors[:1] or blob.references[:1] or blob.suppressions[:1]
    return not first or (first[0].repo == repo and first[0].path == path)


class _Plan:
    """One repo's crawl in progress: what its tree holds, which blobs are still to be
    read (the memo and the cache answered for the others), and what came back."""

    def __init__(
        self, repo: GitRepo, spec: RepoSpec, commit: str, entries: Iterable[TreeEntry],
        settings: Settings, memo: BlobMemo | None, cache: BlobCache | None,
    ) -> None:
        self.repo, self.spec, self.commit = repo, spec, commit
        self.options = options = options_key(extract_options(settings))
        self.memo = memo = {} if memo is None else memo
        self.skipped: list[SkippedFile] = []
        self.oids: dict[str, str] = {}
        self.per_path: dict[str, BlobIndex] = {}
        self.located: dict[str, _Located] = {}  # paths with something found, see _place
        self.fresh: list[tuple[str, str, BlobIndex | str | Encoded]] = []
        self.files_read = self.bytes_read = self.anchors_found = 0
        to_read: dict[str, list[tuple[str, str]]] = {}  # oid -> [(path, language)]
        self.to_read = to_read
        sizes: dict[str, int] = {}
        self.cache = cache
        # Notes defined in the files not read (note_titles): searched by git once this
        # repo shows it uses Notes (_place), while the crawl goes on; the answer is
        # cached by those files' paths and blob ids, so a PR or a new commit that
        # leaves them alone asks git nothing.
        self.note_search: Background | None = None
        self.stored_notes: list[tuple[str, Anchor]] | None = None
        self.notes_key = ""
        self.unread: list[str] | None = [] if extract_options(settings).headings.notes else None
        self.excluded = settings.excluded_in(spec)
        self.excluder = excluded = excluder(self.excluded)
        for entry in entries:
            if entry.is_submodule:
                self.skipped.append(SkippedFile(entry.path, "submodule"))
                continue
            self.oids[entry.path] = entry.oid  # its keys are the snapshot's paths
            if entry.is_symlink:
                continue  # never followed: its target may lie outside the snapshot
            if excluded is not None and excluded.search(entry.path):
                continue  # listed, not read (not even for Notes: see excludes.py)
            lang = language_of(entry.path)
            if lang is None:
                if self.unread is not None:
                    self.unread.append(f"{entry.path}\0{entry.oid}")
                continue
            if entry.size > settings.max_file_size:
                self.skipped.append(SkippedFile(entry.path, "too large"))
                continue
            to_read.setdefault(entry.oid, []).append((entry.path, lang))
            sizes[entry.oid] = max(entry.size, 0)
        pending = self._known(to_read)
        if cache is not None and pending:
            # The persistent cache answers for blobs seen in an earlier run; only the
            # rest are read from git and scanned.
            stored = cache.get_many((oid, lang) for oid in pending for _, lang in to_read[oid])
            for (oid, lang), value in stored.items():
                memo[(oid, lang, options)] = value
            pending = self._known(pending)
        self.pending = pending
        self.langs_of = {oid: _languages(to_read[oid]) for oid in pending}
        self.sizes = {oid: sizes[oid] for oid in pending}

    def _known(self, oids: Iterable[str]) -> list[str]:
        """Take what the memo knows of these blobs; return the oids still unknown."""
        memo, options = self.memo, self.options
        if not memo:
            return list(oids)  # a cold run: nothing known yet
        unknown = []
        for oid in oids:
            users = self.to_read[oid]
            if not all((oid, lang, options) in memo for _, lang in users):
                unknown.append(oid)
                continue
            for path, lang in users:
                self._place(path, memo[(oid, lang, options)])
        return unknown

    def _place(self, path: str, value: BlobIndex | str) -> None:
        if isinstance(value, str):
            self.skipped.append(SkippedFile(path, value))
            return
        self.per_path[path] = value
        if value.anchors or value.references or value.mentions or value.suppressions:
            # Given their repo and path now, as each blob's results come in (the crawl's
            # main process mostly waits for its workers then), not all at the end: GHC's
            # 10k references and 4k anchors took ~95 ms between its last scan and
            # git's name searches.
            self.located[path] = _located(value, self.spec.name, path)
            if self.unread and _uses_notes(value):
                self._look_for_unread_notes(self.unread)
                self.unread = None

    def _look_for_unread_notes(self, unread: list[str]) -> None:
        self.notes_key = _unread_notes_key(unread)
        stored = self.cache.get_result(self.notes_key) if self.cache is not None else None
        if isinstance(stored, list):
            try:
                self.stored_notes = [(str(path), Anchor.make(str(name), AnchorKind.NOTE, int(line), int(col)))
                                     for path, name, line, col in stored]
                return
            except (TypeError, ValueError):
                pass  # not what this version writes: ask git again
        self.note_search = self.repo.start_note_titles(self.commit, READ_PATHSPECS)

    def _unread_notes(self) -> list[tuple[str, Anchor]]:
        """The Notes defined in the files not read, found or stored (_look_for_unread_notes)."""
        if self.stored_notes is not None:
            return self.stored_notes
        if self.note_search is None:
            return []
        out = self.note_search.output()
        self.note_search = None
        if out is None:
            return []  # git failed: the crawl goes on without them, and stores nothing
        # The pathspecs left out what language_of reads, but for case: it reads `A.PY`
        # too, as Python.
        excluded = self.excluder
        found = [(path, anchor) for path, anchor in note_titles(out.decode(errors=PATH_ERRORS), self.commit)
                 if language_of(path) is None and path in self.oids
                 and (excluded is None or not excluded.search(path))]
        if self.cache is not None:
            self.cache.put_result(self.notes_key, [[p, a.name, a.line, a.col] for p, a in found])
        return found

    def take(
        self, oid: str, size: int, read: bool, results: tuple[PackedIndex | str, ...],
        encoded: tuple[str, ...] | None,
    ) -> None:
        """One blob's results from the extraction."""
        self.files_read += 1
        self.bytes_read += size
        if read:
            self.repo.blobs_read += 1
        langs = self.langs_of[oid]
        values: list[BlobIndex | PackedIndex | str] = list(results)
        for path, lang in self.to_read[oid]:
            i = langs.index(lang)  # a blob is read as one language, rarely two
            value = values[i]
            if isinstance(value, tuple):  # placed at its first path as it is unpacked
                value = values[i] = unpack(value, self.spec.name, path)
            if value == UNREADABLE:  # this clone's fault, not the blob's: never memoised
                self.skipped.append(SkippedFile(path, value))
                continue
            key = (oid, lang, self.options)
            if key not in self.memo:
                self.fresh.append((oid, lang, Encoded(encoded[i]) if encoded is not None else value))
                self.memo[key] = value
            self._place(path, value)
        for value in values:
            if isinstance(value, BlobIndex):
                self.anchors_found += len(value.anchors)

    def finish(self) -> SnapshotIndex:
        per_path, located = self.per_path, self.located
        anchors: list[Anchor] = []
        refs: list[Reference] = []
        line_counts: dict[str, int] = {}
        mentions: list[Mention] = []
        suppressions: list[Suppression] = []
        for path in sorted(per_path):
            line_counts[path] = per_path[path].line_count
            found = located.get(path)
            if found is not None:
                anchors.extend(found[0])
                refs.extend(found[1])
                mentions.extend(found[2])
                suppressions.extend(found[3])
        unread_notes = self._unread_notes()
        if unread_notes:
            anchors.extend(replace(anchor, repo=self.spec.name, path=path) for path, anchor in unread_notes)
            anchors.sort(key=lambda a: a.path)  # stable: each file's anchors keep their order
        return SnapshotIndex(
            repo=self.spec.name,
            ref=self.spec.ref,
            commit=self.commit,
            paths=frozenset(self.oids),
            anchors=tuple(anchors),
            references=tuple(refs),
            line_counts=line_counts,
            oids=self.oids,
            skipped=tuple(sorted(self.skipped, key=lambda s: s.path)),
            mentions=tuple(mentions),
            suppressions=tuple(suppressions),
            files_read=self.files_read,
            bytes_read=self.bytes_read,
            excluded=self.excluded,
        )
