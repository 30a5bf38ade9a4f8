"""A CI that cannot go green by mistake: a mistyped --changed-only REV, a repo that is
not there."""

from __future__ import annotations

import json

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


def test_positional_paths_keep_their_findings_and_the_work_tree_is_read(ws: WorkspaceBuilder) -> None:
    repo = ws.repo("proj", {"docs/a.md": "See [gone](gone.md).\n", "b.md": "See [a](docs/a.md#nope).\n",
                            "docs/c.md": "# C\n"})
    # Single-repo mode: no config; paths are shown without the repo's name.
    whole = run_cli("check", cwd=repo)
    assert whole.code == 1 and "docs/a.md:1:5: AC105" in whole.out and "b.md:1:5: AC101" in whole.out
    assert not any(line.startswith("proj:") for line in whole.out.splitlines())
    only = run_cli("check", "docs", cwd=repo)
    assert "docs/a.md:1:5: AC105" in only.out and "b.md" not in only.out
    # A citation into a file not named still resolves: c.md has none, b.md is left out.
    assert run_cli("check", "docs/c.md", cwd=repo).code == 0
    outside = run_cli("check", "/", cwd=repo)
    assert outside.code == 2 and "not in any repo of the workspace" in outside.err
    # The fix, not yet committed, is what is checked.
    (repo / "docs" / "a.md").write_text("See [c](c.md).\n")
    fixed = run_cli("check", "docs", cwd=repo)
    assert fixed.code == 0, fixed.out
    assert run_cli("check", "--staged", "docs", cwd=repo).code == 1  # not staged yet


def test_changed_only_tells_a_chart_change_that_leaves_the_version(ws: WorkspaceBuilder) -> None:
    repo = ws.repo("client", {"charts/app/Chart.yaml": "name: app\nversion: 1.9.58\n",
                              "charts/app/templates/deploy.yaml": "# why Recreate\nkind: Deployment\n"})
    git(repo, "checkout", "-q", "-b", "feature")
    commit(repo, {"charts/app/templates/deploy.yaml": "# why Recreate, said better\nkind: Deployment\n"}, "reword")
    ws.config({"client": "feature"})
    r = run_cli("check", "--changed-only", "main", "--format", "json", cwd=ws.root)
    [found] = json.loads(r.out)["findings"]
    assert (found["code"], found["path"], found["line"], found["suggestion"]) == \
        ("AC306", "charts/app/Chart.yaml", 2, "1.9.59")
    assert r.code == 1
    commit(repo, {"charts/app/Chart.yaml": "name: app\nversion: 1.9.59\n"}, "bump")
    assert json.loads(run_cli("check", "--changed-only", "main", "--format", "json", cwd=ws.root).out)["findings"] == []
    # Off like any rule.
    commit(repo, {"charts/app/templates/deploy.yaml": "kind: Deployment\n"}, "again, at 1.9.59 now")
    r = run_cli("check", "--changed-only", "HEAD~1", "--ignore", "AC306", cwd=ws.root)
    assert r.code == 0, r.out
