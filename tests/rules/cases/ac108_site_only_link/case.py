"""AC108: docs/README.md of a VitePress site links `config/index#build-target`, which
only the site resolves (no `.md`, and its heading id for `## build.target`); the link
beside it, written as GitHub resolves it (`config/index.md#buildtarget`), is fine."""

from __future__ import annotations

from tests.conftest import WorkspaceBuilder


def build(ws: WorkspaceBuilder) -> list[str]:
    ws.repo("vite", {"docs/.vitepress/config.ts": "export default {}\n",
                     "docs/config/index.md": "# Options\n\n## build.target\n\nThe browsers to build for.\n",
                     "docs/README.md": "# Docs\n\n[target](config/index#build-target)\n\n"
                                       "[target on GitHub](config/index.md#buildtarget)\n"})
    ws.config()
    return ["check", "--select", "AC108"]
