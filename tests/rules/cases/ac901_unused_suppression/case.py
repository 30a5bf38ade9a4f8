"""AC901: an `anchorcheck: ignore[AC101]` above a citation that now resolves
suppresses nothing; the one above a citation that still dangles is in use (and hides
its AC101)."""

from __future__ import annotations

from tests.conftest import WorkspaceBuilder


def build(ws: WorkspaceBuilder) -> list[str]:
    ws.repo("chart", {"templates/deploy.yaml": "# STRATEGY\n# Recreate.\nstrategy:\n  type: Recreate\n"})
    ws.repo("runtime", {"jobs.py": "# anchorcheck: ignore[AC101]\n"
                                   "# see STRATEGY in chart:templates/deploy.yaml\n"
                                   "PORT = 8080\n"
                                   "\n"
                                   "# anchorcheck: ignore[AC101]\n"
                                   "# see RETRY POLICY FOR UPLOADS in chart:templates/deploy.yaml\n"
                                   "RETRIES = 3\n"})
    ws.config()
    return ["check", "--select", "AC101", "--select", "AC901"]
