"""A CI that cannot go green by mistake: a mistyped --changed-only REV, a repo that is
not there."""

from __future__ import annotations

from anchorcheck.git.repobuilder import commit, git
from tests.conftest import WorkspaceBuilder, run_cli


def test_a_changed_only_rev_in_no_repo_is_exit_2(ws: WorkspaceBuilder) -> None:
    ws.repo("a", {"x.py": "# see MISSING HEADING HERE in x.py\n"})
    ws.config()
    r = run_cli("check", "--changed-only", "nosuchrev", cwd=ws.root)
    assert r.code == 2 and "No problems" not in r.out
    assert r.err.strip() == "anchorcheck: error: --changed-only 'nosuchrev' names no commit in any repo of the workspace"


def test_a_bare_rev_missing_from_some_repos_is_a_warning_naming_them(ws: WorkspaceBuilder) -> None:
    a = ws.repo("a", {"x.py": "x = 1\n"})
    ws.repo("b", {"y.py": "y = 1\n"})
    git(a, "tag", "v1")
    commit(a, {"x.py": "# see MISSING HEADING HERE in x.py\n"}, "cite")
    ws.config()
    r = run_cli("check", "--changed-only", "v1", cwd=ws.root)
    assert r.code == 1, r.err
    assert "warning: --changed-only 'v1' is not in b: nothing there counts as changed" in r.err
    assert "AC101" in r.out


def test_a_missing_repo_is_exit_2_unless_allowed(ws: WorkspaceBuilder) -> None:
    ws.repo("a", {"x.py": "# see MISSING HEADING HERE in x.py\n"})
    config = ws.config()
    config.write_text(config.read_text() + '\n[[repo]]\nname = "gone"\npath = "gone"\n')
    r = run_cli("check", cwd=ws.root)
    assert r.code == 2 and "gone: no such directory" in r.err
    allowed = run_cli("check", "--allow-missing", cwd=ws.root)
    assert allowed.code == 1, allowed.err
    assert "warning: repo gone left out (--allow-missing)" in allowed.err and "AC101" in allowed.out
