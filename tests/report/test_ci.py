"""CI integration: every reporter against golden files, SARIF against the official
schema, select/ignore, suppressions, baselines, --changed-only, rule docs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest

from anchorcheck.config.selection import Selection
from anchorcheck.git.repobuilder import commit, git
from anchorcheck.report.rulesdoc import rules_markdown
from anchorcheck.rules import REGISTRY
from tests.conftest import WorkspaceBuilder, run_cli

ROOT = Path(__file__).resolve().parents[2]  # the checkout: tests/<wing>/this file
GOLDEN = ROOT / "tests" / "golden"
SCHEMA = json.loads((ROOT / "tests" / "data" / "sarif-schema-2.1.0.json").read_text())

DEPLOY = "spec:\n  # ROLLBACK ON THE DEGRADED PATH\n  # Recreate plus --atomic rolls back.\n  strategy: Recreate\n"


def fixed_workspace(ws: WorkspaceBuilder) -> None:
    ws.repo("client", {
        "templates/deploy.yaml": DEPLOY + "  # ROLLBACK ON THE DEGRADED PATH\n  # again\n",
        "templates/cron.yaml": "kind: CronJob\n",
    })
    ws.repo("runtime", {"jobs.py": (
        "# see ROLLBACK ON THE DEGRADED PATH in client/templates/cron.yaml\n"
        "# see \"MISSING <b>HEADING</b> @team 100% ::set-output\" in client:templates/deploy.yaml\n"
        "PORT = 8080\n"
    )})
    ws.config()


def normalise(text: str, root: Path) -> str:
    return text.replace(root.resolve().as_uri(), "file:///WORKSPACE").replace(str(root.resolve()), "/WORKSPACE")


@pytest.mark.parametrize(("fmt", "suffix"), [
    ("text", "txt"), ("json", "json"), ("sarif", "sarif"), ("github", "txt"),
    ("markdown", "md"), ("junit", "xml"),
])
def test_reporter_golden_files(ws: WorkspaceBuilder, fmt: str, suffix: str) -> None:
    fixed_workspace(ws)
    r = run_cli("check", "--format", fmt, cwd=ws.root)
    assert r.code == 1, r.err
    got = normalise(r.out, ws.root)
    golden = GOLDEN / f"check.{fmt}.{suffix}"
    if os.environ.get("UPDATE_GOLDEN"):
        golden.write_text(got, encoding="utf-8")
    assert got == golden.read_text(encoding="utf-8")


def test_sarif_validates_against_the_official_schema(ws: WorkspaceBuilder) -> None:
    fixed_workspace(ws)
    doc = json.loads(run_cli("check", "--format", "sarif", cwd=ws.root).out)
    jsonschema.validate(doc, SCHEMA)
    [run] = doc["runs"]
    assert set(run["originalUriBaseIds"]) == {"client", "runtime"}
    assert {r["ruleId"] for r in run["results"]} == {"AC101", "AC102", "AC110"}
    assert all(r["partialFingerprints"]["anchorcheck/v1"] for r in run["results"])
    loc = run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert loc["uriBaseId"] in ("client", "runtime") and not loc["uri"].startswith("/")
    assert [r["id"] for r in run["tool"]["driver"]["rules"]] == list(REGISTRY)


def test_merge_order_findings_as_sarif_validate_too(ws: WorkspaceBuilder) -> None:
    from anchorcheck.config.workspace import load_workspace
    from anchorcheck.pr.change import ChangeSpec
    from anchorcheck.pr.mergeorder import analyse
    from anchorcheck.report.ci import render_sarif
    from anchorcheck.report.merge_order import advise

    ws.repo("client", {"Chart.yaml": "version: 1.0.0\n", "a.yaml": "a: 1\n"})
    # Both edit a.yaml (AC304 on each); both take 1.0.1, which client#1, landing first,
    # keeps (AC305 on client#2 only, since b3b3d1d).
    ws.pr("client", "p1", {"Chart.yaml": "version: 1.0.1\n", "a.yaml": "a: 3\n"})
    ws.pr("client", "p2", {"Chart.yaml": "version: 1.0.1\n", "a.yaml": "a: 2\n"})
    workspace = load_workspace(ws.config())
    adv = advise(analyse(workspace, [ChangeSpec.parse(p, workspace) for p in ("client#1=p1", "client#2=p2")], {}))
    doc = json.loads(render_sarif(adv.findings, workspace))
    jsonschema.validate(doc, SCHEMA)
    assert {r["properties"]["change"] for r in doc["runs"][0]["results"]} == {"client#1", "client#2"}


def test_github_commands_cannot_be_injected(ws: WorkspaceBuilder) -> None:
    fixed_workspace(ws)
    out = run_cli("check", "--format", "github", cwd=ws.root).out
    lines = out.splitlines()
    assert len(lines) == 3  # one command per finding: repo text cannot start a line
    for line in lines:
        assert line.startswith(("::error file=", "::warning file=", "::notice file="))
    assert "100%25" in out  # data is percent-encoded


def test_junit_is_well_formed_and_counts(ws: WorkspaceBuilder) -> None:
    fixed_workspace(ws)
    root = ET.fromstring(run_cli("check", "--format", "junit", cwd=ws.root).out)
    assert root.get("failures") == "3"
    suites = {s.get("name"): s for s in root.iter("testsuite")}
    assert suites["AC101 dangling-reference"].get("failures") == "1"
    assert suites["AC105 dangling-path"].get("failures") == "0"
    assert len(list(root.iter("testsuite"))) == len(REGISTRY)


def test_several_formats_at_once_and_output_file(ws: WorkspaceBuilder) -> None:
    fixed_workspace(ws)
    (ws.root / "out").mkdir()  # (outputs no longer make their folders)
    r = run_cli("check", "--format", "sarif:out/report.sarif", "--format", "text", cwd=ws.root)
    assert r.code == 1
    assert "AC102" in r.out and "Found 3 problems" in r.out
    jsonschema.validate(json.loads((ws.root / "out" / "report.sarif").read_text()), SCHEMA)
    r = run_cli("check", "--format", "json", "--output", "r.json", cwd=ws.root)
    assert r.out == "" and json.loads((ws.root / "r.json").read_text())["summary"]["total"] == 3
    bad = run_cli("check", "--format", "json", "--format", "text", cwd=ws.root)
    assert bad.code == 2 and "only one --format may go to stdout" in bad.err
    bad = run_cli("check", "--format", "yaml", cwd=ws.root)
    assert bad.code == 2 and "'yaml' is not one of" in bad.err


@pytest.mark.parametrize(("select", "ignore", "code", "expected"), [
    ((), (), "AC101", True),
    ((), (), "AC120", False),  # off by default
    (("AC101",), (), "AC102", False),  # a selection replaces the default set
    (("AC1",), (), "AC120", True),  # selecting a prefix turns its rules on
    ((), ("AC1",), "AC101", False),
    (("AC101",), ("AC1",), "AC101", True),  # the longer prefix wins
    (("AC1",), ("AC101",), "AC101", False),
    (("AC1",), ("AC101",), "AC102", True),
    (("AC101",), ("AC101",), "AC101", False),  # equal: ignore wins
    (("",), (), "AC901", True),  # ALL
])
def test_select_ignore_longest_prefix(select: tuple[str, ...], ignore: tuple[str, ...], code: str, expected: bool) -> None:
    assert Selection(select, ignore).enabled(code, REGISTRY[code].enabled_by_default) is expected


def test_select_ignore_on_the_command_line_and_severity_in_config(ws: WorkspaceBuilder) -> None:
    fixed_workspace(ws)
    r = run_cli("check", "--ignore", "AC10", "--format", "json", cwd=ws.root)
    assert [f["code"] for f in json.loads(r.out)["findings"]] == ["AC110"]
    assert r.code == 0  # only a warning left
    r = run_cli("check", "--select", "AC110", "--ignore", "AC1", "--format", "json", cwd=ws.root)
    assert [f["code"] for f in json.loads(r.out)["findings"]] == ["AC110"]
    config = ws.root / "anchorcheck.toml"
    config.write_text(config.read_text() + '[rules]\nignore = ["AC10"]\nseverity = { AC110 = "error" }\n')
    r = run_cli("check", "--format", "json", cwd=ws.root)
    assert [(f["code"], f["severity"]) for f in json.loads(r.out)["findings"]] == [("AC110", "error")]
    assert r.code == 1
    assert run_cli("check", "--select", "XX9", cwd=ws.root).code == 2
    # --select names the whole set (as in ruff); --enable adds to the defaults.
    only = run_cli("check", "--select", "AC101", "--format", "json", "--config", "anchorcheck.toml", cwd=ws.root)
    assert {f["code"] for f in json.loads(only.out)["findings"]} <= {"AC101"}


def test_inline_suppressions_and_unused_ones(ws: WorkspaceBuilder) -> None:
    ws.repo("r", {
        "a.py": (
            "# see MISSING HEADING NUMBER ONE in a.py  anchorcheck: ignore[AC101]\n"
            "# anchorcheck: ignore\n"
            "x = 1  # see MISSING HEADING NUMBER TWO in a.py\n"
            "# see MISSING HEADING NUMBER THREE in a.py\n"
            "\n"
            "# anchorcheck: ignore[AC102]\n"
            "y = 2\n"
        ),
        "b.md": "<!-- anchorcheck: ignore[AC105] -->\nSee [gone](gone.md).\n",
    })
    ws.config()
    r = run_cli("check", "--format", "json", cwd=ws.root)
    assert [(f["code"], f["line"]) for f in json.loads(r.out)["findings"]] == [("AC101", 4)]
    r = run_cli("check", "--enable", "AC901", "--format", "json", cwd=ws.root)
    found = [(f["code"], f["path"], f["line"]) for f in json.loads(r.out)["findings"]]
    assert found == [("AC101", "a.py", 4), ("AC901", "a.py", 6)]


def test_baseline_survives_moved_lines_and_reports_stale_entries(ws: WorkspaceBuilder) -> None:
    repo = ws.repo("r", {"a.py": "# see MISSING HEADING NUMBER ONE in a.py\n# see MISSING HEADING NUMBER TWO in a.py\n"})
    ws.config()
    assert run_cli("check", "--write-baseline", "base.json", cwd=ws.root).code == 1
    entries = json.loads((ws.root / "base.json").read_text())["entries"]
    assert len(entries) == 2 and all("line" not in e for e in entries)
    assert run_cli("check", "--baseline", "base.json", cwd=ws.root).code == 0
    commit(repo, {"a.py": "import os\n\n\n# see MISSING HEADING NUMBER ONE in a.py\n"
                          "# see MISSING HEADING NUMBER THREE in a.py\n"}, "move and change")
    r = run_cli("check", "--baseline", "base.json", "--format", "json", cwd=ws.root)
    doc = json.loads(r.out)
    assert [(f["code"], f["line"]) for f in doc["findings"]] == [("AC101", 5)]  # only the new one
    assert len(doc["baseline_stale"]) == 1 and "NUMBER TWO" in doc["baseline_stale"][0]
    assert "stale baseline entry" in r.err
    bad = run_cli("check", "--baseline", "nope.json", cwd=ws.root)
    assert bad.code == 2 and "no such baseline file" in bad.err


def test_changed_only_finds_a_dangling_reference_in_an_unchanged_file(ws: WorkspaceBuilder) -> None:
    client = ws.repo("client", {"templates/deploy.yaml": DEPLOY, "other.yaml": "x: 1\n"})
    ws.repo("runtime", {"jobs.py": (
        "# see ROLLBACK ON THE DEGRADED PATH in client/templates/deploy.yaml\n"
        "# see OLD UNRELATED HEADING in client/other.yaml\n"
    )})
    ws.config()
    commit(client, {"templates/deploy.yaml": DEPLOY.replace("  # ROLLBACK ON THE DEGRADED PATH\n", "")}, "drop heading")
    everything = json.loads(run_cli("check", "--format", "json", cwd=ws.root).out)["findings"]
    assert [(f["repo"], f["line"]) for f in everything] == [("runtime", 1), ("runtime", 2)]
    r = run_cli("check", "--changed-only", "client=HEAD~1", "--format", "json", cwd=ws.root)
    assert [(f["repo"], f["path"], f["line"]) for f in json.loads(r.out)["findings"]] == [("runtime", "jobs.py", 1)]
    r = run_cli("check", "--changed-only", "HEAD", "--format", "json", cwd=ws.root)
    assert json.loads(r.out)["findings"] == []


def test_rules_doc_is_generated_from_the_registry() -> None:
    assert (ROOT / "docs" / "rules.md").read_text(encoding="utf-8") == rules_markdown(), (
        "docs/rules.md is stale: run `anchorcheck rules --format markdown > docs/rules.md`"
    )
    for rule in REGISTRY.values():
        for part in ("What:", "Why:", "Example:"):
            assert part in rule.doc, (rule.code, part)


def test_pre_commit_hook_and_action_are_well_formed() -> None:
    hooks = (ROOT / ".pre-commit-hooks.yaml").read_text()
    assert "id: anchorcheck" in hooks and "entry: anchorcheck check" in hooks
    action = (ROOT / "action.yml").read_text()
    for needle in ("using: composite", "anchorcheck check", "upload-sarif", "merge-order"):
        assert needle in action


def test_workflow_command_escaping() -> None:
    from anchorcheck.report.ci import _escape_data, _escape_property

    assert _escape_data("a\n::set-output name=x::y\r%") == "a%0A::set-output name=x::y%0D%25"
    assert _escape_property("a:b,c\n") == "a%3Ab%2Cc%0A"


def test_github_annotations_only_for_the_workflows_own_repo(ws: WorkspaceBuilder) -> None:
    ws.repo("client", {"README.md": "See [gone](gone.md).\n"})
    ws.repo("runtime", {"README.md": "See [lost](lost.md).\n"})
    ws.with_urls("acme", "client", "runtime")
    env = {k: v for k, v in os.environ.items() if k not in ("GITHUB_TOKEN", "GH_TOKEN", "GITLAB_TOKEN")}
    env["GITHUB_REPOSITORY"] = "acme/client"
    done = subprocess.run([sys.executable, "-m", "anchorcheck", "check", "--format", "github",
                           "--format", f"markdown:{ws.root / 'summary.md'}"], cwd=ws.root, env=env,
                          capture_output=True, text=True, check=False)
    lines = done.stdout.splitlines()
    assert lines[0].startswith("::error file=README.md,line=1,col=5,title=AC105") and "gone.md" in lines[0]
    assert lines[1] == "::notice title=anchorcheck::1 finding in other repos of the workspace: see the job summary"
    assert len(lines) == 2
    summary = (ws.root / "summary.md").read_text()
    commit = git(ws.repos["runtime"], "rev-parse", "main").strip()
    assert f"](https://github.com/acme/runtime/blob/{commit}/README.md#L1)" in summary
