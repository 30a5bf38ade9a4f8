"""AC206: a change replaces `type: Recreate` with `RollingUpdate` under a comment it
leaves alone, which still says `Recreate`; the port it changes beside a comment it
rewrites in the same line is left alone. Run as `check --changed-only` against the
base, with the config checking the change's branch."""

from __future__ import annotations

from tests.conftest import WorkspaceBuilder

BASE = ("spec:\n"
        "  # `Recreate` stops the old pod before the new one starts.\n"
        "  strategy:\n"
        "    type: Recreate\n"
        "  ports:\n"
        "    - containerPort: 8080  # the runtime's PORT default, 8080\n")


def build(ws: WorkspaceBuilder) -> list[str]:
    ws.repo("chart", {"templates/deploy.yaml": BASE})
    ws.pr("chart", "pr/7", {"templates/deploy.yaml": BASE.replace("type: Recreate", "type: RollingUpdate")
                                                         .replace("8080", "9090")})
    ws.config({"chart": "pr/7"})
    return ["check", "--changed-only", "chart=main", "--select", "AC206"]
