"""AC205: a note cites steps.py:4-5 with no text of its own; a later commit rewrote
line 5 in place, so the claim points at real lines but not the ones its author read
(the finding names that commit). The note's other claim, steps.py:8, meant lines that
still stand unchanged where they were, and is not reported."""

from __future__ import annotations

from anchorcheck.git.repobuilder import commit
from tests.conftest import WorkspaceBuilder

STEPS = "".join(f"step_{n} = {n}\n" for n in range(1, 11))


def build(ws: WorkspaceBuilder) -> list[str]:
    app = ws.repo("app", {"steps.py": STEPS,
                          "notes.py": "# The retry steps: steps.py:4-5.\n# The last check: steps.py:8.\nx = 1\n"})
    commit(app, {"steps.py": STEPS.replace("step_5 = 5", "step_5 = retry(5)")}, "retry step five")
    ws.config()
    return ["check", "--select", "AC205"]
