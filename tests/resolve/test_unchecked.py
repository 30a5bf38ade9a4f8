"""Nothing dropped in silence (issue 40, item 2): every reference extracted and not
judged is counted with its reason; `refs --unresolved` lists them, `check -v` counts them."""

from __future__ import annotations

import json
import re

import pytest

from anchorcheck.model.reference import Reference, RefKind
from anchorcheck.resolve.resolver import Resolution, Status, Unchecked
from tests.conftest import WorkspaceBuilder, run_cli

DOCS = """# Docs

See [the other project](https://github.com/elsewhere/thing/blob/main/README.md#usage),
[a placeholder](../foo/bar.md), and [a real one](api.md#api).
Fixed by elsewhere/thing#12. See "some quoted words" for more.
"""
# A code file's link to an id a build generates: the file is checked, the fragment not.
GEN = "# See [the built page](api.md#gateway.networking.k8s.io/v1beta1.Gateway).\nX = 1\n"
CHANGELOG = "# Changelog\n\n## 1.0\n\n- Removed [the old guide](old/guide.md).\n"


def _workspace(ws: WorkspaceBuilder) -> None:
    ws.repo("docs", {"README.md": DOCS, "api.md": "# API\n", "CHANGELOG.md": CHANGELOG, "gen.py": GEN})
    ws.repo("app", {"main.py": "# see client/x.py:3 for why\nX = 1\n"})
    ws.config()


def test_an_unchecked_resolution_must_say_why() -> None:
    ref = Reference.make(RefKind.PATH, 1, 0, "x.md", target_path="x.md")
    with pytest.raises(ValueError, match="needs its reason"):
        Resolution(ref, Status.EXTERNAL)
    assert Resolution(ref, Status.EXTERNAL, unchecked=Unchecked.OUTSIDE).unchecked is Unchecked.OUTSIDE


def test_every_reference_is_judged_or_counted_with_its_reason(ws: WorkspaceBuilder) -> None:
    _workspace(ws)
    every = json.loads(run_cli("refs", "--all", "--format", "json", cwd=ws.root).out)["references"]
    assert every, "the workspace cites things"
    for row in every:
        assert row["status"] != "external" or row["unchecked"], row
    unchecked = json.loads(run_cli("refs", "--unresolved", "--format", "json", cwd=ws.root).out)["references"]
    reasons = sorted((row["path"], row["line"], row["unchecked"]) for row in unchecked)
    assert reasons == [
        ("CHANGELOG.md", 5, "changelog"),
        ("README.md", 3, "outside-workspace"),
        ("README.md", 4, "placeholder"),
        ("README.md", 5, "forge-issue"),
        ("README.md", 5, "quoted-prose"),
        ("gen.py", 1, "built-fragment"),
    ]
    # Judged, so in neither list: the real fragment (resolved), the missing file (AC105).
    judged = {(row["path"], row["line"], row["status"]) for row in every if not row["unchecked"]}
    assert judged == {("README.md", 4, "resolved"), ("main.py", 1, "dangling-path")}

    # check -v counts the same, by reason.
    r = run_cli("check", "-v", cwd=ws.root)
    said = next(line for line in r.err.splitlines() if "not judged" in line)
    whole = dict((k, int(v)) for k, v in re.findall(r"([a-z-]+) (\d+)", said.split("; fragment")[0].split("(")[1]))
    assert whole == {"changelog": 1, "forge-issue": 1, "outside-workspace": 1, "placeholder": 1, "quoted-prose": 1}
    assert "fragment not judged: 1 (built-fragment 1)" in said
    text = run_cli("refs", "--unresolved", cwd=ws.root).out
    assert "docs:README.md:3:25: https://github.com/elsewhere/thing/blob/main/README.md#usage -> external - (not checked: outside-workspace)" in text
