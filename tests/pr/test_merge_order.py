"""`merge-order` on real multi-repo workspaces with PR branches."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from anchorcheck.config.workspace import load_workspace
from anchorcheck.git.repobuilder import commit
from anchorcheck.pr.change import ChangeSpec
from anchorcheck.pr.mergeorder import analyse
from anchorcheck.report.merge_order import Advisory, advise, md_code, md_text, render_merge_markdown
from tests.conftest import WorkspaceBuilder, run_cli

NOTE = "  # ROLLBACK ON THE DEGRADED PATH\n  # Recreate plus --atomic rolls back.\n"
DEPLOY = "spec:\n{note}  strategy:\n    type: Recreate\n"
CITE = "# Binding can fail; see ROLLBACK ON THE DEGRADED PATH in\n# client/templates/deploy.yaml.\nPORT = 8080\n"


def advisory(ws: WorkspaceBuilder, *prs: str, bases: dict[str, str] | None = None) -> Advisory:
    workspace = load_workspace(ws.config())
    specs = [ChangeSpec.parse(p, workspace) for p in prs]
    return advise(analyse(workspace, specs, bases or {}))


def found(adv: Advisory) -> list[tuple[str | None, str, str, int]]:
    return [(f.finding.change, f.finding.code, f.finding.path, f.finding.line) for f in adv.findings]


def seed(ws: WorkspaceBuilder) -> None:
    ws.repo("client", {"templates/deploy.yaml": DEPLOY.format(note=""), "Chart.yaml": "version: 1.9.58\n"})
    ws.pr("client", "pr/791", {"templates/deploy.yaml": DEPLOY.format(note=NOTE)})
    ws.repo("runtime", {"jobs.py": "PORT = 8080\n"})
    ws.pr("runtime", "pr/359", {"jobs.py": CITE})


def test_chart_pr_is_ordered_before_the_runtime_pr_citing_its_heading(ws: WorkspaceBuilder) -> None:
    seed(ws)
    # Given in the wrong order on purpose.
    adv = advisory(ws, "runtime#359=pr/359", "client#791=pr/791")
    assert adv.analysis.order == ("client#791", "runtime#359")
    # (client#791 edits the chart and leaves Chart.yaml at 1.9.58: the seed's chart
    # guard trips, AC306.)
    assert found(adv) == [("client#791", "AC306", "Chart.yaml", 1), ("runtime#359", "AC301", "jobs.py", 1)]
    [f] = [f for f in adv.findings if f.finding.code == "AC301"]
    assert "land client#791 first: it adds 'ROLLBACK ON THE DEGRADED PATH' (client:templates/deploy.yaml:2)" in f.finding.message
    assert adv.analysis.added_anchors["client#791"][0].name == "ROLLBACK ON THE DEGRADED PATH"


def test_independent_changes_keep_the_order_given(ws: WorkspaceBuilder) -> None:
    seed(ws)
    ws.repo("backend", {"a.py": "x = 1\n"})
    ws.pr("backend", "pr/1", {"a.py": "x = 2\n"})
    adv = advisory(ws, "backend#1=pr/1", "runtime#359=pr/359", "client#791=pr/791")
    assert adv.analysis.order == ("backend#1", "client#791", "runtime#359")


def test_three_changes_in_three_repos(ws: WorkspaceBuilder) -> None:
    ws.repo("a", {"a.py": "x = 1\n"})
    ws.repo("b", {"b.py": "x = 1\n"})
    ws.repo("c", {"c.py": "x = 1\n"})
    ws.pr("a", "pr", {"a.py": "# see SECOND HEADING HERE in b:b.py\nx = 1\n"})
    ws.pr("b", "pr", {"b.py": "# SECOND HEADING HERE\n# Body.\n# see THIRD HEADING HERE in c:c.py\nx = 1\n"})
    ws.pr("c", "pr", {"c.py": "# THIRD HEADING HERE\n# Body.\nx = 1\n"})
    adv = advisory(ws, "a#1=pr", "b#2=pr", "c#3=pr")
    assert adv.analysis.order == ("c#3", "b#2", "a#1")
    assert [(d.first, d.after) for d in adv.analysis.dependencies] == [("b#2", "a#1"), ("c#3", "b#2")]
    doc = json.loads(run_cli("merge-order", "--pr", "a#1=pr", "--pr", "b#2=pr", "--pr", "c#3=pr",
                             "--format", "json", cwd=ws.root).out)
    assert doc["order"] == ["c#3", "b#2", "a#1"]
    by_label = {c["label"]: c for c in doc["changes"]}
    assert by_label["b#2"]["depends_on"] == ["c#3"]
    assert by_label["b#2"]["blocks"] == ["a#1"]
    assert by_label["c#3"]["adds_anchors"] == ["THIRD HEADING HERE"]
    assert set(by_label["a#1"]) >= {"label", "repo", "ref", "depends_on", "blocks", "adds_anchors", "removes_anchors"}


def test_deleting_a_heading_cited_in_another_repo_breaks_it(ws: WorkspaceBuilder) -> None:
    ws.repo("client", {"templates/deploy.yaml": DEPLOY.format(note=NOTE)})
    ws.repo("runtime", {"jobs.py": CITE})
    ws.repo("docs", {"ops.md": "See ROLLBACK ON THE DEGRADED PATH (in client:templates/deploy.yaml).\n"})
    ws.pr("client", "pr/800", {"templates/deploy.yaml": DEPLOY.format(note=NOTE.replace("ON THE DEGRADED PATH", "POLICY"))})
    adv = advisory(ws, "client#800=pr/800")
    assert found(adv) == [("client#800", "AC302", "templates/deploy.yaml", 2)]
    msg = adv.findings[0].finding.message
    assert "removes 'ROLLBACK ON THE DEGRADED PATH' (renamed to 'ROLLBACK POLICY'?)" in msg
    assert "runtime:jobs.py:1" in msg and "docs:ops.md:1" in msg
    assert adv.analysis.removed_anchors["client#800"][0].name == "ROLLBACK ON THE DEGRADED PATH"


def test_a_citation_written_twice_in_a_file_is_named_at_each_place(ws: WorkspaceBuilder) -> None:
    cite = CITE.replace("client/", "")
    notes = cite + "x = 2\n" * 5 + cite
    ws.repo("client", {"templates/deploy.yaml": DEPLOY.format(note=NOTE), "notes.py": notes})
    # The change renames the heading and edits notes.py, leaving both citations as they are.
    ws.pr("client", "pr/803", {"templates/deploy.yaml": DEPLOY.format(note=NOTE.replace("ON THE DEGRADED PATH", "POLICY")),
                               "notes.py": "# top\n" + notes})
    [brk] = [f.finding for f in advisory(ws, "client#803=pr/803").findings if f.finding.code == "AC302"]
    assert brk.message.endswith("still cited at client:notes.py:2, client:notes.py:10"), brk.message


def test_a_change_that_also_updates_the_citations_breaks_nothing(ws: WorkspaceBuilder) -> None:
    ws.repo("client", {"templates/deploy.yaml": DEPLOY.format(note=NOTE), "notes.py": CITE.replace("client/", "")})
    ws.pr("client", "pr/801", {
        "templates/deploy.yaml": DEPLOY.format(note=NOTE.replace("ON THE DEGRADED PATH", "POLICY")),
        "notes.py": CITE.replace("client/", "").replace("ON THE DEGRADED PATH in", "POLICY in"),
    })
    assert found(advisory(ws, "client#801=pr/801")) == []


def test_removing_a_heading_another_open_change_cites(ws: WorkspaceBuilder) -> None:
    ws.repo("client", {"templates/deploy.yaml": DEPLOY.format(note=NOTE)})
    ws.pr("client", "pr/802", {"templates/deploy.yaml": DEPLOY.format(note="")})
    ws.repo("runtime", {"jobs.py": "PORT = 8080\n"})
    ws.pr("runtime", "pr/359", {"jobs.py": CITE})
    adv = advisory(ws, "client#802=pr/802", "runtime#359=pr/359")
    [brk] = [f.finding for f in adv.findings if f.finding.code == "AC302"]
    assert brk.change == "client#802"
    assert "runtime:jobs.py:1 (in runtime#359)" in brk.message


def test_two_pr_cycle(ws: WorkspaceBuilder) -> None:
    ws.repo("a", {"a.py": "x = 1\n"})
    ws.repo("b", {"b.py": "x = 1\n"})
    ws.pr("a", "pr", {"a.py": "# HEADING IN REPO A\n# Body.\n# see HEADING IN REPO B in b:b.py\n"})
    ws.pr("b", "pr", {"b.py": "# HEADING IN REPO B\n# Body.\n# see HEADING IN REPO A in a:a.py\n"})
    adv = advisory(ws, "a#1=pr", "b#2=pr")
    cycles = [f.finding for f in adv.findings if f.finding.code == "AC303"]
    assert [f.change for f in cycles] == ["a#1", "b#2"]
    assert "dependency cycle a#1 -> b#2 -> a#1" in cycles[0].message
    assert adv.analysis.order == ("a#1", "b#2")
    r = run_cli("merge-order", "--pr", "a#1=pr", "--pr", "b#2=pr", cwd=ws.root)
    assert r.code == 1 and "AC303" in r.out


def test_two_prs_editing_the_same_lines_conflict(ws: WorkspaceBuilder) -> None:
    ws.repo("client", {"values.yaml": "a: 1\nb: 2\nc: 3\n", "other.yaml": "x: 1\n"})
    ws.pr("client", "pr/1", {"values.yaml": "a: 1\nb: 20\nc: 3\n"})
    ws.pr("client", "pr/2", {"values.yaml": "a: 1\nb: 200\nc: 3\n"})
    ws.pr("client", "pr/3", {"other.yaml": "x: 2\n"})
    adv = advisory(ws, "client#1=pr/1", "client#2=pr/2", "client#3=pr/3")
    assert found(adv) == [("client#1", "AC304", "values.yaml", 2), ("client#2", "AC304", "values.yaml", 2)]
    assert "conflicts with client#2 in values.yaml" in adv.findings[0].finding.message


def test_a_conflict_is_shown_where_the_edits_meet_in_each_changes_own_lines(ws: WorkspaceBuilder) -> None:
    # #1 also adds two lines at the top, so the clash at the base's line 8 is its line 10.
    base = "".join(f"k{i}: {i}\n" for i in range(1, 11))
    ws.repo("client", {"values.yaml": base})
    ws.pr("client", "pr/1", {"values.yaml": "# one\n# two\n" + base.replace("k8: 8", "k8: 80")})
    ws.pr("client", "pr/2", {"values.yaml": base.replace("k8: 8", "k8: 800")})
    adv = advisory(ws, "client#1=pr/1", "client#2=pr/2")
    assert sorted(found(adv)) == [("client#1", "AC304", "values.yaml", 10), ("client#2", "AC304", "values.yaml", 8)]


def test_a_conflict_with_the_moved_base_is_shown_at_the_changes_clashing_line(ws: WorkspaceBuilder) -> None:
    base = "".join(f"k{i}: {i}\n" for i in range(1, 8))
    repo = ws.repo("client", {"values.yaml": base})
    ws.pr("client", "pr/1", {"values.yaml": base.replace("k5: 5", "k5: 50")})
    commit(repo, {"values.yaml": "# top\n" + base.replace("k5: 5", "k5: 51")}, "main moved on")
    adv = advisory(ws, "client#1=pr/1")
    assert found(adv) == [("client#1", "AC304", "values.yaml", 5)]


def test_a_change_conflicting_with_its_moved_base(ws: WorkspaceBuilder) -> None:
    repo = ws.repo("client", {"values.yaml": "b: 2\n"})
    ws.pr("client", "pr/1", {"values.yaml": "b: 20\n"})
    commit(repo, {"values.yaml": "b: 21\n"}, "main moved on")
    adv = advisory(ws, "client#1=pr/1")
    [f] = adv.findings
    assert (f.finding.code, f.finding.path) == ("AC304", "values.yaml")
    assert "conflicts with its base main in values.yaml: rebase" in f.finding.message


def test_two_prs_claiming_the_same_chart_version(ws: WorkspaceBuilder) -> None:
    ws.repo("client", {"Chart.yaml": "apiVersion: v2\nname: client\nversion: 1.9.58\n", "a.yaml": "a: 1\n", "b.yaml": "b: 1\n"})
    ws.pr("client", "pr/1", {"Chart.yaml": "apiVersion: v2\nname: client\nversion: 1.9.59\n", "a.yaml": "a: 2\n"})
    ws.pr("client", "pr/2", {"Chart.yaml": "apiVersion: v2\nname: client\nversion: 1.9.59\n", "b.yaml": "b: 2\n"})
    adv = advisory(ws, "client#1=pr/1", "client#2=pr/2")
    races = [f.finding for f in adv.findings if f.finding.code == "AC305"]
    # client#1 lands first in the order and keeps 1.9.59; client#2 re-cuts. (Both were
    # told to re-cut to 1.9.60, and following that advice raced again.)
    assert [(f.change, f.path, f.line) for f in races] == [("client#2", "Chart.yaml", 3)]
    assert "client#1 also sets Chart.yaml to 1.9.59: re-cut it to 1.9.60" in races[0].message
    assert races[0].suggestion == "1.9.60"


def test_three_prs_claiming_one_version_are_each_told_their_own(ws: WorkspaceBuilder) -> None:
    ws.repo("client", {"Chart.yaml": "version: 1.9.58\n", "a.yaml": "a: 1\n", "b.yaml": "b: 1\n",
                       "c.yaml": "c: 1\n"})
    for n, name in ((1, "a"), (2, "b"), (3, "c")):
        ws.pr("client", f"pr/{n}", {"Chart.yaml": "version: 1.9.59\n", f"{name}.yaml": f"{name}: 2\n"})
    adv = advisory(ws, "client#1=pr/1", "client#2=pr/2", "client#3=pr/3")
    races = sorted((f.finding.change, f.finding.suggestion) for f in adv.findings if f.finding.code == "AC305")
    assert races == [("client#2", "1.9.60"), ("client#3", "1.9.61")]


def test_a_bump_that_fell_behind_its_base_says_which_version_to_use(ws: WorkspaceBuilder) -> None:
    repo = ws.repo("client", {"Chart.yaml": "version: 1.9.58\n", "v.yaml": "v: 1\n"}, default="develop")
    ws.pr("client", "pr/791", {"Chart.yaml": "version: 1.9.59\n", "t.yaml": "t: 1\n"}, base="develop")
    commit(repo, {"Chart.yaml": "version: 1.9.59\n"}, "client#784")
    ws.pr("client", "pr/787", {"Chart.yaml": "version: 1.9.60\n", "v.yaml": "v: 2\n"}, base="develop")
    (ws.root / "anchorcheck.toml").write_text('[[repo]]\nname = "client"\npath = "client"\nref = "develop"\n')
    workspace = load_workspace(ws.root / "anchorcheck.toml")
    specs = [ChangeSpec.parse(p, workspace) for p in ("client#791=pr/791", "client#787=pr/787")]
    adv = advise(analyse(workspace, specs, {}))
    [race] = [f.finding for f in adv.findings if f.finding.code == "AC305"]
    assert race.change == "client#791"
    assert race.message == "develop is at 1.9.59, so this bump 1.9.58 -> 1.9.59 is no longer ahead: re-cut it to 1.9.61"


def test_pyproject_and_package_json_versions(ws: WorkspaceBuilder) -> None:
    ws.repo("py", {"pyproject.toml": '[project]\nname = "x"\nversion = "2.0.0"\n', "package.json": '{"version": "1.0.0"}\n'})
    ws.pr("py", "a", {"pyproject.toml": '[project]\nname = "x"\nversion = "2.1.0"\n', "package.json": '{"version": "1.0.1"}\n'})
    ws.pr("py", "b", {"pyproject.toml": '[project]\nname = "x"\nversion = "2.1.0"\n'})
    adv = advisory(ws, "py#1=a", "py#2=b")
    races = [(f.finding.change, f.finding.path, f.finding.suggestion) for f in adv.findings if f.finding.code == "AC305"]
    assert races == [("py#2", "pyproject.toml", "2.2.0")]  # py#1 lands first and keeps 2.1.0


def test_new_dangling_reference_is_reported_against_the_change(ws: WorkspaceBuilder) -> None:
    ws.repo("client", {"templates/deploy.yaml": DEPLOY.format(note=NOTE)})
    ws.repo("runtime", {"jobs.py": "x = 1\n"})
    ws.pr("runtime", "pr/9", {"jobs.py": "# see ROLLBACK ON THE DEGRADED PTAH in client/templates/deploy.yaml\n"})
    adv = advisory(ws, "runtime#9=pr/9")
    [f] = adv.findings
    assert (f.finding.change, f.finding.code) == ("runtime#9", "AC101")
    assert "did you mean 'ROLLBACK ON THE DEGRADED PATH'?" in f.finding.message


def test_pr_check_reads_only_the_blobs_the_prs_touch(ws: WorkspaceBuilder) -> None:
    files = {f"pkg/m{i}.py": f"# module {i}\nX{i} = {i}\n" for i in range(200)}
    files["templates/deploy.yaml"] = DEPLOY.format(note="")
    ws.repo("client", files)
    ws.pr("client", "pr/1", {"templates/deploy.yaml": DEPLOY.format(note=NOTE), "pkg/m1.py": "# changed\n"})
    ws.repo("runtime", {"jobs.py": "x = 1\n"})
    ws.pr("runtime", "pr/2", {"jobs.py": CITE})
    adv = advisory(ws, "client#1=pr/1", "runtime#2=pr/2")
    assert adv.analysis.blobs_read_base == 202
    assert adv.analysis.blobs_read_changes == 3  # the three files the PRs touch, once each


def test_markdown_comment_escapes_repo_text(ws: WorkspaceBuilder) -> None:
    ws.repo("client", {"a.yaml": "x: 1\n"})
    ws.pr("client", "pr/1", {"a.yaml": "# SOME REAL HEADING\n# Body.\nx: 1\n"})
    ws.repo("runtime", {"b.py": "x = 1\n"})
    hostile = "EVIL @admins <script>alert(1)</script> ](javascript:x) `tick`"
    ws.pr("runtime", "pr/2", {"b.py": f'# see SOME REAL HEADING in client:a.yaml\n# see "{hostile}" in client:a.yaml\n'})
    adv = advisory(ws, "client#1=pr/1", "runtime#2=pr/2")
    assert [f.finding.code for f in adv.findings] == ["AC301", "AC101"]  # by line: 1 then 2
    md = render_merge_markdown(adv)
    assert "<script>" not in md and "&lt;script&gt;" in md
    assert "@admins" not in md and "@&#8203;admins" in md
    assert "](javascript" not in md.replace("\\](javascript", "")  # only as escaped text
    assert "```mermaid\nflowchart LR\n" in md
    assert "c0 --> c1" in md


def test_markdown_for_one_change(ws: WorkspaceBuilder) -> None:
    seed(ws)
    ws.repo("backend", {"a.py": "x = 1\n"})
    ws.pr("backend", "pr/1", {"a.py": "x = 2\n"})
    ws.config()
    r = run_cli("merge-order", "--pr", "client#791=pr/791", "--pr", "runtime#359=pr/359",
                "--pr", "backend#1=pr/1", "--format", "markdown", "--for", "runtime#359", cwd=ws.root)
    assert r.code == 0, r.err
    assert "#### `runtime#359`" in r.out
    assert "#### `client#791`" not in r.out and "backend#1" not in r.out.split("**Order:**")[1].split("\n", 2)[2]
    assert "**Land after:** `client#791`" in r.out


@pytest.mark.parametrize(("args", "message"), [
    (["--pr", "nope#1=main"], "no repo 'nope' in the workspace"),
    (["--pr", "client#1"], "--pr expects REPO#ID=REF"),
    (["--pr", "client#1=no-such-ref"], "unknown ref 'no-such-ref'"),
    (["--pr", "client#1=main", "--pr", "client#1=main"], "each --pr label must be given once"),
    (["--pr", "client#1=main", "--base", "zzz=main"], "--base names unknown repo 'zzz'"),
    (["--pr", "client#1=main", "--for", "x#2"], "--for 'x#2' is not one of the --pr labels"),
])
def test_usage_errors_exit_2(ws: WorkspaceBuilder, args: list[str], message: str) -> None:
    ws.repo("client", {"a.py": "x = 1\n"})
    ws.config()
    r = run_cli("merge-order", *args, cwd=ws.root)
    assert r.code == 2
    assert message in r.err
    assert len(r.err.strip().splitlines()) == 1


def test_unrelated_histories_exit_2(ws: WorkspaceBuilder, tmp_path: Path) -> None:
    repo = ws.repo("client", {"a.py": "x = 1\n"})
    from anchorcheck.git.repobuilder import git

    git(repo, "checkout", "-q", "--orphan", "island")
    git(repo, "commit", "-q", "-m", "unrelated")
    git(repo, "checkout", "-q", "main")
    ws.config()
    r = run_cli("merge-order", "--pr", "client#1=island", cwd=ws.root)
    assert r.code == 2
    assert "share no history" in r.err


def test_md_helpers() -> None:
    assert md_code("a`b") == "``a`b``"
    assert md_code("`x`") == "`` `x` ``"
    assert md_text("[x](javascript:alert(1)) @team <b> *y* a://b") == (
        "\\[x\\](javascript:alert(1)) @&#8203;team &lt;b&gt; \\*y\\* a:&#8203;//b"
    )


def test_change_moving_a_restated_fact_names_the_restating_places(ws: WorkspaceBuilder) -> None:
    ws.repo("client", {"deploy.yaml": "containerPort: 8080  # restates runtime:jobs.py::env.PORT\n"})
    ws.repo("runtime", {"jobs.py": 'import os\nPORT = int(os.getenv("PORT", "8080"))\n'})
    ws.pr("runtime", "pr/7", {"jobs.py": 'import os\nPORT = int(os.getenv("PORT", "9090"))\n'})
    ws.pr("runtime", "pr/8", {"jobs.py": 'import os\n\nPORT = int(os.getenv("PORT", "8080"))\n'})
    adv = advisory(ws, "runtime#7=pr/7", "runtime#8=pr/8")
    drift = [f.finding for f in adv.findings if f.finding.code == "AC204"]
    assert [(f.change, f.path, f.line) for f in drift] == [("runtime#7", "jobs.py", 2)]
    assert drift[0].message == (
        "changes runtime:jobs.py::env.PORT from '8080' to '9090', which is restated at "
        "client:deploy.yaml:1 (restates '8080'): update them in the same round"
    )


def test_a_change_that_moves_the_lines_a_claim_cites_is_told(ws: WorkspaceBuilder) -> None:
    deploy = "kind: Deployment\nspec:\n  strategy:\n    type: Recreate\n"
    ws.repo("client", {"templates/deploy.yaml": deploy})
    ws.repo("backend", {"docs/decisions.md": "# Decisions\n\n`type: Recreate` at client:templates/deploy.yaml:4.\n"
                                             "See `kind: Deployment` at client:templates/deploy.yaml:1.\n"})
    ws.pr("client", "pr/791", {"templates/deploy.yaml": "# Rollback notes\n# more\n" + deploy})  # moves both
    ws.pr("client", "pr/792", {"templates/deploy.yaml": deploy.replace("Recreate", "RollingUpdate")})  # rewrites one
    adv = advisory(ws, "client#791=pr/791", "client#792=pr/792")
    stale = sorted((f.finding.change or "", f.finding.line, f.finding.message, f.finding.suggestion or "")
                   for f in adv.findings if f.finding.code == "AC201")
    assert [(c, line, s) for c, line, _, s in stale] == [("client#791", 3, "6"), ("client#791", 4, "3"),
                                                         ("client#792", 3, "")]
    assert stale[0][2].startswith("after client#791: 'type: Recreate' is no longer at client:templates/deploy.yaml:4")
    assert stale[2][2].endswith("it is nowhere in the file")


def test_a_change_to_a_charts_content_without_a_bump_trips_the_guard(ws: WorkspaceBuilder) -> None:
    chart = {"charts/app/Chart.yaml": "apiVersion: v2\nname: app\nversion: 1.9.58\n",
             "charts/app/templates/deploy.yaml": "# ROLLOUT\n# why Recreate\nkind: Deployment\n",
             "charts/other/Chart.yaml": "name: other\nversion: 0.1.0\n", "charts/other/values.yaml": "x: 1\n",
             "pyproject.toml": '[project]\nname = "tool"\nversion = "2.0.0"\n', "tool.py": "x = 1\n",
             "README.md": "# Charts\n"}
    ws.repo("client", chart)
    ws.pr("client", "pr/1", {"charts/app/templates/deploy.yaml": "# ROLLOUT\n# why Recreate, said better\nkind: Deployment\n",
                             "tool.py": "x = 2\n", "README.md": "# Charts!\n"})  # a comment is content too
    ws.pr("client", "pr/2", {"charts/app/templates/deploy.yaml": "kind: Deployment\n",
                             "charts/app/Chart.yaml": "apiVersion: v2\nname: app\nversion: 1.9.59\n"})
    ws.pr("client", "pr/3", {"charts/other/values.yaml": "x: 2\n"})
    adv = advisory(ws, "client#1=pr/1", "client#2=pr/2", "client#3=pr/3")
    guard = sorted((f.finding.change or "", f.finding.path, f.finding.line, f.finding.suggestion or "", f.finding.message)
                   for f in adv.findings if f.finding.code == "AC306")
    # pr/2 bumps (past it, pr/1's bump would be 1.9.60); nothing outside a chart is guarded.
    assert [g[:4] for g in guard] == [("client#1", "charts/app/Chart.yaml", 3, "1.9.60"),
                                      ("client#3", "charts/other/Chart.yaml", 2, "0.1.1")]
    assert "changes charts/app/templates/deploy.yaml and leaves charts/app/Chart.yaml at version 1.9.58" in guard[0][4]
    # Opt-in for Python packages; a chart can be left out.
    config = ws.config()
    config.write_text(config.read_text() + '[settings]\nversion-guard = ["Chart.yaml", "pyproject.toml"]\n'
                                           'version-guard-skip = ["charts/other"]\n')
    workspace = load_workspace(config)
    specs = [ChangeSpec.parse(p, workspace) for p in ("client#1=pr/1", "client#2=pr/2", "client#3=pr/3")]
    adv = advise(analyse(workspace, specs, {}))
    assert sorted((f.finding.change, f.finding.path) for f in adv.findings if f.finding.code == "AC306") == [
        ("client#1", "charts/app/Chart.yaml"), ("client#1", "pyproject.toml")]


def test_a_subchart_is_guarded_as_part_of_its_parent(ws: WorkspaceBuilder) -> None:
    # prometheus-community/helm-charts vendors CRDs as a subchart (charts/X/charts/crds):
    # a PR bumps X and updates the CRDs, and the subchart's own version stays.
    ws.repo("c", {"charts/x/Chart.yaml": "name: x\nversion: 1.0.0\n",
                  "charts/x/charts/crds/Chart.yaml": "name: crds\nversion: 0.0.0\n",
                  "charts/x/charts/crds/crds/a.yaml": "kind: CustomResourceDefinition\n"})
    ws.pr("c", "bumped", {"charts/x/Chart.yaml": "name: x\nversion: 1.0.1\n",
                          "charts/x/charts/crds/crds/a.yaml": "kind: CustomResourceDefinition\n# v2\n"})
    ws.pr("c", "unbumped", {"charts/x/charts/crds/crds/a.yaml": "kind: CustomResourceDefinition\n# v3\n"})
    adv = advisory(ws, "c#1=bumped", "c#2=unbumped")
    assert [(f.finding.change, f.finding.path) for f in adv.findings if f.finding.code == "AC306"] == [
        ("c#2", "charts/x/Chart.yaml")]
