"""AC105: a README links docs/runbook.md, which moved to docs/ops/runbook.md, so the
link matches no file; the link beside it to the new place resolves."""

from __future__ import annotations

from tests.conftest import WorkspaceBuilder


def build(ws: WorkspaceBuilder) -> list[str]:
    ws.repo("backend", {"docs/ops/runbook.md": "# Runbook\n\nRestart the worker.\n",
                        "README.md": "# Backend\n\nSee the [runbook](docs/runbook.md).\n\n"
                                     "See the [moved runbook](docs/ops/runbook.md).\n"})
    ws.config()
    return ["check", "--select", "AC105"]
