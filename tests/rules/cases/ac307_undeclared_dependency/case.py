"""AC307: runtime#2's description declares `Depends-On: chart#1`, and the PR cites a
heading chart#1 adds and another that only chart#3 adds, which it does not declare;
the dependency on chart#1, declared, is not reported. Descriptions reach merge-order
only from a forge (`--open-prs`): each repo's origin is itself, holding refs/pull/N/head."""

from __future__ import annotations

from tests.conftest import WorkspaceBuilder
from tests.forge.server import Forge
from tests.rules.cases.forge_prs import PORT, ROLLBACK, chart_and_runtime, open_pr

CITES = ("# see ROLLBACK ON THE DEGRADED PATH in chart:deploy.yaml\n"
         "# see WHY PORT EIGHTY EIGHTY in chart:values.yaml\n")


def build(ws: WorkspaceBuilder, forge: Forge) -> list[str]:
    chart_and_runtime(ws)
    open_pr(ws, forge, "chart", 1, {"deploy.yaml": ROLLBACK})
    open_pr(ws, forge, "chart", 3, {"values.yaml": PORT})
    open_pr(ws, forge, "runtime", 2, {"jobs.py": CITES + "PORT = 8080\n"},
            body="Cites the chart's notes.\n\nDepends-On: chart#1\n")
    return ["merge-order", "--open-prs"]
