"""AC306: a PR edits a comment in the api chart's template and leaves its Chart.yaml at
1.0.0, which the chart repo's version guard fails; the chart's other PR edits its
values and bumps to 1.0.1, and a third edits a file outside any chart: neither is told
(the version suggested to the first is past the open bump: 1.0.2)."""

from __future__ import annotations

from tests.conftest import WorkspaceBuilder


def build(ws: WorkspaceBuilder) -> list[str]:
    ws.repo("charts", {"api/Chart.yaml": "apiVersion: v2\nname: api\nversion: 1.0.0\n",
                       "api/values.yaml": "replicas: 1\n",
                       "api/templates/deploy.yaml": "# why Recreate\nkind: Deployment\n",
                       "scripts/release.sh": "helm package api\n"})
    ws.config()
    ws.pr("charts", "pr/1", {"api/templates/deploy.yaml": "# why Recreate, said better\nkind: Deployment\n"})
    ws.pr("charts", "pr/2", {"api/values.yaml": "replicas: 2\n",
                             "api/Chart.yaml": "apiVersion: v2\nname: api\nversion: 1.0.1\n"})
    ws.pr("charts", "pr/3", {"scripts/release.sh": "helm package --sign api\n"})
    return ["merge-order", "--pr", "charts#1=pr/1", "--pr", "charts#2=pr/2", "--pr", "charts#3=pr/3"]
