"""AC101: a citation of a heading that exists nowhere, with a did-you-mean for a near
spelling; the citation of the heading as written beside it resolves."""

from __future__ import annotations

from tests.conftest import WorkspaceBuilder


def build(ws: WorkspaceBuilder) -> list[str]:
    ws.repo("chart", {"templates/deploy.yaml": "# ROLLBACK ON THE DEGRADED PATH\n# Recreate, never rolling.\n"
                                              "strategy:\n  type: Recreate\n"})
    ws.repo("runtime", {"jobs.py": "# see ROLLBACK ON THE DEGRADED PATH in chart:templates/deploy.yaml\n"
                                   "# see ROLLBACK ON THE DEGRADED PATHS in chart:templates/deploy.yaml\n"
                                   "# see RETRY POLICY FOR UPLOADS in chart:templates/deploy.yaml\n"
                                   "PORT = 8080\n"})
    ws.config()
    return ["check", "--select", "AC101"]
