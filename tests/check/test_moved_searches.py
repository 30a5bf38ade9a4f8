"""A nightly run after a repo moved: the names AC202 and AC203 asked at its last run
are asked again of the files changed since, not of every file (git grep over the
whole tree was the longest step of such a run on git/git), and the findings are those
of a run with no cache."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from anchorcheck.git.repobuilder import commit
from tests.conftest import WorkspaceBuilder, run_cli

_TOOLS = {
    "jobs.py": "def _old_probe():\n    return 200\n\n\ndef serve():\n    pass\n",
    "helpers.py": "def moved_helper():\n    pass\n",
    "claims.py": (
        "# `_old_probe()` was the readiness check.\n"
        "# See jobs.py:moved_helper() for the port.\n"
        "z = 3\n"
    ),
    "docs.md": "# Tools\n",
}


def _findings(out: str) -> list[tuple[str, str, int, str]]:
    return sorted((f["code"], f["path"], f["line"], f["message"]) for f in json.loads(out)["findings"])


def test_a_moved_repos_names_are_asked_of_its_changed_files(
        ws: WorkspaceBuilder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tools = ws.repo("tools", _TOOLS)
    commit(tools, {"jobs.py": "def serve():\n    pass\n"}, "drop the old probe")
    ws.repo("other", {"lib.py": "def serve():\n    pass\n"})
    ws.config()
    cache, trace = tmp_path / "cache", tmp_path / "trace"

    def check(cached: bool) -> tuple[list[tuple[str, str, int, str]], list[str]]:
        trace.unlink(missing_ok=True)
        monkeypatch.setenv("GIT_TRACE", str(trace))
        where = ("--cache-dir", str(cache)) if cached else ("--no-cache",)
        run = run_cli("check", "--format", "json", "--select", "AC202,AC203", *where, cwd=ws.root)
        monkeypatch.delenv("GIT_TRACE")
        assert run.code in (0, 1), run.err
        greps = [line.partition("built-in: git grep")[2] for line in trace.read_text().splitlines()
                 if "built-in: git grep" in line and " -P " in line]
        return _findings(run.out), greps

    found, greps = check(cached=True)
    assert [f[0] for f in found] == ["AC202", "AC203"], found
    assert "helpers.py" in found[0][3]
    assert any("tools" in g or "moved_helper" in g for g in greps)
    # The docs change: no name is searched for in every file of tools (its grep, if
    # any, names the changed file); the findings are a fresh run's.
    commit(tools, {"docs.md": "# Tools\n\nMore.\n", "new.py": "x = 1\n"}, "docs")
    found, greps = check(cached=True)
    assert found == check(cached=False)[0]
    assert greps and all(":(literal)" in g for g in greps), greps
    # The helper moves to the changed file, and the old name comes back: both answers
    # change, as a fresh run's do.
    commit(tools, {"helpers.py": "x = 2\n", "new.py": "def moved_helper():\n    pass\n",
                   "jobs.py": "def serve():\n    pass\n\n\ndef _old_probe():\n    return 200\n"}, "move")
    moved, greps = check(cached=True)
    assert moved == check(cached=False)[0]
    assert [f[0] for f in moved] == ["AC202"] and "new.py" in moved[0][3], moved
    assert greps and all(":(literal)" in g for g in greps), greps
