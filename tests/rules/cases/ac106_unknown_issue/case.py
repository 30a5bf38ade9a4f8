"""AC106: a comment sends the reader to an issue the forge does not have (a mistyped
number); the citation of the issue that exists, beside it, is left alone."""

from __future__ import annotations

from tests.conftest import WorkspaceBuilder
from tests.forge.server import Forge


def build(ws: WorkspaceBuilder, forge: Forge) -> list[str]:
    ws.repo("app", {"retry.py": "# Three tries, not five: see issue #1922 for why.\n"
                                "# The backoff doubles each time; see issue #19222.\n"
                                "RETRIES = 3\n"})
    ws.with_urls("acme", "app")
    forge.repo("acme/app").add_issue(1922, title="Cap the upload retries", state="open")
    return ["check", "--select", "AC106"]
