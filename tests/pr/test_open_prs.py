"""`merge-order --open-prs` and `--post`: the seed story through a forge on 127.0.0.1.

The workspace is the demo's three repos, each a clone whose `origin` is a local bare
repo holding GitHub's `refs/pull/N/head` (the PR branches exist nowhere else), and a
real HTTP server listing the PRs as GitHub does."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from anchorcheck.cli.demo import build_demo_workspace
from anchorcheck.forge.base import MARKER
from anchorcheck.git.repobuilder import branch, git
from tests.conftest import Run
from tests.forge.server import Forge

TOKEN = "ghs_TOKENtokenTOKEN0123456789nevershown"
OWNER = "acme"
PRS = {  # repo -> [(number, branch, title, body, draft)]
    "client": [(791, "pr/791", "docs(chart): rollback note", "", False),
               (787, "pr/787", "values: resources", "", False)],
    "client-runtime": [(359, "pr/359", "jobs_manager: cite the chart's rollback note", "", False),
                       (360, "pr/360", "ingestion on 9090", "", True)],
    "backend": [(1923, "pr/1923", "scripts: manual upgrade", "", False)],
}
BASES = {"client": "develop", "client-runtime": "main", "backend": "main"}


def run(*args: str, cwd: Path, env: dict[str, str]) -> Run:
    done = subprocess.run([sys.executable, "-m", "anchorcheck", *args], cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, **env}, timeout=120, check=False)
    return Run(done.returncode, done.stdout, done.stderr)


def workspace(root: Path, forge: Forge, bodies: dict[int, str] | None = None) -> Path:
    """The demo workspace, its PR branches moved to origins' refs/pull/N/head, and the
    PRs listed on `forge`."""
    config = build_demo_workspace(root / "ws")
    text = config.read_text().replace("https://github.com/example/", f"https://github.com/{OWNER}/")
    text = text.replace('name = "backend"\npath = "backend"\nref = "main"\n',
                        f'name = "backend"\npath = "backend"\nref = "main"\nurl = "https://github.com/{OWNER}/backend"\n')
    config.write_text(text)
    for name, prs in PRS.items():
        repo = root / "ws" / name
        origin = root / "origins" / f"{name}.git"
        subprocess.run(["git", "clone", "-q", "--bare", str(repo), str(origin)], check=True)
        remote = forge.repo(f"{OWNER}/{name}")
        for number, head, title, body, draft in prs:
            sha = git(repo, "rev-parse", head).strip()
            git(origin, "update-ref", f"refs/pull/{number}/head", sha)
            git(origin, "update-ref", "-d", f"refs/heads/{head}")
            git(repo, "branch", "-D", head)  # the head exists only on the forge now
            remote.add_pull(number, title=title, body=(bodies or {}).get(number, body), head_sha=sha,
                            head_ref=head, base_ref=BASES[name], draft=draft)
        git(repo, "remote", "add", "origin", str(origin))
    return root / "ws"


def add_pr(root: Path, forge: Forge, name: str, number: int, files: dict[str, str]) -> None:
    """One more open PR on `name`, its head only at the origin's refs/pull/N/head."""
    repo = root / "ws" / name
    sha = branch(repo, "tmp-pr", files, base=BASES[name], message=f"{name}#{number}")
    git(root / "origins" / f"{name}.git", "fetch", "-q", str(repo), f"tmp-pr:refs/pull/{number}/head")
    git(repo, "branch", "-D", "tmp-pr")
    forge.repo(f"{OWNER}/{name}").add_pull(number, title=f"PR {number}", body="", head_sha=sha, head_ref="topic",
                                           base_ref=BASES[name])


@pytest.fixture
def forge() -> Forge:
    with Forge(token=TOKEN, page_size=2) as server:
        yield server


def test_the_seed_story_found_on_its_own(tmp_path: Path, forge: Forge) -> None:
    ws = workspace(tmp_path, forge)
    env = {**forge.env(), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    r = run("merge-order", "--open-prs", "--for", "client-runtime#359", "--format", "json", cwd=ws, env=env)
    # client#791 and client#787 race on a version (an error), but --for counts #359's alone.
    assert r.code == 0, r.err
    doc = json.loads(r.out)
    assert {c["label"] for c in doc["changes"]} == {"client#791", "client#787", "client-runtime#359",
                                                    "client-runtime#360", "backend#1923"}
    runtime = next(c for c in doc["changes"] if c["label"] == "client-runtime#359")
    assert runtime["depends_on"] == ["client#791"]
    assert doc["order"].index("client#791") < doc["order"].index("client-runtime#359")
    assert next(c for c in doc["changes"] if c["label"] == "client-runtime#360")["draft"] is True
    assert runtime["url"] == f"https://github.com/{OWNER}/client-runtime/pull/359"
    # Heads came from the origins into anchorcheck's own refs; no branch was made.
    runtime_repo = ws / "client-runtime"
    assert git(runtime_repo, "for-each-ref", "--format=%(refname)", "refs/anchorcheck/").split() == [
        "refs/anchorcheck/pull/359/head", "refs/anchorcheck/pull/360/head"]
    assert git(runtime_repo, "branch", "--format=%(refname:short)").split() == ["main"]
    # Markdown for #359's run says to land client#791 first.
    md = run("merge-order", "--open-prs", "--for", "client-runtime#359", "--format", "markdown",
             "--fail-on", "never", cwd=ws, env=env)
    assert md.code == 0, md.err
    # (Markdown escapes `#`, so the forge links no issue from the prose.)
    assert "land client\\#791 first" in md.out and "**Land after:** `client#791`" in md.out
    assert TOKEN not in r.out + r.err + md.out + md.err


def test_for_counts_only_that_changes_findings(tmp_path: Path, forge: Forge) -> None:
    ws = workspace(tmp_path, forge)
    env = forge.env()
    # #359's findings are an info (AC301): it passes; the chart PRs race (AC305, an error).
    assert run("merge-order", "--open-prs", "--no-cache", "--for", "client-runtime#359", cwd=ws, env=env).code == 0
    assert run("merge-order", "--open-prs", "--no-cache", "--for", "client#787", cwd=ws, env=env).code == 1
    assert run("merge-order", "--open-prs", "--no-cache", cwd=ws, env=env).code == 1


def test_post_twice_leaves_one_comment_per_pr_edited(tmp_path: Path, forge: Forge) -> None:
    ws = workspace(tmp_path, forge)
    add_pr(tmp_path, forge, "backend", 1924, {"NOTES.txt": "nothing anyone cites\n"})
    env = forge.env()
    first = run("merge-order", "--open-prs", "--post", "--no-cache", "--fail-on", "never", cwd=ws, env=env)
    assert first.code == 0, first.err
    runtime = forge.comment_bodies(f"{OWNER}/client-runtime", 359)
    assert len(runtime) == 1 and runtime[0].startswith(MARKER) and "land client\\#791 first" in runtime[0]
    chart = forge.comment_bodies(f"{OWNER}/client", 791)
    assert len(chart) == 1 and "**Blocks:** `client-runtime#359`" in chart[0]
    # A PR the advisory says nothing to gets no comment.
    assert forge.comment_bodies(f"{OWNER}/backend", 1924) == []
    assert "backend#1924: comment skipped (nothing to say)" in first.err
    # client#791 lands: the next run's advisory for #359 has nothing left to say.
    client = ws / "client"
    git(client, "fetch", "-q", "origin", "refs/pull/791/head")
    git(client, "checkout", "-q", "develop")
    git(client, "merge", "-q", "--no-edit", "FETCH_HEAD")
    forge.repo(f"{OWNER}/client").pulls = [p for p in forge.repo(f"{OWNER}/client").pulls if p["number"] != 791]
    second = run("merge-order", "--open-prs", "--post", "--no-cache", "--fail-on", "never", cwd=ws, env=env)
    assert second.code == 0, second.err
    runtime = forge.comment_bodies(f"{OWNER}/client-runtime", 359)
    assert len(runtime) == 1 and "Nothing left to say" in runtime[0]
    edits = [r for r in forge.log if r["method"] == "PATCH"]
    assert edits and all(r["path"].startswith(f"/repos/{OWNER}/") for r in edits)
    # A third run with nothing new edits nothing.
    before = len(forge.log)
    run("merge-order", "--open-prs", "--post", "--no-cache", "--fail-on", "never", cwd=ws, env=env)
    assert not [r for r in forge.log[before:] if r["method"] in ("POST", "PATCH")]


def test_post_dry_run_says_what_where_and_posts_nothing(tmp_path: Path, forge: Forge) -> None:
    ws = workspace(tmp_path, forge)
    r = run("merge-order", "--open-prs", "--post", "--dry-run", "--no-cache", "--fail-on", "never", cwd=ws,
            env=forge.env())
    assert r.code == 0, r.err
    assert f"would have created the comment on github.com/{OWNER}/client-runtime#359" in r.err
    assert MARKER in r.err
    assert not [x for x in forge.log if x["method"] in ("POST", "PATCH")]


def test_declared_dependencies_and_both_kinds_of_disagreement(tmp_path: Path, forge: Forge) -> None:
    bodies = {
        # #359 declares backend#1923, which it does not need, and not client#791, which it does.
        359: f"Cites the chart's note.\n\nDepends-On: https://github.com/{OWNER}/backend/pull/1923\n",
        # #360 declares client#787 by the short form: declared only, yet it orders.
        360: "Depends-On: client#787\nDepends-On: other#5\n",
    }
    ws = workspace(tmp_path, forge, bodies)
    r = run("merge-order", "--open-prs", "--no-cache", "--format", "json", "--fail-on", "never", cwd=ws,
            env=forge.env())
    assert r.code == 0, r.err
    doc = json.loads(r.out)
    codes = {(f["code"], f["change"]) for f in doc["findings"]}
    assert ("AC307", "client-runtime#359") in codes  # computed, not declared
    assert ("AC308", "client-runtime#359") in codes  # declared, not needed
    ac307 = next(f for f in doc["findings"] if f["code"] == "AC307")
    assert ac307["suggestion"] == f"Depends-On: https://github.com/{OWNER}/client/pull/791"
    runtime360 = next(c for c in doc["changes"] if c["label"] == "client-runtime#360")
    assert "client#787" in runtime360["depends_on"]  # the declaration orders it
    assert doc["order"].index("client#787") < doc["order"].index("client-runtime#360")
    assert "declares Depends-On other#5, which is no open change of this run" in r.err


def test_open_prs_mixes_with_pr_and_a_401_is_one_line_exit_2(tmp_path: Path, forge: Forge) -> None:
    ws = workspace(tmp_path, forge)
    git(ws / "client-runtime", "fetch", "-q", "origin", "refs/pull/359/head:refs/heads/mine")
    mixed = run("merge-order", "--open-prs", "--pr", "client-runtime#359=mine", "--no-cache", "--format", "json",
                "--fail-on", "never", cwd=ws, env=forge.env())
    assert mixed.code == 0, mixed.err
    change = next(c for c in json.loads(mixed.out)["changes"] if c["label"] == "client-runtime#359")
    assert change["ref"] == "mine"  # --pr wins over the forge's listing of the same label
    denied = run("merge-order", "--open-prs", "--no-cache", cwd=ws, env={**forge.env(), "GITHUB_TOKEN": "wrong"})
    assert denied.code == 2
    lines = denied.err.strip().splitlines()
    assert len(lines) == 1 and "HTTP 401" in lines[0] and "Bad credentials" in lines[0], denied.err
    assert "wrong" not in denied.err


def test_a_change_given_with_pr_keeps_its_descriptions_depends_on(tmp_path: Path, forge: Forge) -> None:
    # --pr names the ref to analyse (a local head, say); what the forge says of the change
    # still holds: its Depends-On lines order it, as they do when the forge lists it alone.
    ws = workspace(tmp_path, forge, {360: "Depends-On: client#787\n"})
    git(ws / "client-runtime", "fetch", "-q", "origin", "refs/pull/360/head:refs/heads/mine")
    r = run("merge-order", "--open-prs", "--pr", "client-runtime#360=mine", "--no-cache", "--format", "json",
            "--fail-on", "never", cwd=ws, env=forge.env())
    assert r.code == 0, r.err
    doc = json.loads(r.out)
    runtime360 = next(c for c in doc["changes"] if c["label"] == "client-runtime#360")
    assert runtime360["ref"] == "mine"
    assert "client#787" in runtime360["depends_on"]
    assert doc["order"].index("client#787") < doc["order"].index("client-runtime#360")


def test_a_gitlab_repo_beside_github_ones(tmp_path: Path, forge: Forge) -> None:
    ws = workspace(tmp_path, forge)
    # backend moves to GitLab: its MR head at refs/merge-requests/N/head.
    config = ws / "anchorcheck.toml"
    config.write_text(config.read_text().replace(f"https://github.com/{OWNER}/backend",
                                                 f"https://gitlab.com/{OWNER}/backend"))
    origin = tmp_path / "origins" / "backend.git"
    sha = git(origin, "rev-parse", "refs/pull/1923/head").strip()
    git(origin, "update-ref", "refs/merge-requests/12/head", sha)
    git(origin, "update-ref", "-d", "refs/pull/1923/head")
    del forge.github[f"{OWNER}/backend"]
    forge.project(f"{OWNER}/backend").add_merge_request(12, title="upgrade", description="", sha=sha,
                                                        source_branch="pr/1923", target_branch="main")
    r = run("merge-order", "--open-prs", "--no-cache", "--format", "json", "--fail-on", "never", cwd=ws,
            env=forge.env())
    assert r.code == 0, r.err
    labels = {c["label"] for c in json.loads(r.out)["changes"]}
    assert "backend#12" in labels and "client#791" in labels
    assert git(ws / "backend", "for-each-ref", "--format=%(refname)", "refs/anchorcheck/").split() == [
        "refs/anchorcheck/merge-requests/12/head"]
    assert any(x["path"] == f"/api/v4/projects/{OWNER}%2Fbackend/merge_requests" for x in forge.log)
