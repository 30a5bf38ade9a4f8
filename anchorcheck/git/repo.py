"""The git edge: opening repositories, resolving refs, listing trees, streaming blobs.

Files are read from git objects, never from a checkout, so any ref (a PR head that
is not checked out, a bare mirror) can be checked. Arguments go to git as a list,
never through a shell, and every ref is checked before use.
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import tempfile
from collections.abc import Collection, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TypeAlias

from anchorcheck.errors import GitError
from anchorcheck.git.blobtext import decode_blob
from anchorcheck.git.output import (
    PATH_ERRORS,
    BlameLine,
    Hunk,
    TreeEntry,
    blame_records,
    config_value,
    grep_records,
    listed_paths,
    parse_hunks,
    parse_tree,
)
from anchorcheck.git.process import Background, BlobReader, git_command, git_env
from anchorcheck.git.refs import common_dir, read_ref

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


# `git blame`'s options: its output for a program, and no revisions ignored. GitHub's
# docs have users set blame.ignoreRevsFile to `.git-blame-ignore-revs` globally; git
# reads that path from the directory it runs in, and where no such file is there it
# refuses every blame ("could not open object name list"), which left a check without
# any line history (AC201, AC205); where one is, the lines its commits touched were
# given to others. The option empties the list before any file of it is read.
_BLAME = ("--porcelain", "--no-ignore-revs-file")


def work_tree_top(cwd: Path) -> Path | None:
    """The top of the work tree `cwd` is in (`git rev-parse --show-toplevel`), or None
    outside one."""
    done = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=cwd, capture_output=True, text=True,
                          check=False)
    return Path(done.stdout.strip()) if done.returncode == 0 else None


def find_git_dir(path: Path) -> Path:
    """The git directory of the work tree or bare repository at `path` (not a parent)."""
    dotgit = path / ".git"
    if dotgit.is_dir():
        return dotgit
    if dotgit.is_file():  # a linked work tree or a submodule: "gitdir: <path>"
        try:
            text = dotgit.read_text(encoding="utf-8", errors="replace").strip()
        except OSError as exc:
            raise GitError(f"{path}: cannot read .git: {exc.strerror}") from None
        if text.startswith("gitdir:"):
            target = path / text.removeprefix("gitdir:").strip()
            if target.is_dir():
                return target
        raise GitError(f"{path}: .git does not point to a git directory")
    if (path / "objects").is_dir() and (path / "HEAD").is_file() and (path / "refs").is_dir():
        return path
    raise GitError(f"{path}: not a git repository")


# Files over the size limit, by (git directory, commit), as the crawl's listing saw
# them: every `git grep` at that commit leaves them out, since grep reads a blob whole
# whatever its size (a 2 GB blob cost 2 GB in each git process). And the limit itself,
# which `git log -p` is given as core.bigFileThreshold: a blob over it is diffed as
# binary, by its size alone, never read.
_OVERSIZED: dict[tuple[str, str], frozenset[str]] = {}
_SIZE_LIMIT: list[int] = []


def note_oversized(git_dir: str, commit: str, paths: Iterable[str], limit: int) -> None:
    """Tell every search at `commit` in `git_dir` to leave these paths out, and every
    history read to diff nothing over `limit` bytes."""
    found = frozenset(paths)
    if found:
        _OVERSIZED[(git_dir, commit)] = _OVERSIZED.get((git_dir, commit), frozenset()) | found
    _SIZE_LIMIT[:] = [limit]


# GitRepo.changed_between's answers, by (git dir, base, commit, pathspecs, limit).
_CHANGED: dict[tuple[str, str, str, tuple[str, ...], int], list[str] | None] = {}


def printed_as_is(path: str) -> bool:
    """Whether `git grep -n` prints this path as it is: printable ASCII without the
    quote and backslash git quotes, and without the `:` the output is split at. (With
    core.quotePath pinned off (_PINNED), a printable name outside ASCII is printed as it
    is too; such names still count as not, which only costs a moved repo a search of
    every file.)"""
    return path.isascii() and path.isprintable() and not any(c in path for c in '"\\:')


def _left_out(git_dir: str, commit: str) -> list[str]:
    return [f":(exclude,literal){p}" for p in sorted(_OVERSIZED.get((git_dir, commit), ()))]


# Strings one `git grep -F` is given at most (grep_fixed).
_GREP_STRINGS = 200


class GitRepo:
    """One local repository (work tree or bare), addressed by its git directory."""

    def __init__(self, path: Path) -> None:
        if not path.exists():
            raise GitError(f"{path}: no such directory")
        self.path = path
        # The git directory is found here and passed to every git command explicitly:
        # that works for work trees, bare repos and mirrors without a `config` file, and
        # is not refused as "dubious ownership" when the checkout belongs to another
        # user (CI containers), which git's own discovery would be.
        self.git_dir = str(find_git_dir(path).resolve())
        self.blobs_read = 0  # every blob this object has streamed, for cost accounting

    def _git(self, *args: str, input_text: str | None = None) -> str:
        return self._git_bytes(*args, input_bytes=None if input_text is None else input_text.encode()
                               ).decode(errors=PATH_ERRORS)

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

    def _run(self, env: dict[str, str], *args: str, cwd: Path | None = None) -> str:
        return self._git_bytes(*args, env=env, cwd=cwd).decode(errors=PATH_ERRORS)

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
        (resolve.origin_slug), and a process each cost a PR run ~4 ms a repo. An
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

    def _git_bytes(self, *args: str, input_bytes: bytes | None = None, env: dict[str, str] | None = None,
                   cwd: Path | None = None) -> bytes:
        try:
            done = subprocess.run(git_command(self.git_dir, *args), input=input_bytes,
                                  capture_output=True, check=False, env=git_env(env), cwd=cwd,
                                  stdin=subprocess.DEVNULL if input_bytes is None else None)
        except OSError as exc:
            raise GitError(f"cannot run git: {exc}") from exc
        if done.returncode != 0:
            detail = done.stderr.decode(errors="replace").strip().splitlines()
            command = next(a for a in args if not a.startswith("-"))
            raise GitError(f"{self.path}: git {command} failed: {detail[-1] if detail else '?'}")
        return done.stdout

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

    def start_grep_words(self, words: Sequence[str], commit: str, paths: Sequence[str] = ()) -> WordSearch:
        """Start finding every line at `commit` (in files matching the pathspecs
        `paths`, or all) holding one of `words` as a whole word; `result()` gives them
        as (path, line, text). Callers match the exact shape they want on these lines
        in Python: a plain alternation of names is what git searches fastest (PCRE;
        POSIX where git lacks it), and `-F -w` with many words is pathologically slow in
        git. Started in the background: the searches of several repos run at once."""
        return WordSearch(self, words, commit, paths)

    def grep_parts(
        self, perl: str, posix: tuple[str, ...], commit: str, paths: Sequence[str] = ()
    ) -> str:
        """Every line at `commit` (in files matching the pathspecs `paths`, or all),
        without its file name (`git grep -h`), that matches the PCRE `perl`, or where
        git lacks PCRE one of the extended regexes `posix`."""
        found = self._grep(("-h",), "-P", perl, commit, paths)
        if found is not None:
            return found
        return "".join(self._grep(("-h",), "-E", p, commit, paths) or "" for p in posix)

    def _start_grep(
        self, flags: tuple[str, ...], syntax: str, pattern: str, commit: str, paths: Sequence[str],
        threads: int = 0,
    ) -> Background:
        """`threads`: git's grep threads (0: git's default, one per core)."""
        config = ["-c", f"grep.threads={threads}"] if threads else []
        skip = _left_out(self.git_dir, commit)
        return Background(git_command(self.git_dir, *config, "grep", *flags, "-I", syntax, "-e", pattern,
                                      commit, "--", *(paths or ((":/",) if skip else ())), *skip),
                          ok=(0, 1))  # 1: nothing found

    def _grep(
        self, flags: tuple[str, ...], syntax: str, pattern: str, commit: str, paths: Sequence[str]
    ) -> str | None:
        """`git grep` output for one pattern; None when git cannot run it (no PCRE)."""
        out = self._start_grep(flags, syntax, pattern, commit, paths).output()
        return None if out is None else out.decode(errors=PATH_ERRORS)

    def grep_files(self, fixed: str, commit: str, ignore_case: bool = False) -> set[str]:
        """Paths at `commit` whose content holds the string `fixed` (binary files too)."""
        case = ["-i"] if ignore_case else []
        skip = _left_out(self.git_dir, commit)
        done = subprocess.run(
            git_command(self.git_dir, "grep", "-l", "-z", *case, "-F", "-e", fixed, commit, "--",
                        *((":/", *skip) if skip else ())),
            capture_output=True, check=False, env=git_env(),
        )
        return listed_paths(done.stdout, commit)

    def grep_fixed(self, strings: Sequence[str], commit: str, paths: Sequence[str]) -> set[str]:
        """Paths at `commit` (among the pathspecs `paths`) holding one of `strings`, as
        written; text files only."""
        if not strings or not paths:
            return set()
        skip = _left_out(self.git_dir, commit)
        found: set[str] = set()
        # A few hundred strings a command, so that no command line nears the system's
        # limit however many a workspace's documents cite; all started at once.
        searches = [Background(git_command(self.git_dir, "grep", "-l", "-z", "-I", "-F",
                                           *(arg for s in strings[i:i + _GREP_STRINGS] for arg in ("-e", s)),
                                           commit, "--", *paths, *skip), ok=(0, 1))
                    for i in range(0, len(strings), _GREP_STRINGS)]
        for search in searches:
            out = search.output()
            if out is None:
                for other in searches:
                    other.cancel()
                raise GitError(f"git grep failed in {self.git_dir}")
            found |= listed_paths(out, commit)
        return found

    def start_commit_list(self, commit: str, depth: int) -> Background:
        """The list history_commits reads, started: the last `depth` commits of
        `commit`'s history, each with its parents."""
        return Background(git_command(self.git_dir, "rev-list", "--parents", f"--max-count={depth}", commit))

    def history_commits(self, commit: str, depth: int, listed: Background | None = None) -> list[str]:
        """The commits whose diffs AC203 reads, newest first: the last `depth` of
        `commit`'s history (from the list `listed` earlier, if given), but the roots
        (a root only adds lines, and its diff is the whole tree: a repo of one commit
        would be printed entire) and, when the history is longer, the oldest listed
        (the boundary of the span `oldest..commit` this was read as before)."""
        out = (listed or self.start_commit_list(commit, depth)).output()
        if out is None:  # failed: asked again in the foreground, for git's message
            out = self._git_bytes("rev-list", "--parents", f"--max-count={depth}", commit)
        revs = [line.split() for line in out.decode().splitlines()]
        if len(revs) >= depth:
            revs = revs[:-1]
        return [rev[0] for rev in revs if len(rev) > 1]  # each with its parents: a root has none

    def start_note_titles(self, commit: str, skip: Sequence[str]) -> Background:
        """Start, in the background, `git grep` for the lines holding `Note [` in the
        text files at `commit` outside the pathspecs `skip` (the files anchorcheck
        reads, which the crawl scans itself), each with the line after it:
        `PATH NUL LINE NUL TEXT` lines, the groups separated by `--` lines (-z).
        One thread: it runs beside the crawl's workers."""
        excluded = [*(f":(exclude){spec}" for spec in skip), *_left_out(self.git_dir, commit)]
        return Background(git_command(self.git_dir, "-c", "grep.threads=1", "grep", "-n", "-z", "-A1", "-I",
                                      "-F", "-e", "Note [", commit, "--", *excluded),
                          ok=(0, 1))  # 1: nothing found

    def start_commits_log(self, shas: Sequence[str]) -> Background | None:
        """Start, in the background, the `git log -p -U0` that history.commit_events reads: the
        diffs of exactly these commits (given on its standard input, any number), in
        this order, each headed by a NUL, its sha and its subject. None for no commit.
        (No `-G`: git then diffs every file pair twice, once to test the pattern and
        once to print it, 47% more instructions for GHC's 250 commits than printing all
        of them and filtering here.)"""
        if not shas:
            return None
        # The diff's shape is fixed here, whatever the user's config says: prefixes
        # (diff.noprefix dropped the `b/` the parser splits paths at), no external
        # diff or signatures, git's default algorithm (diff.algorithm=histogram pairs
        # lines otherwise: a definition shown removed and added again is no removal,
        # so the removal table, and AC203's findings, followed each user's config).
        # No indent heuristic: it only slides a hunk along lines
        # equal to its ends, so the lines removed and added are the same (GHC's 250
        # commits: the same removal table), and git skips ~8% of the log's CPU.
        limit = ["-c", f"core.bigFileThreshold={_SIZE_LIMIT[0]}"] if _SIZE_LIMIT else []
        return Background(git_command(
            self.git_dir, *limit, "log", "-p", "-U0", "--no-color", "--diff-algorithm=myers", "--no-renames",
            "--no-ext-diff", "--no-textconv", "--no-show-signature", "--src-prefix=a/", "--dst-prefix=b/",
            "--no-indent-heuristic", "--format=%x00%H %s", "--no-walk=unsorted", "--stdin", "--",
        ), stdin="".join(f"{sha}\n" for sha in shas).encode())

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

    # -- lines through history (resolve/linehistory.py) ------------------------------

    def line_origins(self, commit: str, path: str, lines: Sequence[int], since: str | None = None,
                     first_parent: bool = False) -> dict[int, BlameLine]:
        """For each of these lines of `path` at `commit`, the commit that wrote it, as
        `git blame` says (one process for all of them). With `since`, history before it
        is not walked: lines older than it come back with `boundary` set. With
        `first_parent`, the commit of `commit`'s first-parent line that brought it in:
        for a line written on a branch, the merge of that branch."""
        wanted = sorted(set(lines))
        if not wanted:
            return {}
        ranges = [arg for n in wanted for arg in ("-L", f"{n},{n}")]
        rev = f"{since}..{commit}" if since else commit
        try:
            out = self._git("blame", *_BLAME, "--root", *(["--first-parent"] if first_parent else []),
                            *ranges, rev, "--", path)
        except GitError:
            return {}  # the path is not there, a line is past its end: nothing to follow
        return {final: line for line, final in blame_records(out)}

    def lines_since(self, old: str, new: str, path: str, first: int, last: int) -> list[BlameLine]:
        """Lines `first`..`last` of `path` at `old`, followed forward to `new` along its
        first-parent line (`git blame --reverse --first-parent`; `old` is on that line:
        a merge is one step, seen from the branch merged into): each comes back with the
        last commit in which it still stood, its line number there, and (`changed_by`)
        the commit that then changed or removed it.
        A line that is still there has `commit` == `new`, and `line` is where it is now."""
        try:
            out = self._git("blame", *_BLAME, "--reverse", "--first-parent", "-L", f"{first},{last}",
                            f"{old}..{new}", "--", path)
        except GitError:
            return []
        return [line for line, _ in blame_records(out)]

    def first_holding(self, seen: str, now: str, path: str, last: int, limit: int = 100) -> str | None:
        """`seen` if its `path` has line `last`; else the first commit after it on `now`'s
        first-parent line (of those that change `path`, up to `limit`) whose `path` has
        it. A commit picked by date can be one the author did not see: commit dates are
        not monotonic (a rebased or imported stretch keeps later dates than the commits
        built on it), and lines the file did not have yet were not what they cited.
        None when no commit up to `now` has that line."""
        if self._line_count(seen, path) >= last:
            return seen
        try:
            later = self._git("rev-list", "--first-parent", "--reverse", f"{seen}..{now}", "--", path).split()
        except GitError:
            return None
        return next((c for c in later[:limit] if self._line_count(c, path) >= last), None)

    def _line_count(self, commit: str, path: str) -> int:
        try:
            text = self._git("cat-file", "blob", f"{commit}:{path}")
        except GitError:
            return 0
        return text.count("\n") + (1 if text and not text.endswith("\n") else 0)

    def commit_before(self, commit: str, timestamp: int) -> str | None:
        """The newest commit on `commit`'s first-parent line made at or before `timestamp`
        (none before 1970: a work tree's made-up commit has that time)."""
        if timestamp <= 0:
            return None
        try:
            out = self._git("rev-list", "-1", "--first-parent", f"--before=@{timestamp}", commit, "--")
        except GitError:
            return None
        return out.strip() or None

    def subject(self, commit: str) -> str:
        """A commit's subject line ("" when there is no such commit)."""
        try:
            return self._git("log", "-1", "--format=%s", commit, "--").strip()
        except GitError:
            return ""

    def commits_between(self, old: str, new: str) -> int:
        """How many commits `new` has that `old` has not."""
        try:
            return int(self._git("rev-list", "--count", f"{old}..{new}", "--").strip() or 0)
        except (GitError, ValueError):
            return 0

    def ancestor(self, commit: str, back: int) -> str | None:
        """The commit `back` first parents behind `commit`, or None when history is shorter
        (git walks those `back` commits only)."""
        try:
            out = self._git("rev-list", "--first-parent", f"--skip={back}", "--max-count=1", commit, "--")
        except GitError:
            return None
        return out.strip() or None

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


class WordSearch:
    """GitRepo.start_grep_words's search, running in the background: `result()` waits
    for it."""

    _CHUNK = 300  # words per search: git's regex grows with every alternative

    def __init__(self, git: GitRepo, words: Sequence[str], commit: str, paths: Sequence[str]) -> None:
        self._git, self._commit, self._paths = git, commit, paths
        self._started: list[tuple[Sequence[str], Background]] = []
        try:
            for i in range(0, len(words), self._CHUNK):
                chunk = words[i:i + self._CHUNK]
                # A name's neighbours are neither word characters nor `$` (JavaScript's
                # `$el`; `\b` would need a word character before its `$`).
                names = "|".join(re.escape(w) for w in chunk)
                self._started.append((chunk, git._start_grep(
                    ("-n",), "-P", rf"(?<![\w$])(?:{names})(?![\w$])", commit, paths, threads=1)))
        except BaseException:
            self.cancel()
            raise

    def result(self) -> list[tuple[str, int, str]]:
        out: list[tuple[str, int, str]] = []
        for chunk, search in self._started:
            found = search.output()
            if found is None:  # git built without PCRE
                names = "|".join(re.escape(w) for w in chunk)
                text = self._git._grep(("-n",), "-E", rf"(^|[^A-Za-z0-9_$])({names})([^A-Za-z0-9_$]|$)",
                                       self._commit, self._paths) or ""
            else:
                text = found.decode(errors=PATH_ERRORS)
            out.extend(grep_records(text, self._commit))
        return out

    def cancel(self) -> None:
        for _, search in self._started:
            search.cancel()


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


