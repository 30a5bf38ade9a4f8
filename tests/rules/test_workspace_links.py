"""Relative Markdown links between the repos of a workspace (issue 42, item 3): a link
that leaves its repo lands in the sibling repo whose folder holds it, as GitHub Pages,
MkDocs' monorepo plugin and editors read it when the repos sit side by side; and the
`repo:path` form a citation uses also works as a link target."""

from __future__ import annotations

from pathlib import Path

from anchorcheck.git.repobuilder import init_repo
from tests.conftest import WorkspaceBuilder, run_cli

APP_README = "# App\n\n## Health checks\n\nThe probe is on /healthz.\n"
DOCS = """\
# Docs

- [health](../app/README.md#health-checks)
- [gone](../app/README.md#health-chekcs)
- [typo in the repo](../appx/README.md)
- [repo form](app:README.md#health-checks)
- [repo form, bad fragment](app:README.md#nope)
- [repo form, no file](app:nofile.md)
- [a scheme](zotero:select/items/ABC)
"""


def _findings(out: str, repo: str) -> list[tuple[str, str]]:
    return sorted((x.split(":")[2], x.split()[1]) for x in out.splitlines() if x.startswith(f"{repo}:"))


def test_links_into_a_sibling_repo_resolve_and_their_fragments_are_checked(ws: WorkspaceBuilder) -> None:
    ws.repo("app", {"README.md": APP_README})
    ws.repo("docs", {"guide.md": DOCS})
    r = ws.check("--fail-on", "never")
    # 3 and 6 resolve; 4 and 7: the page lacks the fragment; 5: no repo's folder holds
    # `appx`; 8: no such file in app; 9: a URL scheme, not a repo, so not judged.
    assert _findings(r.out, "docs") == [("4", "AC101"), ("5", "AC105"), ("7", "AC101"), ("8", "AC105")], r.out
    lines = r.out.splitlines()
    assert "did you mean 'health-checks'" in next(x for x in lines if x.startswith("docs:guide.md:4:"))
    leaving = next(x for x in lines if x.startswith("docs:guide.md:5:"))
    # What would have resolved: the same file, in the repo that holds it.
    assert "leaves repo docs" in leaving and "../app/README.md (repo app) would resolve" in leaving, leaving
    assert "zotero" not in r.out


def test_a_link_leaving_the_repo_into_no_repo_says_where_the_repos_are(ws: WorkspaceBuilder) -> None:
    ws.repo("app", {"README.md": APP_README})
    ws.repo("docs", {"guide.md": "# Docs\n\n[x](../elsewhere/notes.md)\n"})
    r = ws.check("--fail-on", "never")
    line = next(x for x in r.out.splitlines() if x.startswith("docs:guide.md:3:"))
    assert "AC105" in line and "into no repo's folder" in line and "../app" in line, line


def test_the_sibling_is_found_by_folder_not_by_name(ws: WorkspaceBuilder) -> None:
    # The repo named `service` is checked out in the folder `svc`: the link names the
    # folder, as it would on disk.
    ws.repo("svc", {"README.md": APP_README})
    ws.repo("docs", {"guide.md": "# Docs\n\n[ok](../svc/README.md#health-checks)\n[bad](../svc/README.md#x)\n"})
    (ws.root / "anchorcheck.toml").write_text(
        '[[repo]]\nname = "service"\npath = "svc"\n\n[[repo]]\nname = "docs"\npath = "docs"\n', encoding="utf-8")
    r = run_cli("check", "--fail-on", "never", cwd=ws.root)
    assert _findings(r.out, "docs") == [("4", "AC101")], r.out + r.err


def test_a_single_repo_link_that_leaves_the_repo_says_so(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "solo", {"README.md": "# Solo\n\n[up](../other/README.md)\n"})
    r = run_cli("check", "--fail-on", "never", cwd=repo)
    line = next(x for x in r.out.splitlines() if "AC105" in x)
    assert "leaves repo" in line, line
