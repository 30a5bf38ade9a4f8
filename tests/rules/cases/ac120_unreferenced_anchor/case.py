"""AC120 (off by default, so selected here): a caps heading that nothing in the
workspace cites; the caps heading beside it, which the runtime cites, and the
README's Markdown heading, which is exempt, are not reported."""

from __future__ import annotations

from tests.conftest import WorkspaceBuilder


def build(ws: WorkspaceBuilder) -> list[str]:
    ws.repo("chart", {"templates/deploy.yaml": "# ROLLBACK ON THE DEGRADED PATH\n# Recreate, never rolling.\n"
                                              "strategy:\n  type: Recreate\n\n"
                                              "# RETRY POLICY FOR UPLOADS\n# Three tries, then give up.\n"
                                              "retries: 3\n",
                      "README.md": "# Chart\n\n## Upgrading\n\nRun helm upgrade.\n"})
    ws.repo("runtime", {"jobs.py": "# see ROLLBACK ON THE DEGRADED PATH in chart:templates/deploy.yaml\n"
                                   "PORT = 8080\n"})
    ws.config()
    return ["check", "--select", "AC120"]
