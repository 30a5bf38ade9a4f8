"""AC307: runtime#2's description declares `Depends-On: chart#1`, and the PR cites a
heading chart#1 adds and another that only chart#3 adds, which it does not declare;
the dependency on chart#1, declared, is not reported. Descriptions reach merge-order
only from a forge (`--open-prs`): each repo's origin is itself, holding refs/pull/N/head."""

from __future__ import annotations

from tests.conftest import WorkspaceBuilder, git
from tests.forge.server import Forge

ROLLBACK = "# ROLLBACK ON THE DEGRADED PATH\n# Recreate.\nkind: Deployment\n"
PORT = "# WHY PORT EIGHTY EIGHTY\n# The probe expects it.\nport: 8080\n"
CITES = ("# see ROLLBACK ON THE DEGRADED PATH in chart:deploy.yaml\n"
         "# see WHY PORT EIGHTY EIGHTY in chart:values.yaml\n")


def open_pr(ws: WorkspaceBuilder, forge: Forge, repo: str, number: int, files: dict[str, str],
            body: str = "") -> None:
    sha = ws.pr(repo, f"pr/{number}", files)
    git(ws.repos[repo], "update-ref", f"refs/pull/{number}/head", sha)
    forge.repo(f"acme/{repo}").add_pull(number, title=f"PR {number}", body=body, head_sha=sha,
                                        head_ref=f"pr/{number}", base_ref="main")


def build(ws: WorkspaceBuilder, forge: Forge) -> list[str]:
    ws.repo("chart", {"deploy.yaml": "kind: Deployment\n", "values.yaml": "port: 8080\n"})
    ws.repo("runtime", {"jobs.py": "PORT = 8080\n"})
    for path in ws.repos.values():
        git(path, "remote", "add", "origin", str(path))
    ws.with_urls("acme", "chart", "runtime")
    open_pr(ws, forge, "chart", 1, {"deploy.yaml": ROLLBACK})
    open_pr(ws, forge, "chart", 3, {"values.yaml": PORT})
    open_pr(ws, forge, "runtime", 2, {"jobs.py": CITES + "PORT = 8080\n"},
            body="Cites the chart's notes.\n\nDepends-On: chart#1\n")
    return ["merge-order", "--open-prs"]
