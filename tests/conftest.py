"""Fixtures: real git repos in temp folders, built from {path: content} dicts."""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from anchorcheck.git.repobuilder import Files, branch, git, init_repo

# The command line caches blobs under $XDG_CACHE_HOME: give the test run its own, so
# no test reads a cache another run (or the developer) wrote.
_CACHE_HOME = tempfile.mkdtemp(prefix="anchorcheck-test-cache-")
os.environ["XDG_CACHE_HOME"] = _CACHE_HOME
atexit.register(shutil.rmtree, _CACHE_HOME, ignore_errors=True)


@dataclass
class Run:
    code: int
    out: str
    err: str


# A CI job running these tests may hold a token: no test asks a real forge. Nor does
# the workflow's own repo (GitHub Actions' variables) decide what a test reports.
FORGE_TOKENS = ("GITHUB_TOKEN", "GH_TOKEN", "GITLAB_TOKEN", "CI_JOB_TOKEN")
_CI_PLACE = ("GITHUB_REPOSITORY", "GITHUB_WORKSPACE")


def run_cli(*args: str, cwd: Path) -> Run:
    """The installed command line, as a user runs it (a real process, real exit code)."""
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", *FORGE_TOKENS, *_CI_PLACE)}
    done = subprocess.run(
        [sys.executable, "-m", "anchorcheck", *args], cwd=cwd, capture_output=True, text=True,
        env=env, timeout=120, check=False,
    )
    return Run(done.returncode, done.stdout, done.stderr)


class WorkspaceBuilder:
    """Several repos side by side plus an anchorcheck.toml naming them."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.repos: dict[str, Path] = {}

    def repo(self, name: str, files: Files, default: str = "main") -> Path:
        path = init_repo(self.root / name, files, branch=default)
        self.repos[name] = path
        return path

    def pr(self, name: str, ref: str, files: Files, base: str = "main") -> str:
        return branch(self.repos[name], ref, files, base=base)

    def config(self, refs: dict[str, str] | None = None) -> Path:
        refs = refs or {}
        text = "".join(
            f'[[repo]]\nname = "{n}"\npath = "{n}"\nref = "{refs.get(n, "main")}"\n\n'
            for n in self.repos
        )
        path = self.root / "anchorcheck.toml"
        path.write_text(text, encoding="utf-8")
        return path

    def with_urls(self, owner: str, *names: str) -> Path:
        """The config, with `url = "https://github.com/OWNER/NAME"` for these repos."""
        path = self.config()
        text = path.read_text(encoding="utf-8")
        for name in names:
            text = text.replace(f'name = "{name}"\n', f'name = "{name}"\nurl = "https://github.com/{owner}/{name}"\n')
        path.write_text(text, encoding="utf-8")
        return path

    def check(self, *args: str) -> Run:
        self.config()
        return run_cli("check", *args, cwd=self.root)


@pytest.fixture
def ws(tmp_path: Path) -> WorkspaceBuilder:
    return WorkspaceBuilder(tmp_path)


@pytest.fixture
def cli() -> Callable[..., Run]:
    return run_cli


__all__ = ["Run", "WorkspaceBuilder", "git", "run_cli"]
