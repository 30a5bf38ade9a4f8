"""Line claims followed through history (resolve/linehistory.py): a claim with no text
of its own meant the lines its author saw when the citing line was written; they are
followed to the checked commit as `git blame` follows lines."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from anchorcheck.git.repobuilder import branch, commit, git
from tests.conftest import WorkspaceBuilder, run_cli

_CODE = "".join(f"step_{n} = {n}\n" for n in range(1, 11))


def _findings(run_out: str, *codes: str) -> list[dict[str, object]]:
    return [f for f in json.loads(run_out)["findings"] if f["code"] in codes]


def test_lines_that_moved_are_followed_and_fixed(ws: WorkspaceBuilder) -> None:
    repo = ws.repo("app", {"steps.py": _CODE, "notes.py": "x = 1\n"})
    commit(repo, {"notes.py": "# The retry step is at steps.py:4 (see there).\nx = 1\n"}, "cite the retry step")
    commit(repo, {"steps.py": "import os\nimport sys\n\n" + _CODE}, "imports")
    run = ws.check("--format", "json", "--no-cache")
    found = _findings(run.out, "AC201", "AC205")
    assert [(f["code"], f["path"], f["line"]) for f in found] == [("AC201", "notes.py", 1)]
    assert "app:steps.py:4" in str(found[0]["message"]) and "now at 7" in str(found[0]["message"])
    fixed = run_cli("fix", "--write", cwd=ws.root)
    assert fixed.code == 0, fixed.err
    assert (repo / "notes.py").read_text().startswith("# The retry step is at steps.py:7 (see there).")


def test_lines_rewritten_since_name_the_commit(ws: WorkspaceBuilder) -> None:
    repo = ws.repo("app", {"steps.py": _CODE, "notes.py": "# The retry step: steps.py:4-5\n"})
    commit(repo, {"steps.py": _CODE.replace("step_5 = 5", "step_5 = retry(5)")}, "retry step five")
    found = _findings(ws.check("--format", "json", "--no-cache").out, "AC201", "AC205")
    assert [(f["code"], f["severity"]) for f in found] == [("AC205", "warning")]
    message = str(found[0]["message"])
    assert "1 of the 2 lines app:steps.py:4-5" in message and "'retry step five'" in message


def test_lines_that_stand_where_they_were_say_nothing(ws: WorkspaceBuilder) -> None:
    repo = ws.repo("app", {"steps.py": _CODE, "notes.py": "# The retry step: steps.py:4\n"})
    commit(repo, {"steps.py": _CODE + "step_11 = 11\n"}, "append a step")  # below line 4
    commit(repo, {"notes.py": "# The retry step: steps.py:4\n# and more\n"}, "edit the note below")
    assert _findings(ws.check("--format", "json", "--no-cache").out, "AC201", "AC205") == []


def test_a_claim_written_after_the_move_meant_the_new_lines(ws: WorkspaceBuilder) -> None:
    repo = ws.repo("app", {"steps.py": _CODE})
    commit(repo, {"steps.py": "import os\n" + _CODE}, "import")  # step_4 is at 5 from here
    commit(repo, {"notes.py": "# The retry step: steps.py:5\n"}, "cite it")
    assert _findings(ws.check("--format", "json", "--no-cache").out, "AC201", "AC205") == []


def test_a_claim_in_the_work_tree_is_new_and_not_followed(ws: WorkspaceBuilder, tmp_path: Path) -> None:
    repo = ws.repo("app", {"steps.py": _CODE, "notes.py": "x = 1\n"})
    commit(repo, {"steps.py": "import os\n" + _CODE}, "import")
    (repo / "notes.py").write_text("# The retry step: steps.py:5\nx = 1\n")  # not committed
    run = run_cli("check", "--format", "json", "--no-cache", "--select", "AC201,AC205", cwd=repo)
    assert run.code == 0, run.out + run.err
    assert _findings(run.out, "AC201", "AC205") == []


def test_a_cross_repo_link_is_followed_from_the_cited_repo_as_it_was_then(ws: WorkspaceBuilder) -> None:
    chart = ws.repo("chart", {"values.yaml": "".join(f"key{n}: {n}\n" for n in range(1, 9))})
    commit(chart, {"values.yaml": "# header\n" + "".join(f"key{n}: {n}\n" for n in range(1, 9))},
           "a header, before the link was written", date="2026-02-01T00:00:00Z")
    docs = ws.repo("docs", {"README.md": "# Docs\n"})
    url = "https://github.com/acme/chart/blob/main/values.yaml#L5"
    commit(docs, {"README.md": f"# Docs\n\nThe fourth key is [here]({url}).\n"}, "link",
           date="2026-03-01T00:00:00Z")
    # Two lines above it later: the link meant line 5 as it stood on March 1st.
    commit(chart, {"values.yaml": "# header\n# more\n# and more\n" + "".join(f"key{n}: {n}\n" for n in range(1, 9))},
           "a longer header", date="2026-04-01T00:00:00Z")
    ws.with_urls("acme", "chart", "docs")
    run = run_cli("check", "--format", "json", "--no-cache", cwd=ws.root)
    found = _findings(run.out, "AC201", "AC205")
    assert [(f["code"], f["repo"], f["path"]) for f in found] == [("AC201", "docs", "README.md")], run.out
    assert "chart:values.yaml:5" in str(found[0]["message"]) and "now at 7" in str(found[0]["message"])
    fixed = run_cli("fix", "--write", cwd=ws.root)
    assert fixed.code == 0, fixed.err
    assert "values.yaml#L7)" in (docs / "README.md").read_text()


def test_the_walk_is_capped_by_line_history(ws: WorkspaceBuilder) -> None:
    repo = ws.repo("app", {"steps.py": _CODE, "notes.py": "# The retry step: steps.py:4\n"})
    commit(repo, {"steps.py": "import os\n" + _CODE}, "import")
    ws.config()
    config = ws.root / "anchorcheck.toml"
    config.write_text(config.read_text() + "[settings]\nline-history = 0\n")
    run = run_cli("check", "--format", "json", "--no-cache", cwd=ws.root)
    assert _findings(run.out, "AC201", "AC205") == []


def test_answers_are_cached_by_blob_and_commit(ws: WorkspaceBuilder, tmp_path: Path) -> None:
    repo = ws.repo("app", {"steps.py": _CODE, "notes.py": "# The retry step: steps.py:4\n"})
    commit(repo, {"steps.py": "import os\n" + _CODE}, "import")
    ws.config()
    cache = tmp_path / "cache"
    first = run_cli("check", "--format", "json", "--cache-dir", str(cache), cwd=ws.root)
    # A commit that changes neither file: the stored answers hold for it, keyed by blobs.
    commit(repo, {"other.txt": "x\n"}, "unrelated")
    second = run_cli("check", "--format", "json", "--cache-dir", str(cache), cwd=ws.root)
    assert [f["message"] for f in _findings(first.out, "AC201")] == \
        [f["message"] for f in _findings(second.out, "AC201")] != []
    db = next(cache.rglob("*.sqlite*"))
    keys = [k for (k,) in sqlite3.connect(db).execute("SELECT key FROM results WHERE key LIKE 'linehistory:%'")]
    assert any(":origin:" in k for k in keys) and any(":walk:" in k for k in keys)


def test_a_claim_written_on_a_branch_meant_the_lines_as_its_merge_brought_them(ws: WorkspaceBuilder) -> None:
    repo = ws.repo("app", {"steps.py": _CODE, "notes.py": "x = 1\n"})
    branch(repo, "feature", {"notes.py": "# The retry step: steps.py:4\nx = 1\n"}, message="cite it")
    commit(repo, {"steps.py": "import os\n" + _CODE}, "import")  # on main meanwhile
    git(repo, "merge", "-q", "--no-ff", "-m", "merge feature", "feature")
    merged = git(repo, "rev-parse", "HEAD").strip()
    commit(repo, {"steps.py": "import os\nimport sys\n" + _CODE}, "import sys")
    run = ws.check("--format", "json", "--no-cache")
    found = _findings(run.out, "AC201", "AC205")
    # The mainline saw the claim at the merge, where line 4 held step_3: now at 5.
    assert [(f["code"], f["path"], f["line"]) for f in found] == [("AC201", "notes.py", 1)], run.out
    message = str(found[0]["message"])
    written = git(repo, "rev-parse", "feature").strip()
    assert "app:steps.py:4" in message and "now at 5" in message and f"written in {written[:12]}" in message
    assert merged[:12] not in message
    # Lines on the branch only, before the merge, are not the mainline's: rewritten
    # there, the claim is followed from the merge all the same.
    commit(repo, {"steps.py": "import os\nimport sys\n" + _CODE.replace("step_3 = 3", "step_3 = three")},
           "rename three")
    found = _findings(ws.check("--format", "json", "--no-cache").out, "AC201", "AC205")
    assert [f["code"] for f in found] == ["AC205"] and "'rename three'" in str(found[0]["message"])


def test_a_claim_is_seen_where_its_line_last_came_into_the_mainline(ws: WorkspaceBuilder) -> None:
    # The citing line came in with one merge, was removed, and a later merge (its
    # conflict resolved by hand) took it back from another branch: the lines it meant
    # are those the mainline held when it came back, not at the first merge.
    repo = ws.repo("app", {"steps.py": _CODE, "notes.py": "x = 1\n"})
    branch(repo, "one", {"notes.py": "# The retry step: steps.py:4\nx = 1\n"}, message="cite it")
    git(repo, "branch", "two", "one")
    commit(repo, {"other.txt": "x\n"}, "main moves")
    git(repo, "merge", "-q", "--no-ff", "-m", "merge one", "one")
    commit(repo, {"notes.py": "x = 1\n"}, "drop the note")
    commit(repo, {"steps.py": "import os\n" + _CODE}, "import")
    git(repo, "checkout", "-q", "two")
    commit(repo, {"two.txt": "x\n"}, "two moves")
    git(repo, "checkout", "-q", "main")
    git(repo, "merge", "-q", "--no-ff", "--no-commit", "two")
    commit(repo, {"notes.py": "# The retry step: steps.py:4\nx = 1\n"}, "merge two, the note back")
    commit(repo, {"steps.py": "import os\nimport sys\n" + _CODE}, "import sys")
    found = _findings(ws.check("--format", "json", "--no-cache").out, "AC201", "AC205")
    # At the second merge line 4 held step_3 (after "import"): now at 5. (From the
    # first merge, where it held step_4, it would be at 6.)
    assert [(f["code"], f["line"]) for f in found] == [("AC201", 1)] and "now at 5" in str(found[0]["message"])


def test_the_commit_that_wrote_a_claim_is_asked_only_when_it_has_something_to_say(
        ws: WorkspaceBuilder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Which blames git ran, from its own trace (GIT_TRACE): the one that names the
    # author's commit is the walk's costliest, and a claim whose lines stand needs none.
    repo = ws.repo("app", {"steps.py": _CODE, "notes.py": "x = 1\n"})
    cited = commit(repo, {"notes.py": "# The retry step: steps.py:4\nx = 1\n"}, "cite it")
    commit(repo, {"steps.py": _CODE + "step_11 = 11\n"}, "append a step")  # line 4 stands
    ws.config()
    cache, trace = tmp_path / "cache", tmp_path / "trace"
    monkeypatch.setenv("GIT_TRACE", str(trace))

    def check() -> tuple[list[dict[str, object]], list[str]]:
        trace.unlink(missing_ok=True)
        run = run_cli("check", "--format", "json", "--cache-dir", str(cache), "--select", "AC201,AC205",
                      cwd=ws.root)
        blames = [line.partition("built-in: git blame")[2] for line in trace.read_text().splitlines()
                  if "built-in: git blame" in line]
        return _findings(run.out, "AC201", "AC205"), blames

    found, blames = check()
    assert found == []
    # Where the mainline took the citing line in, and the lines followed from there.
    assert len(blames) == 2 and all("--first-parent" in b for b in blames), blames
    commit(repo, {"steps.py": "import os\n" + _CODE + "step_11 = 11\n"}, "import")
    found, blames = check()
    assert [f["code"] for f in found] == ["AC201"]
    assert f"written in {cited[:12]}" in str(found[0]["message"]) and "now at 5" in str(found[0]["message"])
    assert len(blames) == 3 and sum("--first-parent" not in b for b in blames) == 1, blames
    # A commit that changes neither file: the walk and the author are stored; git only
    # says again where the new head's mainline took the citing line in.
    commit(repo, {"other.txt": "x\n"}, "unrelated")
    again, blames = check()
    assert [f["message"] for f in again] == [f["message"] for f in found]
    assert len(blames) == 1 and "--first-parent" in blames[0] and "--reverse" not in blames[0], blames


def test_a_cross_repo_link_is_seen_where_the_file_had_its_lines_whatever_the_dates(ws: WorkspaceBuilder) -> None:
    # The chart's mainline dates are not monotonic: the commit that gave values.yaml its
    # ten keys says April, though the docs linked its line 8 in March. By date alone the
    # author saw January's three-line file, which has no line 8: the walk went quiet.
    chart = ws.repo("chart", {"values.yaml": "a: 1\nb: 2\nc: 3\n"})
    git(chart, "commit", "-q", "--amend", "--no-edit", date="2026-01-01T00:00:00Z")
    keys = "".join(f"key{n}: {n}\n" for n in range(1, 11))
    commit(chart, {"values.yaml": keys}, "ten keys", date="2026-04-01T00:00:00Z")
    docs = ws.repo("docs", {"README.md": "# Docs\n"})
    url = "https://github.com/acme/chart/blob/main/values.yaml#L8"
    commit(docs, {"README.md": f"# Docs\n\nThe eighth key is [here]({url}).\n"}, "link",
           date="2026-03-01T00:00:00Z")
    commit(chart, {"values.yaml": "# header\n# more\n" + keys}, "a header", date="2026-05-01T00:00:00Z")
    ws.with_urls("acme", "chart", "docs")
    run = run_cli("check", "--format", "json", "--no-cache", cwd=ws.root)
    found = _findings(run.out, "AC201", "AC205")
    assert [(f["code"], f["repo"], f["path"]) for f in found] == [("AC201", "docs", "README.md")], run.out
    assert "chart:values.yaml:8" in str(found[0]["message"]) and "now at 10" in str(found[0]["message"])


def test_a_cited_line_whose_value_was_updated_still_stands(ws: WorkspaceBuilder) -> None:
    # A link to where a version is set (`go.yml#L3`) points at the setting, not at its
    # value: a bump rewrites nothing it meant, unless the citing line quotes the value
    # (line 5); a setting that then moved is where it is now (AC201, fixable).
    workflow = "name: go\nenv:\n  GOLANG_VERSION: '1.23'\n  OTHER: 7\n"
    app = ws.repo("app", {".github/go.yml": workflow, "README.md": "# App\n"})
    url = "https://github.com/acme/app/blob/main/.github/go.yml"
    commit(app, {"README.md": f"# App\n\nThe [Go version]({url}#L3) used.\n\n"
                              f"It is [1.23]({url}#L3) for now.\n\nThe [other]({url}#L4).\n"}, "links")
    bumped = workflow.replace("1.23", "1.26").replace("OTHER: 7", "OTHER: 8")
    commit(app, {".github/go.yml": bumped}, "bump")
    ws.with_urls("acme", "app")
    run = run_cli("check", "--format", "json", "--no-cache", cwd=ws.root)
    assert [(f["code"], f["line"]) for f in _findings(run.out, "AC201", "AC205")] == [("AC205", 5)], run.out
    commit(app, {".github/go.yml": bumped.replace("env:\n", "env:\n  FIRST: 1\n")}, "a setting above")
    run = run_cli("check", "--format", "json", "--no-cache", cwd=ws.root)
    found = [(f["code"], f["line"], f.get("suggestion")) for f in _findings(run.out, "AC201", "AC205")]
    assert found == [("AC201", 3, "4"), ("AC205", 5, None), ("AC201", 7, "5")], run.out


def test_a_make_settings_value_bump_that_also_changed_its_operator_still_stands(ws: WorkspaceBuilder) -> None:
    # ingress-nginx's test/e2e-image/Makefile: `E2E_BASE_IMAGE="...:v2023"` became
    # `E2E_BASE_IMAGE ?= "...:v2024"`; the link to the line means the setting. A line
    # whose key changed was rewritten (AC205).
    make = "\nDIR := x\nE2E_BASE_IMAGE=\"r/runner:v2023\"\nOTHER=\"a\"\n"
    app = ws.repo("app", {"Makefile": make, "README.md": "# App\n"})
    url = "https://github.com/acme/app/blob/main/Makefile"
    commit(app, {"README.md": f"# App\n\nThe [image]({url}#L3) and [other]({url}#L4).\n"}, "links")
    commit(app, {"Makefile": make.replace('E2E_BASE_IMAGE="r/runner:v2023"', 'E2E_BASE_IMAGE ?= "r/runner:v2024"')
                 .replace('OTHER="a"', 'ANOTHER="a"')}, "bump")
    ws.with_urls("acme", "app")
    run = run_cli("check", "--format", "json", "--no-cache", cwd=ws.root)
    assert [(f["code"], f["column"]) for f in _findings(run.out, "AC201", "AC205")] == [("AC205", 76)], run.out  # the second link
