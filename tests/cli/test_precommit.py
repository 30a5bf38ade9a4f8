"""The pre-commit hook, run by the real pre-commit tool on a real repo whose config
points at this checkout: a commit that adds a dangling link is refused, the commit
that fixes it is accepted."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from anchorcheck.git.repobuilder import git, init_repo

ROOT = Path(__file__).resolve().parents[2]


def _hook_rev() -> str:
    if not (ROOT / ".git").exists():
        pytest.skip("this checkout is not a git repository: pre-commit needs a rev of it")
    return subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True,
                          check=True).stdout.strip()


def test_a_commit_adding_a_dangling_link_is_refused_and_its_fix_accepted(tmp_path: Path) -> None:
    rev = _hook_rev()
    repo = init_repo(tmp_path / "proj", {"README.md": "# Proj\n\nSee [the guide](guide.md).\n",
                                         "guide.md": "# Guide\n"})
    (repo / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {ROOT}\n    rev: {rev}\n    hooks:\n      - id: anchorcheck\n")
    git(repo, "add", ".pre-commit-config.yaml")
    git(repo, "commit", "-q", "-m", "pre-commit config")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
           "XDG_CACHE_HOME": str(tmp_path / "cache")}
    for key in ("GITHUB_TOKEN", "GH_TOKEN", "GITLAB_TOKEN", "CI_JOB_TOKEN"):
        env.pop(key, None)
    pre_commit = [sys.executable, "-m", "pre_commit"]
    subprocess.run([*pre_commit, "install"], cwd=repo, env=env, check=True, capture_output=True)

    def commit(files: dict[str, str], message: str) -> subprocess.CompletedProcess[str]:
        for name, text in files.items():
            (repo / name).write_text(text)
        subprocess.run(["git", "add", *files], cwd=repo, check=True)
        return subprocess.run(["git", "commit", "-m", message], cwd=repo, env=env, capture_output=True,
                              text=True, timeout=900, check=False)

    refused = commit({"README.md": "# Proj\n\nSee [the guide](guide.md) and [the runbook](runbook.md).\n"},
                     "link the runbook")
    assert refused.returncode != 0, refused.stdout + refused.stderr
    assert "AC105 no file runbook.md" in refused.stdout + refused.stderr
    assert git(repo, "log", "--format=%s", "-1").strip() == "pre-commit config"
    # An unstaged fix is not what the commit records: still refused.
    (repo / "runbook.md").write_text("# Runbook\n")
    again = subprocess.run(["git", "commit", "-m", "link the runbook"], cwd=repo, env=env, capture_output=True,
                           text=True, timeout=900, check=False)
    assert again.returncode != 0, again.stdout + again.stderr
    accepted = commit({"runbook.md": "# Runbook\n"}, "link the runbook, and add it")
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr
    assert git(repo, "log", "--format=%s", "-1").strip() == "link the runbook, and add it"
    shutil.rmtree(tmp_path / "pre-commit-home", ignore_errors=True)
