"""The git edge: opening repositories, resolving refs, listing trees, streaming blobs.

Files are read from git objects, never from a checkout, so any ref (a PR head that
is not checked out, a bare mirror) can be checked. Arguments go to git as a list,
never through a shell, and every ref is checked before use.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Collection, Container, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, NamedTuple, TypeAlias

from anchorcheck.errors import AnchorcheckError, GitError
from anchorcheck.git.blobtext import decode_blob
from anchorcheck.git.refs import common_dir, read_ref

# git prints paths as the bytes they are. One that is not UTF-8 is read with its odd
# bytes as `\xe9` escapes: unique, printable in every output format and storable in
# the cache, where a strict decode stopped the whole run and surrogates could not be
# printed or stored.
PATH_ERRORS = "backslashreplace"

_MODE_SYMLINK = "120000"
_MODE_SUBMODULE = "160000"


# More paths than this are read out of the whole tree's listing (list_paths): a
# command line has a length limit (32k characters on Windows).
_PATHS_ASKED_MAX = 200


class TreeEntry(NamedTuple):
    """One file of a tree listing. A named tuple, immutable as a frozen dataclass is,
    because every file of every tree is one (the bench workspace: 35k; a frozen
    dataclass sets each field through object.__setattr__: GHC's listing read in 93-109
    ms, 64-66 ms so)."""

    path: str
    mode: str
    kind: str  # "blob" or "commit" (a submodule)
    oid: str
    size: int  # -1 for submodules

    @property
    def is_symlink(self) -> bool:
        return self.mode == _MODE_SYMLINK

    @property
    def is_submodule(self) -> bool:
        return self.mode == _MODE_SUBMODULE or self.kind == "commit"


class BlameLine(NamedTuple):
    """One line of `git blame --porcelain`: the commit it is given to, its line number
    in that commit's file, and (from `--reverse`: the commit after, which changed it)
    `changed_by`."""

    commit: str
    line: int
    time: int  # the commit's committer time (seconds)
    summary: str
    boundary: bool = False
    changed_by: str | None = None


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


# The settings of a user's git config that change what the commands here print, each
# pinned to git's default: a check reads that output, and a laptop, a CI runner and a
# colleague's machine must report the same findings for the same commits. Seen in real
# dotfiles, and each measured to change a finding without its pin
# (tests/git/test_user_config.py):
# - colour forced on (`color.ui=always`): escape codes in grep's paths and lines;
# - grep's line numbers and columns: an extra field in what is split at `:` or NUL, and
#   a number before each line that a definition pattern anchors at its start;
# - another diff algorithm, hunks merged across unchanged lines, hunks slid without the
#   indent heuristic: a PR's line shifts, and `git blame` (which reads
#   diff.algorithm from git 2.53 on) naming other commits;
# - a file order: which file a removal is named in (AC203);
# - subjects re-encoded: commit subjects in messages;
# - paths quoted: git quotes a name outside ASCII by default, in log and grep output
#   parsed by `:` and ` b/`: pinned unquoted, so such files are read by every user, not
#   only by those who set core.quotePath=false (a removal from `café.py` went unseen);
# - merges' rename settings: which files conflict (AC304).
# (blame.ignoreRevsFile is answered on blame's own command line: _BLAME.)
_PINNED: tuple[str, ...] = tuple(arg for setting in (
    "color.ui=never", "color.grep=never", "color.diff=never",
    "grep.lineNumber=false", "grep.column=false", "grep.fullName=false",
    "diff.algorithm=myers", "diff.interHunkContext=0", "diff.indentHeuristic=true",
    f"diff.orderFile={os.devnull}", "i18n.logOutputEncoding=UTF-8", "core.quotePath=false",
    "merge.renames=true", "merge.directoryRenames=conflict",
) for arg in ("-c", setting))


# `git blame`'s options: its output for a program, and no revisions ignored. GitHub's
# docs have users set blame.ignoreRevsFile to `.git-blame-ignore-revs` globally; git
# reads that path from the directory it runs in, and where no such file is there it
# refuses every blame ("could not open object name list"), which left a check without
# any line history (AC201, AC205); where one is, the lines its commits touched were
# given to others. The option empties the list before any file of it is read.
_BLAME = ("--porcelain", "--no-ignore-revs-file")


def git_command(git_dir: str, *args: str) -> list[str]:
    """The command line of `git ARGS` in the repository at `git_dir`, its output's shape
    pinned against the user's config (_PINNED)."""
    return ["git", *_PINNED, f"--git-dir={git_dir}", *args]


# Environment variables that change what git prints whatever its command line says:
# GIT_DIFF_OPTS sets every diff's context lines over `-U0` (`--unified=3` moved the
# hunks a PR's stale comments (AC206) are placed by, and the finding went).
_ENV_DROPPED = ("GIT_DIFF_OPTS",)


def git_env(env: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment git runs in: `env` (or this process's), less _ENV_DROPPED."""
    return {k: v for k, v in (os.environ if env is None else env).items() if k not in _ENV_DROPPED}


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


class ToolError(AnchorcheckError):
    """A program other than git that is missing or failed: one line, exit 2."""


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
        return _config_value(text, f'remote "{remote}"', "url")

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
        return _parse_tree(out.decode(errors=PATH_ERRORS))

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
        return [e for e in _parse_tree(out.decode(errors=PATH_ERRORS)) if e.path in wanted]

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
        return _listed_paths(done.stdout, commit)

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
            found |= _listed_paths(out, commit)
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
        return {final: line for line, final in _blame_records(out)}

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
        return [line for line, _ in _blame_records(out)]

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


class Background:
    """A git command running while this process does other work. Its output goes to
    an unnamed temporary file, not a pipe: no thread has to drain it, and git never
    waits for us to read.

    At most `process_limit()` of them run at once (`[settings] git-processes`): the
    rest wait in a queue and start as others finish, or when their own output is
    asked for. 200 repos once meant ~195 gits and 400 descriptors at once, past
    macOS's default of 256."""

    def __init__(self, args: list[str], ok: Container[int] = (0,), stdin: bytes | None = None) -> None:
        """`stdin`: what git reads, from a file too (it may be large, and nothing here
        writes to git while it runs)."""
        self._ok = ok  # exit codes of success
        self._args, self._stdin = args, stdin
        self._proc: subprocess.Popen[bytes] | None = None
        self._out: IO[bytes] | None = None
        self._done = False
        with _POOL_LOCK:
            if len(_RUNNING) < _LIMIT[0]:
                self._start()
            else:
                _WAITING.append(self)

    def _start(self) -> None:
        """Run it (the pool's lock held, or its own output asked for)."""
        self._out = tempfile.TemporaryFile()  # noqa: SIM115 - lives until output() or cancel()
        try:
            if self._stdin is None:
                self._proc = subprocess.Popen(self._args, stdin=subprocess.DEVNULL, stdout=self._out,
                                              stderr=subprocess.DEVNULL, env=git_env())
            else:
                with tempfile.TemporaryFile() as given:  # git has its own copy once started
                    given.write(self._stdin)
                    given.seek(0)
                    self._proc = subprocess.Popen(self._args, stdin=given, stdout=self._out,
                                                  stderr=subprocess.DEVNULL, env=git_env())
        except OSError as exc:
            self._out.close()
            self._done = True
            raise GitError(f"cannot run git: {exc}") from exc
        self._stdin = None
        _RUNNING.add(self)

    def _wait(self) -> int:
        with _POOL_LOCK:
            if self._proc is None:
                if self in _WAITING:
                    _WAITING.remove(self)
                self._start()
        assert self._proc is not None
        code = self._proc.wait()
        self._finished()
        return code

    def _finished(self) -> None:
        """Give its place to the next waiting command."""
        with _POOL_LOCK:
            _RUNNING.discard(self)
            while _WAITING and len(_RUNNING) < _LIMIT[0]:
                nxt = _WAITING.pop(0)
                try:
                    nxt._start()
                except GitError:
                    continue  # it says so when its output is asked for

    def output(self) -> bytes | None:
        """Everything it printed, once it has finished; None if it failed."""
        if self._done and self._proc is None:
            return None
        code = self._wait()
        assert self._out is not None
        try:
            self._out.seek(0)
            return self._out.read() if code in self._ok else None
        finally:
            self._out.close()
            self._done = True

    def kill(self) -> None:
        """Stop it (its output() then comes soon, as None), without closing anything: a
        thread may be waiting in output()."""
        with _POOL_LOCK:
            if self._proc is None:
                if self in _WAITING:
                    _WAITING.remove(self)
                self._done = True
                self._ok = ()
                return
        if self._proc.poll() is None:
            self._proc.kill()

    def cancel(self) -> None:
        self.kill()
        if self._proc is not None:
            self._proc.wait()
            self._finished()
        if self._out is not None:
            self._out.close()
        self._done = True


# The pool of Background gits: those running, those waiting for a place, and the
# number of places (git_processes; each running git holds two or three descriptors).
_POOL_LOCK = threading.Lock()
_RUNNING: set[Background] = set()
_WAITING: list[Background] = []
_LIMIT = [16]


def set_process_limit(n: int) -> None:
    """At most `n` background gits at once (at least 1)."""
    with _POOL_LOCK:
        _LIMIT[0] = max(1, n)


def process_limit() -> int:
    return _LIMIT[0]


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
            out.extend(_grep_records(text, self._commit))
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


class BlobReader:
    """One long-lived `git cat-file --batch` for reading blobs in batches, where a
    process reads many batches of one repo (an extraction worker keeps one per git
    directory for its whole life). Ids are written a chunk at a time and its answers
    read before the next chunk is written, so neither pipe can fill while the other
    waits: no feeder thread is needed."""

    # Ids written at once: 256 of 41 bytes fit any pipe's buffer (16 KB on macOS), so
    # writing never waits for git, which may itself wait for us to read.
    _CHUNK = 256

    def __init__(self, git_dir: str) -> None:
        self.git_dir = git_dir
        self._proc = self._start()

    def _start(self) -> subprocess.Popen[bytes]:
        try:
            return subprocess.Popen(
                git_command(self.git_dir, "cat-file", "--batch"),
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=git_env(),
            )
        except OSError as exc:
            raise GitError(f"cannot run git: {exc}") from exc

    def _restart(self) -> None:
        self.close()
        self._proc = self._start()

    def stream(self, oids: Sequence[str]) -> Iterator[bytes | None]:
        """Each blob's bytes, in order, as git hands them over; None for one git cannot
        read (missing from a partial clone). Read them all: the ids of a chunk are
        written before its first blob is read, so git inflates the next blobs while
        the caller scans this one (up to a pipe's worth ahead)."""
        pending = list(oids)
        pos = 0
        retried = -1
        silent = 0  # gits in a row that died before answering anything
        while pos < len(pending):
            chunk = pending[pos:pos + self._CHUNK]
            stdin, stdout = self._proc.stdin, self._proc.stdout
            assert stdin is not None and stdout is not None
            try:
                stdin.write("".join(f"{oid}\n" for oid in chunk).encode())
                stdin.flush()
            except (BrokenPipeError, OSError):
                if retried == pos:
                    raise GitError(f"{self.git_dir}: git cat-file stopped early") from None
                retried = pos
                self._restart()
                continue
            for _ in chunk:
                try:
                    data = _read_object(stdout, self.git_dir)
                except _Broken as broken:
                    # A corrupt object: git sent less than its header said, then died.
                    # It is unreadable (never scanned, never cached); the blobs after it
                    # are asked of a new git. One that git dies on before answering is
                    # asked once more, then given up on too; a git that answers nothing
                    # at all, three times, cannot read this repo.
                    silent = 0 if broken.answered else silent + 1
                    if silent >= 3:
                        raise GitError(f"{self.git_dir}: git cat-file stopped early") from None
                    self._restart()
                    if broken.answered or retried == pos:
                        yield None
                        pos += 1
                    else:
                        retried = pos
                    break
                yield data
                pos += 1

    def close(self) -> None:
        for pipe in (self._proc.stdin, self._proc.stdout):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()
        try:
            self._proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()


_CONFIG_SECTION = re.compile(r'\s*\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]')
_CONFIG_ENTRY = re.compile(r"\s*([A-Za-z][A-Za-z0-9-]*)\s*=\s*(.*?)\s*$")


def _config_value(text: str, section: str, key: str) -> str | None:
    """The last value of `key` in `section` (`remote "origin"`) of a git config text:
    section names and keys compare case-insensitively, subsections exactly; a quoted
    value is unquoted, and `#`/`;` start a comment outside quotes."""
    name, _, sub = section.partition(" ")
    sub = sub.strip('"')
    here = False
    found: str | None = None
    for line in text.splitlines():
        head = _CONFIG_SECTION.match(line)
        if head is not None:
            here = head.group(1).lower() == name.lower() and (head.group(2) or "") == sub
            line = line[head.end():]
        if not here:
            continue
        entry = _CONFIG_ENTRY.match(line)
        if entry is not None and entry.group(1).lower() == key.lower():
            found = _config_unquote(entry.group(2))
    return found or None


def _config_unquote(raw: str) -> str:
    out = []
    quoted = False
    i = 0
    while i < len(raw):
        ch = raw[i]
        if ch == '"':
            quoted = not quoted
        elif ch == "\\" and i + 1 < len(raw):
            i += 1
            out.append({"n": "\n", "t": "\t"}.get(raw[i], raw[i]))
        elif ch in "#;" and not quoted:
            break
        else:
            out.append(ch)
        i += 1
    return "".join(out).strip()


class _Broken(Exception):
    """git cat-file ended in the middle of an answer (`answered`) or before one."""

    def __init__(self, answered: bool) -> None:
        super().__init__()
        self.answered = answered


def _read_object(stdout: IO[bytes], where: str) -> bytes | None:
    """One answer of `git cat-file --batch`: the object's bytes, or None when git
    cannot read it (missing from a partial clone). An answer shorter than its header
    says, or not ended by its newline, is a corrupt object (_Broken), never data."""
    header = stdout.readline()
    if not header.endswith(b"\n"):
        raise _Broken(answered=False)
    parts = header.split()
    if len(parts) < 3 or parts[1] == b"missing":
        return None
    try:
        size = int(parts[2])
    except ValueError:
        raise _Broken(answered=True) from None
    data = stdout.read(size)
    if len(data) != size or stdout.read(1) != b"\n":
        raise _Broken(answered=True)
    return data


_BLAME_HEAD = re.compile(r"([0-9a-f]{40,64}) (\d+) (\d+)(?: \d+)?$")


class Hunk(NamedTuple):
    """One hunk of a unified diff with no context: `old` lines from `old_start` were
    replaced by `new` lines from `new_start` (a start is the line before, when empty)."""

    old_start: int
    old: tuple[str, ...]
    new_start: int
    new: tuple[str, ...]


_HUNK_HEADER = re.compile(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def parse_hunks(text: str) -> dict[str, list[Hunk]]:
    """`git diff -U0` output, by the path each hunk is in (its name after the change)."""
    out: dict[str, list[Hunk]] = {}
    path: str | None = None
    old: list[str] = []
    new: list[str] = []
    header: tuple[int, int] | None = None

    def close() -> None:
        if path is not None and header is not None:
            out.setdefault(path, []).append(Hunk(header[0], tuple(old), header[1], tuple(new)))

    for line in text.split("\n"):
        if line.startswith("diff --git "):
            close()
            path, header = None, None
        elif line.startswith("+++ ") and header is None:
            name = line[4:]
            path = _c_unquote(name)[2:] if name.startswith(("b/", '"b/')) else None
        elif line.startswith("@@ "):
            close()
            m = _HUNK_HEADER.match(line)
            header = (int(m.group(1)), int(m.group(3))) if m else None
            old, new = [], []
        elif header is not None and line.startswith("-"):
            old.append(line[1:])
        elif header is not None and line.startswith("+"):
            new.append(line[1:])
    close()
    return out


def _c_unquote(name: str) -> str:
    """A path as git prints it: C-quoted when it holds a quote, a backslash or a
    control character (octal escapes are UTF-8 bytes)."""
    if not name.startswith('"'):
        return name
    raw = bytearray()
    body, i = name[1:-1] if name.endswith('"') else name[1:], 0
    simple = {"n": 10, "t": 9, '"': 34, "\\": 92, "a": 7, "b": 8, "f": 12, "r": 13, "v": 11}
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            if nxt in simple:
                raw.append(simple[nxt])
                i += 2
                continue
            if body[i + 1:i + 4].isdigit():
                raw.append(int(body[i + 1:i + 4], 8) & 0xFF)
                i += 4
                continue
        raw.extend(c.encode())
        i += 1
    return raw.decode("utf-8", errors=PATH_ERRORS)


def _blame_records(text: str) -> Iterator[tuple[BlameLine, int]]:
    """`git blame --porcelain` output as (line, its number in the blamed file). A
    commit's details are given at its first line only, and are kept for the rest."""
    seen: dict[str, dict[str, str]] = {}
    current: dict[str, str] | None = None
    sha = ""
    orig = final = 0
    for raw in text.split("\n"):
        if raw.startswith("\t"):  # the line's text: the record is complete
            if current is not None:
                yield BlameLine(sha, orig, int(current.get("committer-time", "0") or 0),
                                current.get("summary", ""), "boundary" in current,
                                current.get("previous", "").split(" ")[0] or None), final
            current = None
            continue
        head = _BLAME_HEAD.match(raw)
        if head is not None and current is None:
            sha, orig, final = head.group(1), int(head.group(2)), int(head.group(3))
            current = seen.setdefault(sha, {})
        elif current is not None:
            key, _, value = raw.partition(" ")
            current[key] = value


def _listed_paths(out: bytes, commit: str) -> set[str]:
    """The paths `git grep -l -z` at a commit lists (each after `COMMIT:`)."""
    prefix = commit + ":"
    return {p[len(prefix):] if p.startswith(prefix) else p
            for p in out.decode(errors=PATH_ERRORS).split("\0") if p}


def _grep_records(text: str, commit: str) -> list[tuple[str, int, str]]:
    """`git grep -n` output at a commit, as (path, line, text)."""
    out = []
    prefix = commit + ":"
    # Split at newlines only: splitlines() also splits at a form feed or \x1c in a line.
    for line in text.split("\n"):
        if not line.startswith(prefix):
            continue
        path, _, rest = line[len(prefix):].partition(":")
        number, _, body = rest.partition(":")
        if number.isdigit():
            out.append((path, int(number), body))
    return out


def _parse_tree(out: str) -> list[TreeEntry]:
    entries = []
    for record in out.split("\0"):
        if not record:
            continue
        meta, _, path = record.partition("\t")
        mode, kind, oid, size = meta.split(None, 3)
        entries.append(TreeEntry(path, mode, kind, oid, int(size) if size.isdigit() else -1))
    return entries


def run_tool(args: list[str], stdin: bytes, missing: str) -> bytes:
    """Another program (Graphviz's `dot`), run as git is: an argument list, never a
    shell, here in the one wing that starts processes. `missing`: the error when it is
    not installed; one that fails says its first line of stderr."""
    if shutil.which(args[0]) is None:
        raise ToolError(missing)
    try:
        done = subprocess.run(args, input=stdin, capture_output=True, check=False, timeout=600)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise ToolError(f"{args[0]} failed: {exc}") from None
    if done.returncode != 0:
        first = (done.stderr.decode(errors="replace").strip().splitlines() or ["no message"])[0]
        raise ToolError(f"{args[0]} failed (exit {done.returncode}): {first}")
    return done.stdout
