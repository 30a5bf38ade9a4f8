"""AC201: a comment claims `type: Recreate` stands at line 4 of the chart's template,
but a line inserted above moved it to 5 (the finding gives the new number); the
claim beside it, `port: 8080` at line 7, still holds and is not reported."""

from __future__ import annotations

from tests.conftest import WorkspaceBuilder


def build(ws: WorkspaceBuilder) -> list[str]:
    ws.repo("chart", {"templates/deploy.yaml": "replicas: 1\n"
                                              "revisionHistoryLimit: 2\n"
                                              "strategy:\n"
                                              "  # one pod at a time\n"
                                              "  type: Recreate\n"
                                              "ports:\n"
                                              "  port: 8080\n"})
    ws.repo("runtime", {"jobs.py": "# One pod: `type: Recreate` at :4 of chart:templates/deploy.yaml.\n"
                                   "# It listens on `port: 8080` at :7 of chart:templates/deploy.yaml.\n"
                                   "PORT = 8080\n"})
    ws.config()
    return ["check", "--select", "AC201"]
