"""AC305: two PRs to the api chart each bump its Chart.yaml from 1.0.0 to 1.0.1, so the
second to land repeats a released version; a third PR bumps the web chart's
Chart.yaml to the same number, 1.0.1, which races with nobody (another file)."""

from __future__ import annotations

from tests.conftest import WorkspaceBuilder


def chart(name: str, version: str) -> str:
    return f"apiVersion: v2\nname: {name}\nversion: {version}\n"


def build(ws: WorkspaceBuilder) -> list[str]:
    ws.repo("charts", {"api/Chart.yaml": chart("api", "1.0.0"), "api/values.yaml": "replicas: 1\n",
                       "api/templates/deploy.yaml": "kind: Deployment\n",
                       "web/Chart.yaml": chart("web", "1.0.0"), "web/values.yaml": "replicas: 1\n"})
    ws.config()
    ws.pr("charts", "pr/1", {"api/Chart.yaml": chart("api", "1.0.1"), "api/values.yaml": "replicas: 2\n"})
    ws.pr("charts", "pr/2", {"api/Chart.yaml": chart("api", "1.0.1"),
                             "api/templates/deploy.yaml": "kind: Deployment\nspec: {}\n"})
    ws.pr("charts", "pr/3", {"web/Chart.yaml": chart("web", "1.0.1"), "web/values.yaml": "replicas: 2\n"})
    return ["merge-order", "--pr", "charts#1=pr/1", "--pr", "charts#2=pr/2", "--pr", "charts#3=pr/3"]
