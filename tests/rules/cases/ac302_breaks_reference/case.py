"""AC302: a chart PR renames a heading that the runtime's base still cites, so merging
it leaves that citation dangling; the chart's other PR renames a heading that nothing
cites, which breaks nothing."""

from __future__ import annotations

from tests.conftest import WorkspaceBuilder


def build(ws: WorkspaceBuilder) -> list[str]:
    ws.repo("chart", {"templates/deploy.yaml": "# ROLLBACK ON THE DEGRADED PATH\n# Recreate, never rolling.\n"
                                              "strategy:\n  type: Recreate\n",
                      "templates/service.yaml": "# WHY PORT EIGHTY EIGHTY\n# The probe expects it.\n"
                                                "port: 8080\n"})
    ws.repo("runtime", {"jobs.py": "# see ROLLBACK ON THE DEGRADED PATH in chart:templates/deploy.yaml\n"
                                   "PORT = 8080\n"})
    ws.config()
    ws.pr("chart", "pr/1", {"templates/deploy.yaml": "# ROLLBACK POLICY\n# Recreate, never rolling.\n"
                                                    "strategy:\n  type: Recreate\n"})
    ws.pr("chart", "pr/2", {"templates/service.yaml": "# WHY THIS PORT\n# The probe expects it.\n"
                                                     "port: 8080\n"})
    return ["merge-order", "--pr", "chart#1=pr/1", "--pr", "chart#2=pr/2"]
