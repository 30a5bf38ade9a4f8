"""What the merge-order cases whose PRs carry descriptions share (AC307, AC308):
descriptions reach merge-order only from a forge (`--open-prs`), so each repo's origin
is itself, holding refs/pull/N/head, and each PR is listed on the forge on 127.0.0.1."""

from __future__ import annotations

from tests.conftest import WorkspaceBuilder, git
from tests.forge.server import Forge

ROLLBACK = "# ROLLBACK ON THE DEGRADED PATH\n# Recreate.\nkind: Deployment\n"
PORT = "# WHY PORT EIGHTY EIGHTY\n# The probe expects it.\nport: 8080\n"


def chart_and_runtime(ws: WorkspaceBuilder) -> None:
    """The two repos, each its own origin, with their GitHub urls."""
    ws.repo("chart", {"deploy.yaml": "kind: Deployment\n", "values.yaml": "port: 8080\n"})
    ws.repo("runtime", {"jobs.py": "PORT = 8080\n"})
    for path in ws.repos.values():
        git(path, "remote", "add", "origin", str(path))
    ws.with_urls("acme", "chart", "runtime")


def open_pr(ws: WorkspaceBuilder, forge: Forge, repo: str, number: int, files: dict[str, str],
            body: str = "") -> None:
    sha = ws.pr(repo, f"pr/{number}", files)
    git(ws.repos[repo], "update-ref", f"refs/pull/{number}/head", sha)
    forge.repo(f"acme/{repo}").add_pull(number, title=f"PR {number}", body=body, head_sha=sha,
                                        head_ref=f"pr/{number}", base_ref="main")
