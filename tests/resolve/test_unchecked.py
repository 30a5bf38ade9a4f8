"""Nothing dropped in silence (issue 40, item 2): every reference extracted and not
judged is counted with its reason; `refs --unresolved` lists them, `check -v` counts them."""

from __future__ import annotations

import json
import re

import pytest

from anchorcheck.model.reference import Reference, RefKind
from anchorcheck.resolve.resolution import Resolution, Status, Unchecked
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
        # A bare `FILE:N` in a comment whose folder no repo has, and that no link names.
        ("main.py", 1, "prose-unconfirmed"),
    ]
    # Judged, so in neither list: the real fragment (resolved).
    judged = {(row["path"], row["line"], row["status"]) for row in every if not row["unchecked"]}
    assert judged == {("README.md", 4, "resolved")}

    # check -v counts the same, by reason.
    r = run_cli("check", "-v", cwd=ws.root)
    said = next(line for line in r.err.splitlines() if "not judged" in line)
    whole = dict((k, int(v)) for k, v in re.findall(r"([a-z-]+) (\d+)", said.split("; fragment")[0].split("(")[1]))
    assert whole == {"changelog": 1, "forge-issue": 1, "outside-workspace": 1, "placeholder": 1, "quoted-prose": 1,
                     "prose-unconfirmed": 1}
    assert "fragment not judged: 1 (built-fragment 1)" in said
    text = run_cli("refs", "--unresolved", cwd=ws.root).out
    assert "docs:README.md:3:25: https://github.com/elsewhere/thing/blob/main/README.md#usage -> external - (not checked: outside-workspace)" in text


def test_each_finding_says_its_syntax_and_prose_can_be_ignored(ws: WorkspaceBuilder) -> None:
    ws.repo("app", {
        "docs/guide.md": "# Guide\n",
        "README.md": "# App\n\nSee [the guide](docs/guide.md#nowhere).\n",
        "main.py": "# The retry lives at docs/guide.md:9 too.\nX = 1\n",
    })
    ws.config()
    r = run_cli("check", "--format", "json", cwd=ws.root)
    found = sorted((f["code"], f["path"], f["evidence"], f["prose"]) for f in json.loads(r.out)["findings"])
    assert found == [("AC101", "README.md", "link", False), ("AC201", "main.py", "path-line", True)]
    sarif = json.loads(run_cli("check", "--format", "sarif", cwd=ws.root).out)
    props = sorted((res["ruleId"], res["properties"]["evidence"]) for res in sarif["runs"][0]["results"])
    assert props == [("AC101", "link"), ("AC201", "path-line")]

    config = ws.root / "anchorcheck.toml"
    config.write_text(config.read_text(encoding="utf-8") + '[settings]\nignore-evidence = ["prose"]\n',
                      encoding="utf-8")
    r = run_cli("check", "--format", "json", cwd=ws.root)
    assert [(f["code"], f["evidence"]) for f in json.loads(r.out)["findings"]] == [("AC101", "link")]
    bad = ws.root / "bad.toml"
    bad.write_text('[[repo]]\nname = "app"\npath = "app"\n[settings]\nignore-evidence = ["prosey"]\n',
                   encoding="utf-8")
    r = run_cli("check", "--config", str(bad), cwd=ws.root)
    assert r.code == 2 and "'prosey' is not one of prose, link" in r.err and "Traceback" not in r.err
