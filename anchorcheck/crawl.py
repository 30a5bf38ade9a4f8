"""Crawl: one repo at one ref, read from git objects, into a snapshot index."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace

from anchorcheck.anchor import Anchor
from anchorcheck.cache import BlobCache
from anchorcheck.extract import BlobIndex, ExtractOptions, extract
from anchorcheck.gitio import GitRepo, TreeEntry
from anchorcheck.languages import language_of
from anchorcheck.reference import Reference
from anchorcheck.suppression import Suppression
from anchorcheck.workspace import RepoSpec, Settings

_BINARY_SNIFF = 8000

# What a blob gave, keyed by (blob id, language, options): its index, or the reason
# it is not read as text, so a blob that failed is not read again either.
BlobMemo = dict[tuple[str, str, ExtractOptions], BlobIndex | str]


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


@dataclass
class CrawlStats:
    files_read: int = 0
    bytes_read: int = 0
    blobs_extracted: int = 0


def extract_options(settings: Settings) -> ExtractOptions:
    return ExtractOptions(headings=settings.headings, markdown=settings.markdown_headings)


def crawl(
    spec: RepoSpec,
    settings: Settings,
    memo: BlobMemo | None = None,
    progress: Callable[[int, int], None] | None = None,
    cache: BlobCache | None = None,
) -> SnapshotIndex:
    repo = GitRepo(spec.path)
    commit = repo.resolve(spec.ref)
    entries = repo.list_tree(commit)
    return index_entries(repo, spec, commit, entries, settings, memo, progress, cache)


def index_entries(
    repo: GitRepo,
    spec: RepoSpec,
    commit: str,
    entries: Iterable[TreeEntry],
    settings: Settings,
    memo: BlobMemo | None = None,
    progress: Callable[[int, int], None] | None = None,
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
    fresh: list[tuple[str, str, BlobIndex | str]] = []
    files_read = bytes_read = 0
    for done, (oid, data) in enumerate(repo.read_blobs(pending), start=1):
        files_read += 1
        bytes_read += len(data)
        if progress is not None:
            progress(done, len(pending))
        text, reason = decode_blob(data)
        for path, lang in to_read.get(oid, []):
            key = (oid, lang, options)
            if text is None:
                if key not in memo:
                    fresh.append((oid, lang, reason))
                memo[key] = reason
                skipped.append(SkippedFile(path, reason))
                continue
            cached = memo.get(key)
            if not isinstance(cached, BlobIndex):
                cached = memo[key] = extract(text, lang, options)
                fresh.append((oid, lang, cached))
            per_path[path] = cached
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
        suppressions.extend(replace(s, repo=spec.name, path=path) for s in blob.suppressions)
        anchors.extend(replace(a, repo=spec.name, path=path) for a in blob.anchors)
        refs.extend(replace(r, repo=spec.name, path=path) for r in blob.references)
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


def decode_blob(data: bytes) -> tuple[str | None, str]:
    """The blob's text, or None and why it is not read as text."""
    if b"\0" in data[:_BINARY_SNIFF]:
        return None, "binary"
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None, "not UTF-8"
    # Line numbers must match what editors and GitHub show: CRLF counts as one line
    # end, and a lone CR (classic Mac) as one too.
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text.removeprefix("\ufeff"), ""
