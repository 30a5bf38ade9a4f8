"""Paths that name a repo and a folder: a Helm chart repo `client` keeps its chart in
`client/`, so another repo cites `client/templates/x.yaml` (issue 40, item 1). A path is
tried in the citing repo, then as a full path in the repo its first segment names, then
with that segment stripped, then in every repo; two readings in the named repo compete."""

from __future__ import annotations

import json

from anchorcheck.config.workspace import load_workspace
from anchorcheck.pr.change import ChangeSpec
from anchorcheck.pr.mergeorder import analyse
from anchorcheck.report.merge_order import advise
from tests.conftest import WorkspaceBuilder, run_cli
from tests.pr.test_stale_comments import DEPLOY  # the seed's deployment: `type: Recreate` at :9

CHART = {"client/Chart.yaml": "apiVersion: v2\nname: client\nversion: 1.9.58\n",
         "client/templates/jobs-manager-deployment.yaml": DEPLOY}
README = ("# Runtime\n\n"
          "The manager relies on `type: Recreate` at client/templates/jobs-manager-deployment.yaml:9,\n"
          "see ROLLBACK ON THE DEGRADED PATH in client/templates/jobs-manager-deployment.yaml\n"
          "(Recreate): never two managers.\n")


def _refs(ws: WorkspaceBuilder) -> dict[int, tuple[str, list[str]]]:
    r = run_cli("refs", "--format", "json", cwd=ws.root)
    assert r.code == 0, r.err
    return {row["line"]: (row["status"], row["targets"]) for row in json.loads(r.out)["references"]}


def test_the_issues_two_repo_reproduction(ws: WorkspaceBuilder) -> None:
    ws.repo("client", {"client/x.py": "a = 1\nb = 2\nc = 9\n"})
    ws.repo("rt", {"README.md": "# rt\n\nThe value `c = 9` at client/x.py:3 matters.\n\n"
                                "And `b = 7` at client/x.py:2 is stale.\n"})
    ws.config()
    assert _refs(ws) == {3: ("resolved", ["client:client/x.py"]), 5: ("resolved", ["client:client/x.py"])}
    r = run_cli("check", "--format", "json", cwd=ws.root)
    assert r.code == 1, r.err
    found = [(f["code"], f["path"], f["line"]) for f in json.loads(r.out)["findings"]]
    assert found == [("AC201", "README.md", 5)]


def test_a_chart_kept_in_a_folder_of_its_repos_name(ws: WorkspaceBuilder) -> None:
    ws.repo("client", CHART)
    ws.pr("client", "pr/791", {"client/templates/jobs-manager-deployment.yaml":
                               DEPLOY.replace("type: Recreate", "type: RollingUpdate")})
    ws.repo("runtime", {"README.md": README})
    ws.config()
    lines = _refs(ws)
    assert lines[3] == ("resolved", ["client:client/templates/jobs-manager-deployment.yaml"])
    assert lines[4] == ("resolved", ["client:client/templates/jobs-manager-deployment.yaml:5"])
    assert run_cli("check", cwd=ws.root).code == 0

    # The chart's PR rewrites the cited line and the value the comment explains: the
    # claim goes stale (AC201) and the citing paragraph still says Recreate (AC206, at
    # its first naming of the old value).
    workspace = load_workspace(ws.config())
    adv = advise(analyse(workspace, [ChangeSpec.parse("client#791=pr/791", workspace)], {}))
    found = sorted((f.finding.code, f.finding.repo, f.finding.path, f.finding.line) for f in adv.findings)
    assert ("AC201", "runtime", "README.md", 3) in found
    assert ("AC206", "runtime", "README.md", 3) in found
    # Merge-order's findings say which syntax they were read from, as check's do.
    evidence = {(f.finding.code, f.finding.repo): f.finding.evidence for f in adv.findings}
    assert evidence[("AC201", "runtime")] == "path-line-claim" and evidence[("AC206", "runtime")] == "comment"


def test_a_stale_claim_into_the_chart_folder_is_reported_by_check(ws: WorkspaceBuilder) -> None:
    ws.repo("client", {**CHART, "client/templates/jobs-manager-deployment.yaml":
                       DEPLOY.replace("type: Recreate", "type: RollingUpdate")})
    ws.repo("runtime", {"README.md": README})
    ws.config()
    r = run_cli("check", "--format", "json", cwd=ws.root)
    found = [(f["code"], f["repo"], f["line"], f["message"]) for f in json.loads(r.out)["findings"]]
    assert [f[:3] for f in found] == [("AC201", "runtime", 3)]
    assert "client:client/templates/jobs-manager-deployment.yaml:9" in found[0][3]


def test_both_readings_in_the_named_repo_compete(ws: WorkspaceBuilder) -> None:
    ws.repo("client", {"client/x.py": "a = 1\n", "x.py": "a = 1\n"})
    ws.repo("rt", {"README.md": "# rt\n\nSee `a = 1` at client/x.py:1.\n"})
    ws.config()
    r = run_cli("check", "--format", "json", cwd=ws.root)
    found = json.loads(r.out)["findings"]
    assert [(f["code"], f["line"]) for f in found] == [("AC103", 3)]
    assert "client:client/x.py" in found[0]["message"] and "client:x.py" in found[0]["message"]


def test_the_citing_repos_own_path_comes_first(ws: WorkspaceBuilder) -> None:
    ws.repo("client", {"client/x.py": "a = 1\n"})
    ws.repo("rt", {"client/x.py": "a = 2\n", "README.md": "# rt\n\nSee `a = 2` at client/x.py:1.\n"})
    ws.config()
    assert _refs(ws) == {3: ("resolved", ["rt:client/x.py"])}
    assert run_cli("check", cwd=ws.root).code == 0
