"""AC308: runtime#2's description declares `Depends-On: chart#1` and `Depends-On: chart#3`;
it cites the heading chart#1 adds, but nothing chart#3 changes, so the chart#3 line
holds it back for nothing; the chart#1 line, needed, is not reported. Descriptions
reach merge-order only from a forge (`--open-prs`): each repo's origin is itself,
holding refs/pull/N/head."""

from __future__ import annotations

from tests.conftest import WorkspaceBuilder
from tests.forge.server import Forge
from tests.rules.cases.forge_prs import PORT, ROLLBACK, chart_and_runtime, open_pr

CITES = "# see ROLLBACK ON THE DEGRADED PATH in chart:deploy.yaml\n"


def build(ws: WorkspaceBuilder, forge: Forge) -> list[str]:
    chart_and_runtime(ws)
    open_pr(ws, forge, "chart", 1, {"deploy.yaml": ROLLBACK})
    open_pr(ws, forge, "chart", 3, {"values.yaml": PORT})
    open_pr(ws, forge, "runtime", 2, {"jobs.py": CITES + "PORT = 8080\n"},
            body="Cites the chart's note.\n\nDepends-On: chart#1\n"
                 "Depends-On: https://github.com/acme/chart/pull/3\n")
    return ["merge-order", "--open-prs"]
