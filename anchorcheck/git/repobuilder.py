"""Build small real git repositories from `{path: content}` dicts.

Used by `anchorcheck demo` and by the tests: commits have a fixed author and date,
so ids are reproducible, and nothing touches the network or the user's git config.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping
from pathlib import Path

_ENV = {
    "GIT_AUTHOR_NAME": "anchorcheck",
    "GIT_AUTHOR_EMAIL": "anchorcheck@example.invalid",
    "GIT_COMMITTER_NAME": "anchorcheck",
    "GIT_COMMITTER_EMAIL": "anchorcheck@example.invalid",
    "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z",
    "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_TERMINAL_PROMPT": "0",
}

Files = Mapping[str, str | bytes | None]  # None deletes the file


def git(repo: Path, *args: str, date: str | None = None) -> str:
    env = {**os.environ, **_ENV}
    if date is not None:  # commits made at other times than the fixed one
        env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = date
    done = subprocess.run(["git", *args], cwd=repo, env=env, capture_output=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)} failed: {done.stderr.decode(errors='replace')}")
    return done.stdout.decode()


def init_repo(path: Path, files: Files, branch: str = "main", message: str = "initial") -> Path:
    path.mkdir(parents=True, exist_ok=True)
    git(path, "init", "-q", "-b", branch)
    commit(path, files, message)
    return path


def write_files(repo: Path, files: Files) -> None:
    for rel, content in files.items():
        target = repo / rel
        if content is None:
            if target.exists():
                git(repo, "--literal-pathspecs", "rm", "-q", "--", rel)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content, encoding="utf-8")
        git(repo, "--literal-pathspecs", "add", "--", rel)  # a name like `:x` or `*.py` is itself


def commit(repo: Path, files: Files, message: str = "change", date: str | None = None) -> str:
    write_files(repo, files)
    git(repo, "commit", "-q", "--allow-empty", "-m", message, date=date)
    return git(repo, "rev-parse", "HEAD").strip()


def branch(repo: Path, name: str, files: Files, base: str = "main", message: str = "") -> str:
    """Create branch `name` from `base` with one commit of `files`, then return to base."""
    git(repo, "checkout", "-q", "-b", name, base)
    sha = commit(repo, files, message or f"{name}")
    git(repo, "checkout", "-q", base)
    return sha
