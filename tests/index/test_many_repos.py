"""Many repos under a low file-descriptor limit: git runs from a bounded pool, and a
warm run of repos whose refs have not moved starts no git at all."""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path

from anchorcheck.git.repobuilder import init_repo

REPOS = 150
NOFILE = 96  # the old one-git-per-repo crawl stopped at about half this many repos


def workspace(root: Path) -> Path:
    seed = init_repo(root / "r0", {"a.py": "# ROLLBACK PLAN HERE\n# Roll back by hand.\nx = 1\n",
                                   "b.py": "# see NO SUCH PLAN HERE in a.py\n"})
    for i in range(1, REPOS):
        shutil.copytree(seed, root / f"r{i}", symlinks=True)
    config = root / "anchorcheck.toml"
    config.write_text("".join(f'[[repo]]\nname = "r{i}"\npath = "r{i}"\nref = "main"\n\n' for i in range(REPOS)))
    return config


def check(root: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (NOFILE, NOFILE))

    return subprocess.run([sys.executable, "-m", "anchorcheck", "check", "--statistics", *args], cwd=root,
                          preexec_fn=limit, capture_output=True, text=True, check=False,
                          env={**os.environ, **(env or {})}, timeout=300)


def test_many_repos_run_under_a_low_descriptor_limit_and_warm_runs_start_no_git(tmp_path: Path) -> None:
    workspace(tmp_path)
    cache = ["--cache-dir", str(tmp_path / "cache")]
    cold = check(tmp_path, *cache)
    assert cold.returncode == 1, cold.stderr
    assert cold.stdout.split()[:2] == [str(REPOS), "AC101"], cold.stdout  # one per repo
    # Warm: every snapshot (and the result) is in the cache, every ref a branch read
    # from its file: git is never started (GIT_TRACE would write for any git run).
    trace = tmp_path / "git-trace.log"
    warm = check(tmp_path, *cache, env={"GIT_TRACE": str(trace)})
    assert warm.returncode == 1, warm.stderr
    assert warm.stdout == cold.stdout
    assert not trace.exists() or trace.read_text() == ""


def test_the_git_pool_size_is_a_setting_and_range_checked(tmp_path: Path) -> None:
    config = workspace(tmp_path)
    config.write_text(config.read_text() + "[settings]\ngit-processes = 2\n")
    run = check(tmp_path, "--no-cache")
    assert run.returncode == 1, run.stderr
    config.write_text(config.read_text().replace("git-processes = 2", "git-processes = 0"))
    run = check(tmp_path, "--no-cache")
    assert run.returncode == 2 and "'git-processes' must be at least 1" in run.stderr
