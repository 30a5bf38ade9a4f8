"""AC110: a template defines its cited caps heading twice, so the citation can only
mean one; the other template repeats an uncited caps label, which is no duplicate."""

from __future__ import annotations

from tests.conftest import WorkspaceBuilder


def build(ws: WorkspaceBuilder) -> list[str]:
    ws.repo("chart", {"templates/deploy.yaml": "# ROLLBACK ON THE DEGRADED PATH\n# Recreate, never rolling.\n"
                                              "strategy:\n  type: Recreate\n"
                                              "# ROLLBACK ON THE DEGRADED PATH\n# Again, for the sidecar.\n"
                                              "sidecar: true\n",
                      "values.yaml": "## ONLY FOR DAEMONSETS:\n## Can be RollingUpdate or OnDelete\n"
                                     "updateStrategy: RollingUpdate\n"
                                     "## ONLY FOR DAEMONSETS:\n## The node selector\nnodeSelector: {}\n"})
    ws.repo("runtime", {"jobs.py": "# see ROLLBACK ON THE DEGRADED PATH in chart:templates/deploy.yaml\n"
                                   "PORT = 8080\n"})
    ws.config()
    return ["check", "--select", "AC110"]
