"""What the user's git config (or GIT_DIFF_OPTS) says changes no finding. Every git command whose output
anchorcheck reads runs with the settings that would change that output pinned to git's
defaults (git/process.py, _PINNED): a laptop, a CI runner and a colleague's machine check
the same commits and must say the same."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from anchorcheck.git.repobuilder import commit
from tests.conftest import WorkspaceBuilder, run_cli

_CODE = "".join(f"step_{n} = {n}\n" for n in range(1, 11))
_DEPLOY = ("kind: Deployment\nspec:\n  replicas: 1\n  # Recreate (below): never two managers at once.\n"
           "  strategy:\n    type: Recreate\n  template: {}\n")

# Settings seen in real dotfiles that change what git prints for a pipe: colour forced
# on, grep's line numbers and columns, another diff algorithm and hunk shape, file order,
# commit subjects re-encoded, paths unquoted, and the blame setting GitHub's docs
# recommend, pointing at a file the checked repos lack (git then refuses every blame)
# and at one that lists the commit that moved the cited lines.
_HOSTILE = """\
[color]
    ui = always
    grep = always
    diff = always
[grep]
    lineNumber = true
    column = true
    fullName = true
    patternType = fixed
[diff]
    algorithm = histogram
    indentHeuristic = false
    interHunkContext = 10
    orderFile = {order}
    noprefix = true
    renames = copies
    context = 8
    relative = true
[log]
    showSignature = true
    decorate = full
    abbrevCommit = true
[format]
    pretty = oneline
[i18n]
    logOutputEncoding = ISO-8859-1
[core]
    quotePath = {quote}
    abbrev = 4
[blame]
    ignoreRevsFile = .git-blame-ignore-revs
    ignoreRevsFile = {ignored}
    markIgnoredLines = true
    markUnblamableLines = true
"""


def _workspace(ws: WorkspaceBuilder) -> str:
    """A workspace holding a finding of each rule that reads git's output (line
    history, symbol searches, removed names, a PR's diff); the commit that moved the
    cited lines."""
    app = ws.repo("app", {
        "steps.py": _CODE,
        "lib.py": "def old_helper():\n    return 1\n\n\ndef kept():\n    pass\n",
        "café.py": "def gone_from_cafe():\n    pass\n\n\ndef stays():\n    pass\n",
        "util.py": "def moved_fn():\n    pass\n",
        "notes.py": "x = 1\n",
        "deploy.yaml": _DEPLOY,
    })
    commit(app, {"notes.py": (
        "# The retry step is at steps.py:4 (see there).\n"
        "# The last steps: steps.py:9-10\n"
        "# `old_helper()` and `gone_from_cafe()` did the probing.\n"
        "# See lib.py:moved_fn() for the port.\n"
        "x = 1\n")}, "cite the steps")
    moved = commit(app, {"steps.py": "import os\nimport sys\n\n" + _CODE}, "imports")
    commit(app, {"steps.py": "import os\nimport sys\n\n" + _CODE.replace("step_10 = 10", "step_10 = retry(10)")},
           "retry the last step")
    commit(app, {"lib.py": "def kept():\n    pass\n", "café.py": "def stays():\n    pass\n"},
           "drop the old probes (café)")
    ws.repo("chart", {"values.yaml": "# `step_4 = 4` at app:steps.py:7 sets the port.\n"
                                     "# `step_1 = 1` at app:steps.py:4 the host.\nport: 1\n"})
    ws.pr("app", "pr-1", {"steps.py": "import os\nimport sys\n\n" + _CODE.replace(
        "step_2 = 2\n", "step_2 = 2\nstep_2b = 2\n").replace("step_10 = 10", "step_10 = retry(10)"),
        "deploy.yaml": _DEPLOY.replace("type: Recreate", "type: RollingUpdate")})
    ws.config()
    return moved


def _runs(ws: WorkspaceBuilder) -> tuple[str, str]:
    check = run_cli("check", "--format", "json", "--no-cache", cwd=ws.root)
    assert check.code in (0, 1), check.err
    order = run_cli("merge-order", "--pr", "app#1=pr-1", "--format", "json", "--no-cache", cwd=ws.root)
    assert order.code in (0, 1), order.err
    return check.out, order.out


@pytest.mark.parametrize("quote", ["true", "false"])
def test_a_users_git_config_changes_no_finding(
        ws: WorkspaceBuilder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, quote: str) -> None:
    moved = _workspace(ws)
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    plain = tmp_path / "plain.gitconfig"
    plain.write_text("", encoding="utf-8")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(plain))
    check, order = _runs(ws)
    codes = sorted({f["code"] for f in json.loads(check)["findings"]})
    assert {"AC201", "AC202", "AC203", "AC205"} <= set(codes), codes
    removed = [f for f in json.loads(check)["findings"] if f["code"] == "AC203"]
    # (A removal in a file whose name git quotes by default is seen too.)
    assert sorted(f["message"].split()[0] for f in removed) == ["gone_from_cafe", "old_helper"], removed
    assert "drop the old probes (café)" in removed[0]["message"]
    assert sorted(f["code"] for f in json.loads(order)["findings"]) == ["AC201", "AC206"], order

    ignored, order_file = tmp_path / "ignored-revs", tmp_path / "order"
    ignored.write_text(moved + "\n", encoding="utf-8")
    order_file.write_text("util.py\n*.py\n", encoding="utf-8")
    hostile = tmp_path / "hostile.gitconfig"
    hostile.write_text(_HOSTILE.format(order=order_file, ignored=ignored, quote=quote), encoding="utf-8")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(hostile))
    # (An environment variable that overrides `-U0` wherever git prints a diff.)
    monkeypatch.setenv("GIT_DIFF_OPTS", "--unified=3")
    # (The config is read: git itself now prints otherwise.)
    shown = subprocess.run(["git", "-C", str(ws.repos["app"]), "grep", "-h", "step_4", "HEAD"],
                           capture_output=True, text=True, check=True).stdout
    assert shown.startswith("\x1b[") and ":" in shown, shown
    assert (check, order) == _runs(ws)
