"""AC303: a chart PR and a runtime PR each cite a heading that only the other adds, so
no merge order lets both land resolved; the runtime's other PR cites a heading of the
chart PR one way only, which orders it (AC301) but makes no cycle."""

from __future__ import annotations

from tests.conftest import WorkspaceBuilder


def build(ws: WorkspaceBuilder) -> list[str]:
    ws.repo("chart", {"values.yaml": "port: 8080\n"})
    ws.repo("runtime", {"jobs.py": "PORT = 8080\n", "worker.py": "RETRIES = 3\n"})
    ws.config()
    ws.pr("chart", "pr/1", {"values.yaml": "# WHY PORT EIGHTY EIGHTY\n# The probe expects it.\n"
                                           "# see RETRY BUDGET FOR JOBS in runtime:jobs.py\nport: 8080\n"})
    ws.pr("runtime", "pr/2", {"jobs.py": "# RETRY BUDGET FOR JOBS\n# Three, then give up.\n"
                                         "# see WHY PORT EIGHTY EIGHTY in chart:values.yaml\nPORT = 8080\n"})
    ws.pr("runtime", "pr/3", {"worker.py": "# see WHY PORT EIGHTY EIGHTY in chart:values.yaml\n"
                                           "RETRIES = 3\n"})
    return ["merge-order", "--pr", "chart#1=pr/1", "--pr", "runtime#2=pr/2", "--pr", "runtime#3=pr/3"]
