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


def test_a_hook_in_one_repo_checks_its_neighbours_staged_files_as_theirs(tmp_path: Path) -> None:
    """git runs a hook with GIT_INDEX_FILE naming the hooked repo's index (`index.lock`
    for `commit -a`); a workspace check from there reads that index for that repo only,
    and each neighbour's own index for its staged files."""
    root = tmp_path / "ws"
    a = init_repo(root / "a", {"m.py": "# RETRIES AND BACKOFF\n# why three\nx = 1\n"})
    b = init_repo(root / "b", {"c.py": "y = 1\n"})
    (root / "anchorcheck.toml").write_text('[[repo]]\nname = "a"\npath = "a"\n\n[[repo]]\nname = "b"\npath = "b"\n')
    hook = a / ".git" / "hooks" / "pre-commit"
    hook.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m anchorcheck check --config "{root / "anchorcheck.toml"}"'
                    ' --staged --no-cache -q\n')
    hook.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k not in ("GITHUB_TOKEN", "GH_TOKEN", "GITLAB_TOKEN", "CI_JOB_TOKEN")}
    env.update(GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@t",
               XDG_CACHE_HOME=str(tmp_path / "cache"))

    def commit(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["git", "commit", "-q", *args], cwd=a, env=env, capture_output=True, text=True,
                              timeout=300, check=False)

    # b's staged file cites a heading a lacks: a's commit is refused for it.
    (b / "c.py").write_text("# see BACKOFF AND RETRIES in a:m.py\ny = 1\n")
    git(b, "add", "c.py")
    (a / "m.py").write_text("# RETRIES AND BACKOFF\n# why three, and the cap\nx = 1\n")
    git(a, "add", "m.py")
    refused = commit("-m", "reword")
    assert refused.returncode != 0, refused.stdout + refused.stderr
    assert "b:c.py:1" in refused.stdout + refused.stderr and "AC101" in refused.stdout + refused.stderr
    # Fixed in b's index: accepted.
    (b / "c.py").write_text("# see RETRIES AND BACKOFF in a:m.py\ny = 1\n")
    git(b, "add", "c.py")
    accepted = commit("-m", "reword")
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr
    # `commit -a` records a change never staged before: the hook judges that (a's
    # index.lock), and refuses the heading's rename that leaves b's citation dangling.
    (a / "m.py").write_text("# RETRY POLICY\n# why three, and the cap\nx = 1\n")
    renamed = commit("-a", "-m", "rename")
    assert renamed.returncode != 0, renamed.stdout + renamed.stderr
    assert "b:c.py:1" in renamed.stdout + renamed.stderr


def test_in_a_workspace_the_hook_judges_what_the_commit_changes(tmp_path: Path) -> None:
    """The hook in one member repo, the workspace file in the parent folder: findings
    the commit does not touch (a neighbour's, or an old one in this repo) do not block
    it; a commit that removes a heading a neighbour cites is refused (issue 42, item 5)."""
    rev = _hook_rev()
    root = tmp_path / "ws"
    app = init_repo(root / "app", {"ops.md": "# Ops\n\n## Rollback plan\n\nBy hand.\n",
                                   "old.md": "# Old\n\n[gone](gone.md)\n", "notes.md": "# Notes\n"})
    init_repo(root / "docs", {"guide.md": "# Guide\n\n[plan](../app/ops.md#rollback-plan)\n[x](nope.md)\n"})
    (root / "anchorcheck.toml").write_text('[[repo]]\nname = "app"\npath = "app"\n\n'
                                           '[[repo]]\nname = "docs"\npath = "docs"\n')
    (app / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {ROOT}\n    rev: {rev}\n    hooks:\n      - id: anchorcheck\n")
    git(app, "add", ".pre-commit-config.yaml")
    git(app, "commit", "-q", "-m", "pre-commit config")
    env = {k: v for k, v in os.environ.items() if k not in ("GITHUB_TOKEN", "GH_TOKEN", "GITLAB_TOKEN", "CI_JOB_TOKEN")}
    env.update(PRE_COMMIT_HOME=str(tmp_path / "pre-commit-home"), XDG_CACHE_HOME=str(tmp_path / "cache"))
    subprocess.run([sys.executable, "-m", "pre_commit", "install"], cwd=app, env=env, check=True,
                   capture_output=True)

    def commit(message: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["git", "commit", "-m", message], cwd=app, env=env, capture_output=True,
                              text=True, timeout=900, check=False)

    # Unrelated: old.md's dangling link and docs' are findings, but not this commit's.
    (app / "notes.md").write_text("# Notes\n\nMore.\n")
    git(app, "add", "notes.md")
    unrelated = commit("more notes")
    assert unrelated.returncode == 0, unrelated.stdout + unrelated.stderr
    # Renaming the heading docs cites breaks docs' link: refused, the finding in docs named.
    (app / "ops.md").write_text("# Ops\n\n## Roll back\n\nBy hand.\n")
    git(app, "add", "ops.md")
    breaking = commit("rename the plan")
    assert breaking.returncode != 0, breaking.stdout + breaking.stderr
    shown = breaking.stdout + breaking.stderr
    assert "docs:guide.md:3" in shown and "AC101" in shown and "old.md" not in shown and "nope.md" not in shown
    git(app, "reset", "-q", "--hard")
    # Deleting the cited file: pre-commit passes no names, the index's change counts.
    git(app, "rm", "-q", "ops.md")
    deleting = commit("drop ops")
    assert deleting.returncode != 0, deleting.stdout + deleting.stderr
    assert "docs:guide.md:3" in deleting.stdout + deleting.stderr
    shutil.rmtree(tmp_path / "pre-commit-home", ignore_errors=True)
