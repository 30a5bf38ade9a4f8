"""AC301: a runtime PR cites a heading that only an open chart PR adds, so it must land
after it; the runtime's other PR, which cites what the base already holds, need not."""

from __future__ import annotations

from tests.conftest import WorkspaceBuilder


def build(ws: WorkspaceBuilder) -> list[str]:
    ws.repo("chart", {"templates/deploy.yaml": "# STRATEGY\n# Recreate.\nstrategy:\n  type: Recreate\n"})
    ws.repo("runtime", {"jobs.py": "PORT = 8080\n", "worker.py": "RETRIES = 3\n"})
    ws.config()
    ws.pr("chart", "pr/1", {"templates/deploy.yaml": "# ROLLBACK ON THE DEGRADED PATH\n# Recreate, never "
                                                    "rolling.\nstrategy:\n  type: Recreate\n"})
    ws.pr("runtime", "pr/2", {"jobs.py": "# see ROLLBACK ON THE DEGRADED PATH in chart:templates/deploy.yaml\n"
                                         "PORT = 8080\n"})
    ws.pr("runtime", "pr/3", {"worker.py": "# see STRATEGY in chart:templates/deploy.yaml\nRETRIES = 3\n"})
    return ["merge-order", "--pr", "chart#1=pr/1", "--pr", "runtime#2=pr/2", "--pr", "runtime#3=pr/3"]
