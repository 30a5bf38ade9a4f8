"""The snapshots' files, as the workspace index asks about them: paths by base name and
directories, what was not read and why, the `.gitignore` files, a symlink's target,
another project's copy, a generated file, and a file's text read from git on need (one
`git cat-file` per repo for the index's life). SnapshotFiles is the WorkspaceIndex's
lowest layer (workspace_index.py; SitePages, site_pages.py, stands on it): it knows
files alone, not what a site or an anchor makes of them."""

from __future__ import annotations

import posixpath
import re
import weakref
from collections import defaultdict
from collections.abc import Iterator, Sequence
from collections.abc import Set as AbstractSet
from pathlib import Path
from typing import Self

from anchorcheck.config.excludes import IgnoreFile, excluded_by, git_ignores
from anchorcheck.config.workspace import RepoSpec
from anchorcheck.errors import GitError
from anchorcheck.extract.locations import copied_path, generated_text
from anchorcheck.git.blobtext import decode_blob
from anchorcheck.git.process import BlobReader
from anchorcheck.git.repo import GitRepo
from anchorcheck.index.lazy import LazyPaths
from anchorcheck.model.snapshot import SnapshotIndex
from anchorcheck.resolve.resolution import FileId

# A folder named with a version (`gateway-api-0.7.1-custom`), and a project's licence.
_VERSIONED_NAME = re.compile(r"\d+(?:\.\d+)+")


_LICENCES = ("LICENSE", "LICENSE.md", "LICENSE.txt", "LICENCE", "COPYING", "license")


def _close_readers(readers: dict[Path, BlobReader]) -> None:
    """Close an index's cat-file processes (weakref.finalize: when it goes, or at exit)."""
    while readers:
        readers.popitem()[1].close()


class SnapshotFiles:
    """Lookups over every snapshot's files (the WorkspaceIndex's lowest layer)."""

    def __init__(
        self, snapshots: Sequence[SnapshotIndex], repos: Sequence[RepoSpec], share: Self | None = None,
    ) -> None:
        """`share`: another index over some of the same snapshots, whose per-repo
        lookup tables are reused for them (WorkspaceIndex)."""
        self.snapshots = {s.repo: s for s in snapshots}
        self._share = share
        self.repos = {r.name: r for r in repos}
        # Paths by base name, per repo: a path reference matches the files it is a
        # suffix of. One entry per file (not one per suffix) keeps building this cheap
        # on big trees; built on first need.
        self._by_basename: dict[str, _FilesByName] = {}
        self._dirs: dict[str, set[str]] = {}
        self._skipped: dict[str, dict[str, str]] = {}  # see unread_reason()
        self._pages_by_lower: dict[str, dict[str, str | None]] = {}  # see page_ignoring_case()
        self._ignore_files: dict[str, list[IgnoreFile]] = {}  # see git_ignores()
        self._generated_files: dict[FileId, bool] = {}  # see generated()
        self._readers: dict[Path, BlobReader] = {}  # see _reader()
        weakref.finalize(self, _close_readers, self._readers)

    def ending_with_stem(self, stem: str) -> list[FileId]:
        """Haskell sources named `stem` (`Internals.hs`, `.lhs`, `.hsc`...), in any repo."""
        return [f for ext in (".hs", ".lhs", ".hsc", ".hs-boot", ".hsig")
                for f in self.ending_with(stem + ext)]

    def ending_with(self, suffix: str) -> list[FileId]:
        """Files whose path is `suffix` or ends with `/suffix`."""
        tail = "/" + suffix
        base = suffix.rpartition("/")[2]
        return sorted((repo, p) for repo in self.snapshots for p in self._names(repo).named(base)
                      if p == suffix or p.endswith(tail))

    def _names(self, repo: str) -> _FilesByName:
        names = self._by_basename.get(repo)
        if names is None:
            snap = self.snapshots[repo]
            other = self._share
            if other is not None and other.snapshots.get(repo) is snap:
                names = other._names(repo)
            else:
                names = _FilesByName(snap.paths)
            self._by_basename[repo] = names
        return names

    def dirs(self, repo: str) -> set[str]:
        """The directories of a repo, built on first need (most runs cite no directory)."""
        found = self._dirs.get(repo)
        if found is None:
            found = set()
            snap = self.snapshots.get(repo)
            for path in snap.paths if snap is not None else ():
                cut = path.rfind("/")
                while cut > 0 and path[:cut] not in found:
                    found.add(path[:cut])
                    cut = path.rfind("/", 0, cut)
            self._dirs[repo] = found
        return found

    def unread_reason(self, repo: str, path: str) -> str | None:
        """Why a file in the tree was not read (binary, too large, excluded...), or
        None when it was read: what such a file defines is not known."""
        snap = self.snapshots.get(repo)
        if snap is None:
            return None
        skipped = self._skipped.get(repo)
        if skipped is None:
            skipped = self._skipped[repo] = {s.path: s.reason for s in snap.skipped}
        if path in skipped:
            return skipped[path]
        pattern = excluded_by(snap.excluded, path)
        return None if pattern is None else f"excluded by {pattern!r}"

    def git_ignores(self, repo: str, path: str) -> bool:
        """Whether the repo's `.gitignore` files (at the snapshot's commit) ignore
        `path`: a file a build writes (ruff's docs/.gitignore lists the settings.md
        and rules/ its docs build generates). Read from git on first need; a repo git
        cannot read (gone, or only in an index file) ignores nothing."""
        files = self.ignore_files(repo)
        return bool(files) and git_ignores(files, path)

    def ignore_files(self, repo: str) -> list[IgnoreFile]:
        """The repo's `.gitignore` files, read on first need."""
        files = self._ignore_files.get(repo)
        if files is None:
            other, snap = self._share, self.snapshots.get(repo)
            if other is not None and snap is not None and other.snapshots.get(repo) is snap:
                files = other.ignore_files(repo)  # (a merge order's scenarios: read once)
            else:
                files = self._read_ignore_files(repo)
            self._ignore_files[repo] = files
        return files

    def _read_ignore_files(self, repo: str) -> list[IgnoreFile]:
        snap, spec = self.snapshots.get(repo), self.repos.get(repo)
        if snap is None or spec is None:
            return []
        where = {oid: path.rpartition("/")[0] for path, oid in snap.oids.items()
                 if path == ".gitignore" or path.endswith("/.gitignore")}
        try:
            return [IgnoreFile.parse(where[oid], data.decode("utf-8", errors="replace"))
                    for oid, data in list(self._blobs(spec.path, list(where))) if data is not None]
        except (GitError, OSError):
            return []

    def page_ignoring_case(self, repo: str, path: str) -> str | None:
        """The one file whose path is `path` but for case, if one is."""
        pages = self._pages_by_lower.get(repo)
        if pages is None:
            pages = {}
            snap = self.snapshots.get(repo)
            for p in snap.paths if snap is not None else ():
                key = p.lower()
                pages[key] = None if key in pages else p  # two such files: neither
            self._pages_by_lower[repo] = pages
        return pages.get(path.lower())

    def followed_link(self, repo: str, path: str) -> str | None:
        """A file's path, or a symlink's target's within the repo (None where it leads
        out of it or nowhere): read from git on need."""
        if self.unread_reason(repo, path) != "symlink":
            return path
        snap, spec = self.snapshots.get(repo), self.repos.get(repo)
        oid = snap.oids.get(path) if snap is not None else None
        if oid is None or spec is None:
            return None
        try:
            [(_, data)] = list(self._blobs(spec.path, [oid]))
        except GitError:
            return None
        if not data:
            return None
        target = posixpath.normpath(posixpath.join(posixpath.dirname(path), data.decode("utf-8", "replace")))
        return target if not target.startswith("../") and self.has_file(repo, target) else None

    def vendored_project(self, repo: str, path: str) -> bool:
        """Whether a file lies in another project's copy: a folder that holds its own
        licence and is named as a copy (`vendor/...`, or with a version:
        consul-k8s's `gateway-api-0.7.1-custom/`). A site's versioned docs
        (`v1.18-docs/`, `version-7.2/`) hold no licence: they are the repo's own."""
        parts = path.split("/")[:-1]
        for i in range(len(parts), 0, -1):
            folder = "/".join(parts[:i])
            if (copied_path(folder + "/") or _VERSIONED_NAME.search(parts[i - 1])) and any(
                    self.has_file(repo, f"{folder}/{name}") for name in _LICENCES):
                return True
        return False

    def generated(self, repo: str, path: str) -> bool:
        """Whether a tool wrote this file, as its text says near its top (happy's
        generated parsers, which copy its template's Notes): read on first need."""
        found = self._generated_files.get((repo, path))
        if found is None:
            text = self.text(repo, path)
            found = self._generated_files[(repo, path)] = text is not None and generated_text(text)
        return found

    def text(self, repo: str, path: str) -> str | None:
        """A file's text, read from git (a second, small read, for the few files a
        resolution needs more of)."""
        return self.texts(repo, [path]).get(path)

    def texts(self, repo: str, paths: list[str]) -> dict[str, str]:
        """Several files' texts, read from git in one pass (those it can read)."""
        snap, spec = self.snapshots.get(repo), self.repos.get(repo)
        if snap is None or spec is None:
            return {}
        oids: dict[str, list[str]] = defaultdict(list)
        for path in paths:
            oid = snap.oids.get(path)
            if oid is not None and self.unread_reason(repo, path) is None:
                oids[oid].append(path)
        found: dict[str, str] = {}
        if not oids:
            return found
        try:
            for oid, data in self._blobs(spec.path, list(oids)):
                text = decode_blob(data)[0] if data is not None else None
                if text is not None:
                    found.update((path, text) for path in oids[oid])
        except GitError:
            return found
        return found

    def _blobs(self, path: Path, oids: list[str]) -> Iterator[tuple[str, bytes | None]]:
        """Blobs of one repo through its kept reader (_reader): every read the index
        makes of a repo shares one `git cat-file` (the .gitignore files and symlinks
        read once each started one of their own). A reader that failed, or was left
        with part of its answer unread, is closed and never reused."""
        if not oids:
            return
        try:
            yield from zip(oids, self._reader(path).stream(oids), strict=True)
        except BaseException:
            self._drop_reader(path)
            raise

    def _reader(self, path: Path) -> BlobReader:
        """One `git cat-file --batch` per repo for the index's life, for texts(): each
        page a fragment was not found on is read on its own (m4_anchors, builds_anchors),
        and a process started for each took 0.42 s of kubernetes/community's Markdown
        check (105 pages). Closed when the index goes."""
        reader = self._readers.get(path)
        if reader is None:
            reader = self._readers[path] = BlobReader(GitRepo(path).git_dir)
        return reader

    def _drop_reader(self, path: Path) -> None:
        reader = self._readers.pop(path, None)
        if reader is not None:
            reader.close()

    def has_file(self, repo: str, path: str) -> bool:
        snap = self.snapshots.get(repo)
        return snap is not None and (path in snap.paths or path.rstrip("/") in self.dirs(repo))


class _FilesByName:
    """One snapshot's paths by base name, for path references (which match the files
    they are a suffix of). A table of every path costs GHC's 25k paths ~20 ms, a fifth
    of a merge-order run that asks about ~20 names; so the first questions are answered
    by `str.find` in all the paths joined into one text (~0.1 ms each; from the
    snapshot cache that text comes as it is stored, LazyPaths), and the table is built
    only for a repo asked more often (a check asks hundreds). The paths are joined by
    NUL, which no git path holds."""

    _SEARCHES = 32

    def __init__(self, paths: AbstractSet[str]) -> None:
        self._paths = paths
        self._joined: str | None = None
        self._table: dict[str, list[str]] | None = None
        self._found: dict[str, list[str]] = {}  # by base name, what _search found
        self._asked = 0  # different names searched

    def named(self, base: str) -> Sequence[str]:
        """The paths whose base name is `base`."""
        if self._table is None:
            # A name asked again is answered from what the search found: references
            # repeat names (the bench's PR cites one file 20 times: 160 searches of
            # every repo's joined paths, 21 ms, for 8 different questions).
            found = self._found.get(base)
            if found is not None:
                return found
            self._asked += 1
            if self._asked <= self._SEARCHES:
                found = self._found[base] = self._search(base)
                return found
            table: dict[str, list[str]] = defaultdict(list)
            for path in self._paths:
                table[path.rpartition("/")[2]].append(path)
            self._table = table
        return self._table.get(base, ())

    def _search(self, base: str) -> list[str]:
        if self._joined is None:
            paths = self._paths
            inner = paths.nul_joined if isinstance(paths, LazyPaths) else "\0".join(paths)
            self._joined = f"\0{inner}\0"
        text = self._joined
        if not base or "\0" in base:
            return []  # no path ends with a slash or holds a NUL
        out = []
        needle = base + "\0"
        i = text.find(needle, 1)
        while i >= 0:
            if text[i - 1] in "/\0":  # the whole base name, not the end of a longer one
                out.append(text[text.rfind("\0", 0, i) + 1:i + len(base)])
            i = text.find(needle, i + 1)
        return out
