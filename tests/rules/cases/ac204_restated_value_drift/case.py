"""AC204: the chart restates the runtime's port default, 8080, but the runtime now
reads INGESTION_HTTP_PORT with a default of 9090 (the finding names the new value
and where it stands); the line beside it restates the runtime's WORKERS constant,
2, correctly, and is not reported."""

from __future__ import annotations

from tests.conftest import WorkspaceBuilder


def build(ws: WorkspaceBuilder) -> list[str]:
    ws.repo("runtime", {"jobs_manager.py": "import os\n\nWORKERS = 2\n\n\ndef main():\n"
                                           '    port = int(os.getenv("INGESTION_HTTP_PORT", "9090"))\n'})
    ws.repo("chart", {"templates/deploy.yaml": "containers:\n  - name: runtime\n"
                                              "    containerPort: 8080  # restates "
                                              "runtime:jobs_manager.py::env.INGESTION_HTTP_PORT\n"
                                              "    workers: 2  # restates runtime:jobs_manager.py::WORKERS\n"})
    ws.config()
    return ["check", "--select", "AC204"]
