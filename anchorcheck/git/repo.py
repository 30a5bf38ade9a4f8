"""The git edge: opening repositories, resolving refs, listing trees, streaming blobs.

Files are read from git objects, never from a checkout, so any ref (a PR head that
is not checked out, a bare mirror) can be checked. Arguments go to git as a list,
never through a shell, and every ref is checked before use.

GitRepo holds the commands: here those of refs, the work tree's commit, trees and
blobs, and two commits compared (a PR's base and head); its searches (search.py) and
its reads of history (history.py) are mixins it inherits, each a concern of its own,
over GitDir (gitdir.py), which opens the repository and runs git. NameSearch, one
search per repo for several askers, is here beside it.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import tempfile
from collections.abc import Collection, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TypeAlias

from anchorcheck.errors import GitError
from anchorcheck.git.blobtext import decode_blob
from anchorcheck.git.history import HistoryCommands
from anchorcheck.git.output import PATH_ERRORS, Hunk, TreeEntry, config_value, parse_hunks, parse_tree
from anchorcheck.git.process import Background, BlobReader, git_command, git_env
from anchorcheck.git.refs import common_dir, read_ref
from anchorcheck.git.search import SearchCommands, WordSearch

# More paths than this are read out of the whole tree's listing (list_paths): a
# command line has a length limit (32k characters on Windows).
_PATHS_ASKED_MAX = 200


def check_ref(ref: str) -> str:
    if not ref or ref.startswith("-") or any(ch in ref for ch in "\0\n\r"):
        raise GitError(f"invalid ref {ref!r}: a ref may not be empty or start with '-'")
    return ref


# A started resolve (GitRepo.start_resolve): the commit, read from the ref files, or
# git's process, to be finished (finish_resolve) or abandoned (abandon_resolve).
StartedResolve: TypeAlias = "Background | str"


def abandon_resolve(started: StartedResolve) -> None:
    """End a started resolve that will not be finished (an error left it); a no-op for
    one finished already."""
    if not isinstance(started, str):
        started.cancel()


def work_tree_top(cwd: Path) -> Path | None:
    """The top of the work tree `cwd` is in (`git rev-parse --show-toplevel`), or None
    outside one."""
    done = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=cwd, capture_output=True, text=True,
                          check=False)
    return Path(done.stdout.strip()) if done.returncode == 0 else None


# GitRepo.changed_between's answers, by (git dir, base, commit, pathspecs, limit).
_CHANGED: dict[tuple[str, str, str, tuple[str, ...], int], list[str] | None] = {}


def printed_as_is(path: str) -> bool:
    """Whether `git grep -n` prints this path as it is: printable ASCII without the
    quote and backslash git quotes, and without the `:` the output is split at. (With
    core.quotePath pinned off (_PINNED), a printable name outside ASCII is printed as it
    is too; such names still count as not, which only costs a moved repo a search of
    every file.)"""
    return path.isascii() and path.isprintable() and not any(c in path for c in '"\\:')


class GitRepo(SearchCommands, HistoryCommands):
    """One local repository (work tree or bare), addressed by its git directory."""

    def resolve(self, ref: str) -> str:
        """The commit id `ref` names (branch, tag, sha, refs/pull/N/head...)."""
        return self.finish_resolve(ref, self.start_resolve(ref))

    def start_resolve(self, ref: str) -> StartedResolve:
        """resolve's `git rev-parse`, started: a run resolves every repo's ref at once
        (eight repos: ~40 ms one after the other, where a warm run takes 0.5 s). A
        branch is read from the ref files instead (refs.read_ref): its commit, found."""
        check_ref(ref)
        found = read_ref(Path(self.git_dir), ref)
        if found is not None:
            return found
        return Background(git_command(self.git_dir, "rev-parse", "--verify", "--quiet",
                                      "--end-of-options", f"{ref}^{{commit}}"))

    def finish_resolve(self, ref: str, started: StartedResolve) -> str:
        """The commit a started resolve found, or why there is none."""
        if isinstance(started, str):
            return started
        out = started.output()
        commit = out.decode(errors="replace").strip() if out is not None else ""
        if commit:
            return commit
        if not self._git("for-each-ref", "--count=1").strip() and not self._has_head():
            raise GitError(f"{self.path}: the repository has no commits yet")
        raise GitError(f"{self.path}: unknown ref {ref!r}")

    def worktree_commit(self, work_tree: Path, staged: bool = False) -> str:
        """A commit of the files as they are on disk (tracked ones as modified, and the
        untracked ones git would add), or with `staged` of the index: what a commit
        would record. HEAD itself when they are HEAD's files. Made as git stash does
        (objects only: no ref, no branch, the index untouched: a copy of it is used), with
        a fixed author and date, so the same files give the same commit and the caches
        keyed by commit still answer."""
        head = self.resolve("HEAD")
        env = {**os.environ, "GIT_AUTHOR_NAME": "anchorcheck", "GIT_AUTHOR_EMAIL": "anchorcheck@localhost",
               "GIT_COMMITTER_NAME": "anchorcheck", "GIT_COMMITTER_EMAIL": "anchorcheck@localhost",
               "GIT_AUTHOR_DATE": "1970-01-01T00:00:00Z", "GIT_COMMITTER_DATE": "1970-01-01T00:00:00Z"}
        own = self._own_index()
        if own is None:
            env.pop("GIT_INDEX_FILE", None)
        else:
            env["GIT_INDEX_FILE"] = own
        with tempfile.TemporaryDirectory(prefix="anchorcheck-index-") as tmp:
            if not staged:
                index = Path(tmp) / "index"
                with contextlib.suppress(FileNotFoundError):
                    index.write_bytes((Path(self.git_dir) / "index").read_bytes())  # its stat cache: fast
                env["GIT_INDEX_FILE"] = str(index)
                self._run(env, f"--work-tree={work_tree}", "add", "--all", "--", ".", cwd=work_tree)
            tree = self._run(env, "write-tree").strip()
        if tree == self._git("rev-parse", "--verify", "--quiet", f"{head}^{{tree}}").strip():
            return head
        return self._run(env, "commit-tree", tree, "-p", head, "-m", "anchorcheck: the work tree").strip()

    def _own_index(self) -> str | None:
        """The index file GIT_INDEX_FILE names, when it is this repository's: git sets it
        for its hooks (the index a commit is about to record: `.git/index`, relative to
        the work tree the hook runs in, or `index.lock` for `commit -a`). None when it is
        not set, or is another repository's: run from one repo's pre-commit hook, a
        check of its neighbours' staged files read that repo's index as theirs (every
        neighbour checked as the hooked repo's files)."""
        named = os.environ.get("GIT_INDEX_FILE")
        if not named:
            return None
        index = Path(os.path.abspath(named))
        with contextlib.suppress(OSError):
            if index.resolve().parent == Path(self.git_dir).resolve():
                return str(index)
        return None
    def is_work_tree(self) -> bool:
        """Whether the repository has a work tree at its path (not a bare one)."""
        return (self.path / ".git").exists()

    def try_resolve(self, ref: str) -> str | None:
        """The commit `ref` names, or None when it names none here."""
        try:
            return self.resolve(ref)
        except GitError:
            return None

    def fetch(self, remote: str, refspecs: Sequence[str]) -> None:
        """`git fetch REMOTE REFSPEC...`, quietly, no tags, into refs the refspecs name
        (anchorcheck's own namespace: the user's branches are never created or moved).
        The credentials are git's (a CI checkout's), never passed here."""
        if not refspecs:
            return
        if remote.startswith("-") or not remote:
            raise GitError(f"invalid remote {remote!r}")
        self._git_bytes("fetch", "--quiet", "--no-tags", "--no-write-fetch-head", "--end-of-options", remote,
                        *refspecs, env={**os.environ, "GIT_TERMINAL_PROMPT": "0"})

    def remote_url(self, remote: str = "origin") -> str | None:
        """The URL of `remote` as the repository's own config file gives it, or None.
        Read from the file, not asked of `git config`: a check may want every repo's
        (config.workspace.hosted_slug), and a process each cost a PR run ~4 ms a repo. An
        `[include]`d file or a remote set in the user's config is not seen: then the
        repo is matched by name, as with no remote."""
        try:
            text = (common_dir(Path(self.git_dir)) / "config").read_text(encoding="utf-8", errors="replace")
        except OSError:
            return None
        return config_value(text, f'remote "{remote}"', "url")

    def _has_head(self) -> bool:
        try:
            self._git("rev-parse", "--verify", "--quiet", "HEAD")
            return True
        except GitError:
            return False

    def merge_base(self, a: str, b: str) -> str | None:
        try:
            out = self._git("merge-base", "--end-of-options", a, b).strip()
        except GitError:
            return None
        return out or None

    def list_tree(self, commit: str, started: Background | None = None) -> list[TreeEntry]:
        """Every entry of the tree (from the listing `started` earlier, if given)."""
        out = started.output() if started is not None else None
        if out is None:  # not started, or it failed: again, for git's own error message
            out = self._git_bytes("ls-tree", "-r", "-l", "-z", "--full-tree", commit)
        return parse_tree(out.decode(errors=PATH_ERRORS))

    def list_paths(self, commit: str, paths: Collection[str]) -> list[TreeEntry]:
        """The entries of these file paths in the tree (none for a path absent there):
        a PR's changed files, asked of git by name (literally: `*` or `:` in a name
        is no pattern), not read out of the whole tree's listing (GHC's: 25k entries,
        ~60 ms, for ten files). Many paths: the whole listing, filtered."""
        wanted = set(paths)
        if not wanted:
            return []
        if len(wanted) > _PATHS_ASKED_MAX:
            return [e for e in self.list_tree(commit) if e.path in wanted]
        out = self._git_bytes("--literal-pathspecs", "ls-tree", "-r", "-l", "-z", "--full-tree", commit,
                              "--", *sorted(wanted))
        return [e for e in parse_tree(out.decode(errors=PATH_ERRORS)) if e.path in wanted]

    def start_list_tree(self, commit: str) -> Background:
        """list_tree's listing, started in the background (a crawl lists every repo's
        tree at once, while it reads the previous listings)."""
        return Background(git_command(self.git_dir, "ls-tree", "-r", "-l", "-z", "--full-tree", commit))

    def hash_file(self, path: Path) -> str:
        """The blob id git would give this file (with this repo's filters)."""
        return self._git("hash-object", "--", str(path)).strip()

    def tree_entry(self, commit: str, path: str) -> TreeEntry | None:
        found = self.list_paths(commit, (path,))
        return found[0] if found else None

    def text_at(self, commit: str, path: str) -> str | None:
        """A file's text at a commit (None when it is not there, or is no text)."""
        entry = self.tree_entry(commit, path)
        if entry is None or entry.kind != "blob":
            return None
        for _, data in self.read_blobs([entry.oid]):
            return decode_blob(data)[0] if data is not None else None
        return None

    def merge_conflicts(self, a: str, b: str) -> tuple[str, ...]:
        """Files that conflict when merging commits a and b (`git merge-tree`, no
        checkout, nothing written but loose objects)."""
        try:
            done = subprocess.run(
                git_command(self.git_dir, "merge-tree", "--write-tree", "--name-only", "--no-messages", "-z",
                            a, b),
                capture_output=True, check=False, env=git_env(),
            )
        except OSError as exc:
            raise GitError(f"cannot run git: {exc}") from exc
        if done.returncode == 0:
            return ()
        if done.returncode != 1:
            detail = done.stderr.decode(errors="replace").strip().splitlines()
            raise GitError(f"{self.path}: git merge-tree failed: {detail[-1] if detail else '?'}")
        fields = [f for f in done.stdout.decode(errors=PATH_ERRORS).split("\0") if f]
        return tuple(sorted(set(fields[1:])))

    def diff_hunks(self, base: str, head: str, paths: Sequence[str]) -> dict[str, list[Hunk]]:
        """The hunks of `git diff -U0` between two commits for these paths, as a PR's
        diff shows them: each with its removed and added lines (one git process; git's
        default algorithm, whatever diff.algorithm says, so that every user is told the
        same)."""
        if not paths:
            return {}
        out = self._git_bytes("diff", "-U0", "--no-color",
                              "--diff-algorithm=myers", "--no-renames", "--no-ext-diff", "--no-textconv",
                              "--src-prefix=a/", "--dst-prefix=b/", base, head, "--",
                              *(f":(literal){p}" for p in paths))
        return parse_hunks(out.decode("utf-8", errors="replace"))

    def changed_paths(self, base: str, head: str, paths: Sequence[str] = ()) -> list[str]:
        """The paths (matching the pathspecs `paths`, or all) whose entries differ
        between two commits: added, deleted or changed."""
        out = self._git("diff", "--name-only", "-z", "--no-renames", base, head, "--", *paths)
        return [p for p in out.split("\0") if p]

    def changed_between(self, base: str, commit: str, paths: Sequence[str], limit: int) -> list[str] | None:
        """The paths matching the pathspecs `paths` whose entries differ between two
        commits (added, deleted or changed), sorted, for comparing with the paths `git
        grep` prints; None when git cannot tell (`base` is not in this repo), when there
        are more than `limit`, or when one is a name `git grep` prints otherwise (quoted,
        core.quotePath, or holding the `:` its output is split at). One tree diff, asked
        once per process for each pair."""
        key = (self.git_dir, base, commit, tuple(paths), limit)
        if key not in _CHANGED:
            try:
                found = sorted(self.changed_paths(base, commit, paths))
            except GitError:
                _CHANGED[key] = None
            else:
                _CHANGED[key] = found if len(found) <= limit and all(map(printed_as_is, found)) else None
        return _CHANGED[key]
    def read_blobs(self, oids: Iterable[str]) -> Iterator[tuple[str, bytes | None]]:
        """Each blob, streamed through one `git cat-file --batch`; one git cannot read
        (missing from a partial clone) comes back as None."""
        wanted = list(oids)
        if not wanted:
            return
        reader = BlobReader(self.git_dir)
        try:
            for oid, data in zip(wanted, reader.stream(wanted), strict=True):
                if data is not None:
                    self.blobs_read += 1
                yield oid, data
        finally:
            reader.close()


class NameSearch:
    """The lines naming any of a set of names, per repo (GitRepo.start_grep_words), for
    several askers at once: AC202 (where a missing symbol is defined) and AC203 (which
    candidates are still defined) each needed a `git grep` of every repo, two passes
    over every blob; their names are gathered first (`want`), then one search per repo
    runs in the background (`start`) while resolving and verifying go on."""

    def __init__(self, paths: Sequence[str] = ()) -> None:
        self._paths = paths  # pathspecs of the files searched (all, when empty)
        self._wanted: dict[str, tuple[GitRepo, str, set[str]]] = {}
        self._searches: dict[str, WordSearch] = {}
        self._found: dict[str, list[tuple[str, int, str]]] = {}

    def want(self, repo: str, git: GitRepo, commit: str, names: Iterable[str]) -> None:
        """Ask for these names in `repo` at `commit` (before start)."""
        entry = self._wanted.setdefault(repo, (git, commit, set()))
        entry[2].update(names)

    def searches(self, repo: str) -> bool:
        """Whether `repo` will be searched (some name is wanted there)."""
        entry = self._wanted.get(repo)
        return entry is not None and bool(entry[2])

    def covers(self, repo: str, names: Iterable[str]) -> bool:
        entry = self._wanted.get(repo)
        return entry is not None and entry[2].issuperset(names)

    def start(self) -> None:
        for repo, (git, commit, names) in self._wanted.items():
            if names and repo not in self._searches:
                self._searches[repo] = git.start_grep_words(sorted(names), commit, self._paths)

    def lines(self, repo: str) -> list[tuple[str, int, str]]:
        """(path, line, text) of every line in `repo` naming a name wanted there."""
        if repo not in self._found:
            self.start()
            search = self._searches.get(repo)
            self._found[repo] = search.result() if search is not None else []
        return self._found[repo]

    def cancel(self) -> None:
        for search in self._searches.values():
            search.cancel()

