"""The git processes: the command line every git run gets (its output's shape pinned
against the user's config), commands started in the background from a bounded pool,
and the `git cat-file --batch` readers that stream blobs; other tools run once."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Container, Iterator, Mapping, Sequence
from typing import IO

from anchorcheck.errors import AnchorcheckError, GitError

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


class ToolError(AnchorcheckError):
    """A program other than git that is missing or failed: one line, exit 2."""


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
