"""AC304: two chart PRs change the same line of values.yaml (port, line 3), so whichever
lands second needs a rebase; a third PR edits another line of the same file, far
enough away that it merges cleanly with both."""

from __future__ import annotations

from tests.conftest import WorkspaceBuilder

VALUES = "replicas: 1\nimage: app:1.0\nport: 8080\nmemory: 256Mi\ncpu: 100m\ntimeout: 30\n"


def build(ws: WorkspaceBuilder) -> list[str]:
    ws.repo("chart", {"values.yaml": VALUES})
    ws.config()
    ws.pr("chart", "pr/1", {"values.yaml": VALUES.replace("port: 8080", "port: 9090")})
    ws.pr("chart", "pr/2", {"values.yaml": VALUES.replace("port: 8080", "port: 9091")})
    ws.pr("chart", "pr/3", {"values.yaml": VALUES.replace("timeout: 30", "timeout: 60")})
    return ["merge-order", "--pr", "chart#1=pr/1", "--pr", "chart#2=pr/2", "--pr", "chart#3=pr/3"]
