"""AC104: a citation names repo `clinet`, which the workspace does not have, with a
did-you-mean for `client`; the citation beside it naming `client` resolves."""

from __future__ import annotations

from tests.conftest import WorkspaceBuilder


def build(ws: WorkspaceBuilder) -> list[str]:
    ws.repo("client", {"templates/deploy.yaml": "# ROLLBACK ON THE DEGRADED PATH\n# Recreate, never rolling.\n"
                                               "strategy:\n  type: Recreate\n"})
    ws.repo("runtime", {"jobs.py": "# see ROLLBACK ON THE DEGRADED PATH in clinet:templates/deploy.yaml\n"
                                   "# see ROLLBACK ON THE DEGRADED PATH in client:templates/deploy.yaml\n"
                                   "PORT = 8080\n"})
    ws.config()
    return ["check", "--select", "AC104"]
