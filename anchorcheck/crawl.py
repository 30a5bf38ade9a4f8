"""Crawl: one repo at one ref, read from git objects, into a snapshot index."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from anchorcheck.anchor import Anchor
from anchorcheck.blobtext import UNREADABLE
from anchorcheck.cache import BlobCache, Encoded
from anchorcheck.extract import BlobIndex, ExtractOptions
from anchorcheck.extract_pool import BlobJob, extract_blobs, worker_count
from anchorcheck.gitio import GitRepo, TreeEntry
from anchorcheck.languages import language_of
from anchorcheck.reference import Reference
from anchorcheck.suppression import Suppression
from anchorcheck.workspace import RepoSpec, Settings

# What a blob gave, keyed by (blob id, language, options): its index, or the reason
# it is not read as text, so a blob that failed is not read again either.
BlobMemo = dict[tuple[str, str, ExtractOptions], BlobIndex | str]


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
    path: str
    reason: str  # "binary", "too large", "not UTF-8", "submodule", "symlink"


@dataclass(frozen=True, slots=True)
class SnapshotIndex:
    """What one repo at one commit defines and cites. `paths` holds every file in the
    tree (read or not), so a citation of an image or a lock file still resolves."""

    repo: str
    ref: str
    commit: str
    paths: frozenset[str]
    anchors: tuple[Anchor, ...]
    references: tuple[Reference, ...]
    line_counts: dict[str, int] = field(hash=False, compare=False)
    # path -> blob id, so claims can read just the files they name, later.
    oids: dict[str, str] = field(default_factory=dict, hash=False, compare=False)
    skipped: tuple[SkippedFile, ...] = ()
    mentions: tuple[Mention, ...] = ()
    suppressions: tuple[Suppression, ...] = ()
    files_read: int = 0
    bytes_read: int = 0


def extract_options(settings: Settings) -> ExtractOptions:
    return ExtractOptions(headings=settings.headings, markdown=settings.markdown_headings)


def crawl(
    spec: RepoSpec,
    settings: Settings,
    memo: BlobMemo | None = None,
    progress: Callable[[Progress], None] | None = None,
    cache: BlobCache | None = None,
) -> SnapshotIndex:
    repo = GitRepo(spec.path)
    commit = repo.resolve(spec.ref)
    # A whole snapshot is cached by commit: a run over an unchanged repo lists no tree
    # and decodes one row, however many files the repo has.
    key = snapshot_key(spec, commit, settings)
    stored = cache.get_result(key) if cache is not None else None
    if stored is not None:
        snap = snapshot_from_json(stored, spec)
        if snap is not None:
            return snap
    entries = repo.list_tree(commit)
    snap = index_entries(repo, spec, commit, entries, settings, memo, progress, cache)
    if cache is not None and not any(s.reason == UNREADABLE for s in snap.skipped):
        cache.put_result(key, snapshot_to_json(snap))
    return snap


def snapshot_key(spec: RepoSpec, commit: str, settings: Settings) -> str:
    from anchorcheck.cache import options_key

    return f"snap:{spec.name}:{commit}:{options_key(extract_options(settings))}:{settings.max_file_size}"


def snapshot_to_json(snap: SnapshotIndex) -> dict[str, Any]:
    from anchorcheck.cache import encode_blob_index

    blob = BlobIndex(snap.anchors, snap.references, 0, 0,
                     tuple((m.name, m.line, m.col) for m in snap.mentions), snap.suppressions)
    return {
        "commit": snap.commit,
        "paths": sorted(snap.paths),
        "oids": snap.oids,
        "lines": snap.line_counts,
        "skipped": [[s.path, s.reason] for s in snap.skipped],
        "index": encode_blob_index(blob),
        "anchor_paths": [a.path for a in snap.anchors],
        "ref_paths": [r.path for r in snap.references],
        "mention_paths": [m.path for m in snap.mentions],
        "suppression_paths": [s.path for s in snap.suppressions],
    }


def snapshot_from_json(doc: Any, spec: RepoSpec) -> SnapshotIndex | None:
    """None when the stored value is not what this version writes (then: rebuild)."""
    from anchorcheck.cache import decode_blob_index

    try:
        name = spec.name
        places = {"a": doc["anchor_paths"], "r": doc["ref_paths"], "s": doc["suppression_paths"]}
        blob = decode_blob_index(doc["index"], name, places)
        if not isinstance(blob, BlobIndex):
            return None
        mention_paths = [str(p) for p in doc["mention_paths"]]
        return SnapshotIndex(
            repo=name, ref=spec.ref, commit=str(doc["commit"]),
            paths=frozenset(str(p) for p in doc["paths"]),
            anchors=blob.anchors,
            references=blob.references,
            line_counts={str(k): int(v) for k, v in doc["lines"].items()},
            oids={str(k): str(v) for k, v in doc["oids"].items()},
            skipped=tuple(SkippedFile(str(p), str(r)) for p, r in doc["skipped"]),
            mentions=tuple(Mention(m[0], name, p, m[1], m[2])
                           for m, p in zip(blob.mentions, mention_paths, strict=True)),
            suppressions=blob.suppressions,
        )
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


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
    options = extract_options(settings)
    memo = {} if memo is None else memo
    skipped: list[SkippedFile] = []
    paths: set[str] = set()
    oids: dict[str, str] = {}
    to_read: dict[str, list[tuple[str, str]]] = {}  # oid -> [(path, language)]
    entry_list = list(entries)
    for entry in entry_list:
        if entry.is_submodule:
            skipped.append(SkippedFile(entry.path, "submodule"))
            continue
        paths.add(entry.path)
        oids[entry.path] = entry.oid
        if entry.is_symlink:
            continue  # never followed: its target may lie outside the snapshot
        lang = language_of(entry.path)
        if lang is None:
            continue
        if entry.size > settings.max_file_size:
            skipped.append(SkippedFile(entry.path, "too large"))
            continue
        to_read.setdefault(entry.oid, []).append((entry.path, lang))

    per_path: dict[str, BlobIndex] = {}

    def known(oids: Iterable[str]) -> list[str]:
        """Take what the memo knows of these blobs; return the oids still unknown."""
        unknown = []
        for oid in oids:
            users = to_read[oid]
            if not all((oid, lang, options) in memo for _, lang in users):
                unknown.append(oid)
                continue
            for path, lang in users:
                value = memo[(oid, lang, options)]
                if isinstance(value, str):
                    skipped.append(SkippedFile(path, value))
                else:
                    per_path[path] = value
        return unknown

    pending = known(to_read)
    if cache is not None and pending:
        # The persistent cache answers for blobs seen in an earlier run; only the rest
        # are read from git and scanned.
        stored = cache.get_many((oid, lang) for oid in pending for _, lang in to_read[oid])
        for (oid, lang), value in stored.items():
            memo[(oid, lang, options)] = value
        pending = known(pending)
    fresh: list[tuple[str, str, BlobIndex | str | Encoded]] = []
    files_read = bytes_read = 0
    langs_of = {oid: tuple(sorted({lang for _, lang in to_read[oid]})) for oid in pending}

    def blob_jobs() -> Iterator[BlobJob]:
        for oid, data in repo.read_blobs(pending):
            yield oid, data, langs_of.get(oid, ())

    workers = worker_count(settings.jobs)
    sizes = {e.oid: max(e.size, 0) for e in entry_list if e.oid in langs_of}
    total = sum(sizes.values())  # of the text to scan: decides whether a pool pays
    encode = cache is not None
    anchors_found = 0
    for oid, size, results, encoded in extract_blobs(blob_jobs(), options, workers, total, encode):
        files_read += 1
        bytes_read += size
        anchors_found += sum(len(r.anchors) for r in results if isinstance(r, BlobIndex))
        if progress is not None:
            progress(Progress(files_read, len(pending), bytes_read, anchors_found))
        langs = langs_of.get(oid, ())
        by_lang = dict(zip(langs, results, strict=True))
        coded = dict(zip(langs, encoded, strict=True)) if encoded is not None else {}
        for path, lang in to_read.get(oid, []):
            value = by_lang[lang]
            if value == UNREADABLE:  # this clone's fault, not the blob's: never memoised
                skipped.append(SkippedFile(path, value))
                continue
            key = (oid, lang, options)
            if key not in memo:
                fresh.append((oid, lang, Encoded(coded[lang]) if lang in coded else value))
                memo[key] = value
            if isinstance(value, str):
                skipped.append(SkippedFile(path, value))
            else:
                per_path[path] = value
    if cache is not None:
        cache.put_many(fresh)

    anchors: list[Anchor] = []
    refs: list[Reference] = []
    line_counts: dict[str, int] = {}
    mentions: list[Mention] = []
    suppressions: list[Suppression] = []
    for path in sorted(per_path):
        blob = per_path[path]
        line_counts[path] = blob.line_count
        mentions.extend(Mention(name, spec.name, path, line, col) for name, line, col in blob.mentions)
        # Placed with the constructors: dataclasses.replace costs several times more,
        # and a big repo has tens of thousands of these.
        name = spec.name
        suppressions.extend(Suppression(first=s.first, last=s.last, codes=s.codes, line=s.line,
                                        col=s.col, repo=name, path=path) for s in blob.suppressions)
        anchors.extend(Anchor(name=a.name, kind=a.kind, line=a.line, col=a.col, slug=a.slug,
                              repo=name, path=path) for a in blob.anchors)
        refs.extend(Reference(kind=r.kind, line=r.line, col=r.col, text=r.text, name=r.name,
                              target_repo=r.target_repo, target_path=r.target_path,
                              relative=r.relative, lines=r.lines, via_url=r.via_url, claim=r.claim,
                              repo=name, path=path) for r in blob.references)
    return SnapshotIndex(
        repo=spec.name,
        ref=spec.ref,
        commit=commit,
        paths=frozenset(paths),
        anchors=tuple(anchors),
        references=tuple(refs),
        line_counts=line_counts,
        oids=oids,
        skipped=tuple(sorted(skipped, key=lambda s: s.path)),
        mentions=tuple(mentions),
        suppressions=tuple(suppressions),
        files_read=files_read,
        bytes_read=bytes_read,
    )
