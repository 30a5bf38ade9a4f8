"""One repository opened at its git directory, and git's commands run in it: the base
GitRepo's concerns share (repo.py, search.py, history.py each add commands to it), so
that each of them finds the repository, and the one way a command is run, in one place."""

from __future__ import annotations

import subprocess
from pathlib import Path

from anchorcheck.errors import GitError
from anchorcheck.git.output import PATH_ERRORS
from anchorcheck.git.process import git_command, git_env


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


class GitDir:
    """A repository's git directory, found, and a git command run in it (the commands
    themselves are GitRepo's)."""

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

    def _run(self, env: dict[str, str], *args: str, cwd: Path | None = None) -> str:
        return self._git_bytes(*args, env=env, cwd=cwd).decode(errors=PATH_ERRORS)

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
