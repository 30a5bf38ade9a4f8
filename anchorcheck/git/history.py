"""What git tells of the commits behind a ref: the commits AC203 reads and their
diffs (`git log -p`), and lines followed through history (`git blame`, for
resolve/linehistory.py), with the subjects, counts and ancestors that go with them.
GitRepo's history commands, a concern of their own (a mixin GitRepo inherits)."""

from __future__ import annotations

from collections.abc import Sequence

from anchorcheck.errors import GitError
from anchorcheck.git.gitdir import GitDir
from anchorcheck.git.output import BlameLine, blame_records
from anchorcheck.git.oversized import SIZE_LIMIT
from anchorcheck.git.process import Background, git_command

# `git blame`'s options: its output for a program, and no revisions ignored. GitHub's
# docs have users set blame.ignoreRevsFile to `.git-blame-ignore-revs` globally; git
# reads that path from the directory it runs in, and where no such file is there it
# refuses every blame ("could not open object name list"), which left a check without
# any line history (AC201, AC205); where one is, the lines its commits touched were
# given to others. The option empties the list before any file of it is read.
_BLAME = ("--porcelain", "--no-ignore-revs-file")


class HistoryCommands(GitDir):
    """GitRepo's commands that read history: commit lists, logs, blame."""

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
        limit = ["-c", f"core.bigFileThreshold={SIZE_LIMIT[0]}"] if SIZE_LIMIT else []
        return Background(git_command(
            self.git_dir, *limit, "log", "-p", "-U0", "--no-color", "--diff-algorithm=myers", "--no-renames",
            "--no-ext-diff", "--no-textconv", "--no-show-signature", "--src-prefix=a/", "--dst-prefix=b/",
            "--no-indent-heuristic", "--format=%x00%H %s", "--no-walk=unsorted", "--stdin", "--",
        ), stdin="".join(f"{sha}\n" for sha in shas).encode())
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
