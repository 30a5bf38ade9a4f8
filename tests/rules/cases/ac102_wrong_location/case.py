"""AC102: a citation names the chart's cronjob template, but the heading it cites is in
the deployment template, so the finding names the right file; the citation beside it
that names the deployment template resolves."""

from __future__ import annotations

from tests.conftest import WorkspaceBuilder


def build(ws: WorkspaceBuilder) -> list[str]:
    ws.repo("chart", {"templates/deploy.yaml": "# ROLLBACK ON THE DEGRADED PATH\n# Recreate, never rolling.\n"
                                              "strategy:\n  type: Recreate\n",
                      "templates/cronjob.yaml": "kind: CronJob\n"})
    ws.repo("runtime", {"jobs.py": "# see ROLLBACK ON THE DEGRADED PATH in chart:templates/cronjob.yaml\n"
                                   "# see ROLLBACK ON THE DEGRADED PATH in chart:templates/deploy.yaml\n"
                                   "PORT = 8080\n"})
    ws.config()
    return ["check", "--select", "AC102"]
