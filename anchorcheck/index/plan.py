"""The index stage's plan for one repo: which files its tree holds, which blobs are
still to be read and scanned, and, as results come in, its snapshot.

A plan knows nothing of the cache: the stage's edge (crawl.py) asks the cache before
extraction (`wanted`, then `answer`) and stores what the plan found after it
(`fresh`, `found_notes`). It does start git's search for the Notes of the files it
does not read, the moment it sees that its repo uses Notes, so that the search runs
beside the scans."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace
from typing import Any

from anchorcheck.config.excludes import excluder
from anchorcheck.config.workspace import RepoSpec, Settings
from anchorcheck.extract.blob import BlobIndex, ExtractOptions
from anchorcheck.extract.headings import note_titles
from anchorcheck.extract.languages import READ_PATHSPECS, language_of
from anchorcheck.git.blobtext import UNREADABLE
from anchorcheck.git.output import PATH_ERRORS, TreeEntry
from anchorcheck.git.oversized import note_oversized
from anchorcheck.git.process import Background
from anchorcheck.git.repo import GitRepo
from anchorcheck.index.cache import Encoded, options_key
from anchorcheck.index.pool import PackedIndex, unpack
from anchorcheck.model.anchor import Anchor, AnchorKind
from anchorcheck.model.reference import Reference, RefKind
from anchorcheck.model.snapshot import Mention, SkippedFile, SnapshotIndex
from anchorcheck.model.suppression import Suppression

# What a blob gave, keyed by (blob id, language, cache.options_key of the options): its
# index, or the reason it is not read as text, so a blob that failed is not read again
# either. (The options as a string: a key holding the options dataclasses was hashed
# field by field at every look-up, 70k of them in a cold run of the bench workspace.)
BlobMemo = dict[tuple[str, str, str], BlobIndex | str]




def extract_options(settings: Settings) -> ExtractOptions:
    return ExtractOptions(headings=settings.headings, markdown=settings.markdown_headings)




# A blob's anchors, references, mentions and suppressions, given the repo and path of
# one file holding it.
_Located = tuple[list[Anchor], list[Reference], list[Mention], list[Suppression]]


def unread_notes_key(unread: list[str]) -> str:
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


# A release's own notes, named for its version in a folder of them (coredns' notes/coredns-
# 1.6.0.md, published as the website's blog posts; releases/v2.3.md).
_RELEASE_DIRS = frozenset(("notes", "releases", "release", "announcements"))
_VERSIONED = re.compile(r"(?:^|[-_ v])\d+\.\d+(?:\.\d+)*(?:[-.+]\w+)?$")


def is_history(path: str) -> bool:
    """Whether `path` is a changelog or release notes in Markdown (CHANGELOG.md,
    HISTORY.md, changelog/v1.2.md, notes/coredns-1.6.0.md): its anchors count, its
    references and mentions are not read."""
    if not path.lower().endswith((".md", ".markdown")):
        return False
    parts = path.lower().split("/")
    stem = parts[-1].rpartition(".")[0]
    return stem in _HISTORY_NAMES or not _HISTORY_DIRS.isdisjoint(parts[:-1]) or (
        len(parts) > 1 and parts[-2] in _RELEASE_DIRS and _VERSIONED.search(stem) is not None)


# Upgrade and migration guides name what a release removed, as a record of it (bubbletea's
# UPGRADE_GUIDE_V2.md lists the options v2 removed: 17 false AC203); so do a release's
# announcement and a blog post, written on the day (django-rest-framework's
# docs/community/3.0-announcement.md: "`request.DATA` ... is now pending deprecation").
# Their links still lead readers to today's docs, and are checked.
_MIGRATION_STEMS = ("upgrad", "migrat")
_ANNOUNCEMENT = ("announce", "announcing")
_MIGRATION_DIRS = frozenset(("migration", "migrations", "migrating", "upgrade", "upgrades", "upgrading",
                             "blog", "_posts", "posts", "announcements"))


def is_migration(path: str) -> bool:
    """Whether `path` is a record of a release in Markdown, whose mentions of names are
    not read: an upgrade or migration guide (UPGRADE_GUIDE_V2.md, docs/migration/v3.md,
    migrating-rtk-2.md), a release's announcement (3.0-announcement.md) or a blog post."""
    if not path.lower().endswith((".md", ".markdown")):
        return False
    parts = path.lower().split("/")
    return parts[-1].startswith(_MIGRATION_STEMS) or any(word in parts[-1] for word in _ANNOUNCEMENT) \
        or not _MIGRATION_DIRS.isdisjoint(parts[:-1])


def _located(blob: BlobIndex, repo: str, path: str) -> _Located:
    """What `blob` holds, placed at `repo` and `path`."""
    if (blob.references or blob.mentions) and is_history(path):
        blob = replace(blob, references=(), mentions=())
    elif blob.mentions and is_migration(path):
        blob = replace(blob, mentions=())
    mentions = [Mention(n, repo, path, line, col) for n, line, col in blob.mentions]
    if _placed_at(blob, repo, path):  # as a worker's results are (pool.unpack)
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


def notes_to_json(found: list[tuple[str, Anchor]]) -> list[list[Any]]:
    """The Notes of the files not read, as stored."""
    return [[p, a.name, a.line, a.col] for p, a in found]


def notes_from_json(stored: Any) -> list[tuple[str, Anchor]] | None:
    """notes_to_json's Notes; None when the value is not what it writes (then git is
    asked again)."""
    if not isinstance(stored, list):
        return None
    try:
        return [(str(path), Anchor.make(str(name), AnchorKind.NOTE, int(line), int(col)))
                for path, name, line, col in stored]
    except (TypeError, ValueError):
        return None


class Plan:
    """One repo's crawl in progress: what its tree holds, which blobs are still to be
    read (the memo and the cache answered for the others), and what came back."""

    def __init__(
        self, repo: GitRepo, spec: RepoSpec, commit: str, entries: Iterable[TreeEntry],
        settings: Settings, memo: BlobMemo | None,
    ) -> None:
        self.repo, self.spec, self.commit = repo, spec, commit
        self.options = options_key(extract_options(settings))
        self.memo: BlobMemo = {} if memo is None else memo
        self.skipped: list[SkippedFile] = []
        self.oids: dict[str, str] = {}
        self.per_path: dict[str, BlobIndex] = {}
        self.located: dict[str, _Located] = {}  # paths with something found, see _place
        # What extraction found that no memo held: for the edge to store.
        self.fresh: list[tuple[str, str, BlobIndex | str | Encoded]] = []
        self.files_read = self.bytes_read = self.anchors_found = 0
        self.to_read: dict[str, list[tuple[str, str]]] = {}  # oid -> [(path, language)]
        self.sizes: dict[str, int] = {}
        # Notes defined in the files not read (note_titles): searched by git once this
        # repo shows it uses Notes (_place), while the crawl goes on; the answer is
        # stored by those files' paths and blob ids (unread_notes_key), so a PR or a new
        # commit that leaves them alone asks git nothing.
        self.unread: list[str] | None = [] if extract_options(settings).headings.notes else None
        self.uses_notes = False
        self.answered = False
        self.note_search: Background | None = None
        self.stored_notes: list[tuple[str, Anchor]] | None = None
        # The Notes git found (not stored ones): for the edge to store, after finish().
        self.found_notes: list[tuple[str, Anchor]] | None = None
        self.excluded = settings.excluded_in(spec)
        self.excluder = excluded = excluder(self.excluded)
        oversized: list[str] = []
        kinds = settings.read_kinds
        also = {path for repo, path in settings.read_also if repo == spec.name}
        for entry in entries:
            if entry.is_submodule:
                self.skipped.append(SkippedFile(entry.path, "submodule"))
                continue
            if entry.size > settings.max_file_size:
                oversized.append(entry.path)
            self.oids[entry.path] = entry.oid  # its keys are the snapshot's paths
            if entry.is_symlink:
                # Never followed here: its target may lie outside the snapshot. (Known as
                # one: a Hugo page reading it reads its target, SnapshotFiles.followed_link.)
                self.skipped.append(SkippedFile(entry.path, "symlink"))
                continue
            if excluded is not None and excluded.search(entry.path):
                continue  # listed, not read (not even for Notes: see config/excludes.py)
            lang = language_of(entry.path)
            if lang is None:
                if self.unread is not None:
                    self.unread.append(f"{entry.path}\0{entry.oid}")
                continue
            if kinds is not None and lang not in kinds and entry.path not in also:
                continue  # listed, not read: no rule this check runs needs it (check/kinds.py)
            if entry.size > settings.max_file_size:
                self.skipped.append(SkippedFile(entry.path, "too large"))
                continue
            self.to_read.setdefault(entry.oid, []).append((entry.path, lang))
            self.sizes[entry.oid] = max(entry.size, 0)
        # git's searches at this commit leave them out too (git/oversized.py).
        note_oversized(repo.git_dir, commit, oversized, settings.max_file_size)
        self.pending = self._known(self.to_read)
        self.langs_of: dict[str, tuple[str, ...]] = {}

    def notes_key(self) -> str | None:
        """The key the Notes of the files not read are stored under, or None when there
        are none to look for (Notes off, or every file read)."""
        return unread_notes_key(self.unread) if self.unread else None

    def wanted(self) -> Iterator[tuple[str, str]]:
        """The (blob id, language) pairs the memo did not answer."""
        to_read = self.to_read
        return ((oid, lang) for oid in self.pending for _, lang in to_read[oid])

    def answer(self, stored: Mapping[tuple[str, str], BlobIndex | str], notes: Any = None) -> None:
        """What the cache held of `wanted` and of `notes_key` (None: nothing); what it
        did not hold is read and scanned (`pending`). Called once, before extraction."""
        memo, options = self.memo, self.options
        for (oid, lang), value in stored.items():
            memo[(oid, lang, options)] = value
        if stored:
            self.pending = self._known(self.pending)
        self.stored_notes = notes_from_json(notes)
        self.answered = True
        if self.uses_notes:
            self._start_note_search()
        self.langs_of = {oid: _languages(self.to_read[oid]) for oid in self.pending}

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
            if not self.uses_notes and self.unread and _uses_notes(value):
                self.uses_notes = True
                if self.answered:
                    self._start_note_search()

    def _start_note_search(self) -> None:
        if self.stored_notes is None and self.note_search is None and self.unread:
            self.note_search = self.repo.start_note_titles(self.commit, READ_PATHSPECS)

    def _unread_notes(self) -> list[tuple[str, Anchor]]:
        """The Notes defined in the files not read, found or stored."""
        if not self.uses_notes:
            return []
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
        self.found_notes = found
        return found

    def cancel(self) -> None:
        """Stop git's search, when an error ends the crawl."""
        if self.note_search is not None:
            self.note_search.cancel()

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
