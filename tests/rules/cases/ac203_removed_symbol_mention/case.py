"""AC203: a chart comment names the runtime's `_healthz_report()`, whose definition a
later runtime commit deleted (the finding names that commit; a mention in another
repo counts because its line names the runtime). Beside it, `_readiness_report()`,
which the same commit moved to probes.py, is still defined, and `os.getenv()` was
never defined in the workspace (a library call): neither is reported."""

from __future__ import annotations

from anchorcheck.git.repobuilder import commit
from tests.conftest import WorkspaceBuilder


def build(ws: WorkspaceBuilder) -> list[str]:
    runtime = ws.repo("runtime", {"health.py": "def _healthz_report():\n    return 200\n\n\n"
                                               "def _readiness_report():\n    return 200\n"})
    commit(runtime, {"health.py": None, "probes.py": "def _readiness_report():\n    return 200\n"},
           "drop the healthz report")
    ws.repo("chart", {"templates/deploy.yaml": "# The runtime's liveness is `_healthz_report()`, readiness\n"
                                              "# `_readiness_report()`; both read the port with `os.getenv()`.\n"
                                              "livenessProbe:\n  httpGet:\n    path: /healthz\n"})
    ws.config()
    return ["check", "--select", "AC203"]
