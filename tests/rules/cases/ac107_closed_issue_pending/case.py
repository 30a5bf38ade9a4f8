"""AC107: a comment says it waits on an issue the forge has closed; beside it, a
neutral mention of another closed issue ("History: ...") and a wait on an issue still
open are left alone."""

from __future__ import annotations

from tests.conftest import WorkspaceBuilder
from tests.forge.server import Forge


def build(ws: WorkspaceBuilder, forge: Forge) -> list[str]:
    ws.repo("app", {"values.yaml": "# Draft pending the decision on issue #1922.\n"
                                   "# History: issue #1779 chose Recreate over RollingUpdate.\n"
                                   "# Blocked on issue #1930 (still being decided).\n"
                                   "replicas: 1\n"})
    ws.with_urls("acme", "app")
    app = forge.repo("acme/app")
    app.add_issue(1922, title="Confirm the rollback trade", state="closed")
    app.add_issue(1779, title="Recreate or RollingUpdate", state="closed")
    app.add_issue(1930, title="Still being decided", state="open")
    return ["check", "--select", "AC107"]
