"""`fix` reads what `check` reads: a repo given no ref is fixed as it stands on disk, with
the user's uncommitted edits kept; with --staged, the staged text; a range claim keeps its
size when the block it names moved whole."""

from __future__ import annotations

from pathlib import Path

from anchorcheck.git.repobuilder import git
from tests.conftest import WorkspaceBuilder, run_cli

DEPLOY = "spec:\n  # ROLLBACK ON THE DEGRADED PATH\n  # Recreate plus --atomic rolls back.\n  strategy: Recreate\n"
CITE = "# see ROLLBACK ON THE DEGRADED PATH in client/templates/cron.yaml\n"
APP = "import os\n\n\ndef health():\n    ok = True\n    return ok\n"
CLAIM = "# `def health():` at app.py:4-6\n"


def work_tree_config(ws: WorkspaceBuilder) -> None:
    """The workspace file as the README shows it first: no ref, so each repo's work tree."""
    (ws.root / "anchorcheck.toml").write_text(
        "".join(f'[[repo]]\nname = "{n}"\npath = "{n}"\n\n' for n in ws.repos), encoding="utf-8")


def test_fix_writes_the_findings_check_reports_on_uncommitted_edits(ws: WorkspaceBuilder) -> None:
    client = ws.repo("client", {"templates/deploy.yaml": DEPLOY, "templates/cron.yaml": "kind: CronJob\n"})
    runtime = ws.repo("runtime", {"jobs.py": "# committed\n", "app.py": APP, "notes.py": CLAIM})
    work_tree_config(ws)
    # Uncommitted: a citation naming the wrong file, and three lines pushed down under a claim.
    (runtime / "jobs.py").write_text("# committed\n# typed, not committed\n" + CITE)
    (runtime / "app.py").write_text("import os\nimport sys\nimport re\nimport json\n\n\n"
                                    "def health():\n    ok = True\n    return ok\n")
    check = run_cli("check", cwd=ws.root)
    assert check.code == 1
    assert sorted(line.split(" ")[1] for line in check.out.splitlines()[:-1]) == ["AC102", "AC201"], check.out
    fixed = run_cli("fix", "--write", cwd=ws.root)
    assert fixed.code == 0, fixed.err
    assert "Nothing to fix" not in fixed.err
    assert (runtime / "jobs.py").read_text() == (
        "# committed\n# typed, not committed\n"
        "# see ROLLBACK ON THE DEGRADED PATH in client/templates/deploy.yaml\n")
    # The claim named three lines; the block moved whole, so it names the three lines still.
    assert (runtime / "notes.py").read_text() == "# `def health():` at app.py:7-9\n"
    assert "import sys" in (runtime / "app.py").read_text()  # the user's edit, untouched
    assert run_cli("check", cwd=ws.root).code == 0
    assert git(client, "status", "--porcelain") == ""


def test_fix_staged_fixes_the_staged_text_and_names_a_file_it_must_leave(ws: WorkspaceBuilder) -> None:
    ws.repo("client", {"templates/deploy.yaml": DEPLOY, "templates/cron.yaml": "kind: CronJob\n"})
    runtime = ws.repo("runtime", {"jobs.py": "# committed\n", "other.py": "# committed\n"})
    work_tree_config(ws)
    (runtime / "jobs.py").write_text(CITE)
    (runtime / "other.py").write_text(CITE)
    git(runtime, "add", "jobs.py", "other.py")
    (runtime / "other.py").write_text(CITE + "# typed after staging\n")
    fixed = run_cli("fix", "--staged", "--write", cwd=ws.root)
    assert fixed.code == 0, fixed.err
    assert (runtime / "jobs.py").read_text() == CITE.replace("cron.yaml", "deploy.yaml")
    assert (runtime / "other.py").read_text() == CITE + "# typed after staging\n"
    assert "anchorcheck: not fixed: runtime:other.py: the file on disk differs from what is staged" in fixed.err


def test_a_ref_that_is_not_checked_out_is_named_with_how_to_fix_it(ws: WorkspaceBuilder, tmp_path: Path) -> None:
    ws.repo("client", {"templates/deploy.yaml": DEPLOY, "templates/cron.yaml": "kind: CronJob\n"})
    runtime = ws.repo("runtime", {"jobs.py": CITE})
    ws.config()  # ref = "main" for each
    (runtime / "jobs.py").write_text(CITE + "# typed, not committed\n")
    fixed = run_cli("fix", "--write", cwd=ws.root)
    assert fixed.code == 0, fixed.err
    assert (runtime / "jobs.py").read_text() == CITE + "# typed, not committed\n"
    assert "runtime:jobs.py: the file has local modifications; run fix without a ref" in fixed.err
