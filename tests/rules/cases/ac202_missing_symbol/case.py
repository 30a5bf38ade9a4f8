"""AC202: a chart comment sends the reader to runtime:probes.py:_healthz_report(), which
moved to health.py (the finding says where it is defined now); the claim beside it,
runtime:probes.py:_readiness_report(), names a function the file defines."""

from __future__ import annotations

from tests.conftest import WorkspaceBuilder


def build(ws: WorkspaceBuilder) -> list[str]:
    ws.repo("runtime", {"probes.py": "def _readiness_report():\n    return 200\n",
                        "health.py": "def _healthz_report():\n    return 503\n"})
    ws.repo("chart", {"templates/deploy.yaml": "# The liveness probe: runtime:probes.py:_healthz_report().\n"
                                              "# The readiness probe: runtime:probes.py:_readiness_report().\n"
                                              "livenessProbe:\n  httpGet:\n    path: /healthz\n"})
    ws.config()
    return ["check", "--select", "AC202"]
