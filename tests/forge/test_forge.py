"""The forge clients against a real HTTP server on 127.0.0.1 (tests/forge/server.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from anchorcheck.forge.base import ForgeRepo
from anchorcheck.forge.github import GitHub
from anchorcheck.forge.gitlab import GitLab
from anchorcheck.forge.http import Auth, ForgeDenied, ForgeNotFound, ForgeUnavailable, Http
from anchorcheck.forge.locate import connect, locate
from tests.forge.server import Fault, Forge

TOKEN = "ghp_SECRETtoken0123456789abcdefSECRET"
DATA = Path(__file__).resolve().parents[1] / "data" / "github"


def github(forge: Forge, path: str = "acme/client", token: str | None = TOKEN, **kw: float) -> GitHub:
    repo = ForgeRepo("github", forge.url, "github.com", path)
    auth = Auth("Authorization", f"Bearer {token}", token) if token else None
    return GitHub(repo, Http(forge.url, auth, **kw))


def add_pulls(forge: Forge, n: int) -> None:
    repo = forge.repo("acme/client")
    for i in range(1, n + 1):
        repo.add_pull(i, title=f"PR {i}", body="", head_sha=f"{i:040d}", head_ref=f"topic-{i}", base_ref="main")


def test_paging_follows_link_headers_whatever_page_size_the_server_chose() -> None:
    with Forge(token=TOKEN, page_size=2) as forge:
        add_pulls(forge, 6)
        changes = github(forge).open_changes()
        assert [c.number for c in changes] == [1, 2, 3, 4, 5, 6]
        listed = [r for r in forge.log if r["path"] == "/repos/acme/client/pulls"]
        assert len(listed) == 3  # three pages of two, though 100 were asked for
        assert listed[0]["query"]["per_page"] == "100"
        assert changes[0].fetch_ref == "refs/pull/1/head" and changes[0].base_ref == "main"


def test_a_draft_and_a_pull_request_from_a_fork() -> None:
    with Forge(token=TOKEN) as forge:
        repo = forge.repo("acme/client")
        repo.add_pull(7, title="wip", body="", head_sha="a" * 40, head_ref="wip", base_ref="main", draft=True)
        repo.add_pull(8, title="from a fork", body="", head_sha="b" * 40, head_ref="patch-1", base_ref="main",
                      fork="someone/client")
        seven, eight = github(forge).open_changes()
        assert seven.draft and not seven.fork
        assert eight.fork and eight.head_repo == "someone/client" and not eight.draft


def test_401_and_404_are_one_line_and_never_name_the_token() -> None:
    with Forge(token=TOKEN) as forge:
        add_pulls(forge, 1)
        with pytest.raises(ForgeDenied) as denied:
            github(forge, token="ghp_wrongWRONGwrong").open_changes()
        with pytest.raises(ForgeNotFound) as missing:
            github(forge, path="acme/nothing").open_changes()
    for exc in (denied.value, missing.value):
        text = str(exc)
        assert "\n" not in text and TOKEN not in text and "WRONG" not in text
    assert "HTTP 401" in str(denied.value) and "Bad credentials" in str(denied.value)
    assert "HTTP 404" in str(missing.value) and "/repos/acme/nothing/pulls" in str(missing.value)


def test_a_rate_limit_that_resets_soon_is_waited_out() -> None:
    with Forge(token=TOKEN) as forge:
        add_pulls(forge, 1)
        forge.faults.append(Fault("rate-limit", seconds=2))
        slept: list[float] = []
        client = github(forge)
        client.http._sleep = lambda s: (slept.append(s), __import__("time").sleep(s))[1]  # real sleep, recorded
        assert [c.number for c in client.open_changes()] == [1]
        assert len(slept) == 1 and 1 <= slept[0] <= 4
        assert len([r for r in forge.log if r["path"].endswith("/pulls")]) == 2


def test_a_secondary_rate_limit_says_retry_after() -> None:
    with Forge(token=TOKEN) as forge:
        add_pulls(forge, 1)
        forge.faults.append(Fault("retry-after", seconds=1))
        assert [c.number for c in github(forge).open_changes()] == [1]


def test_a_rate_limit_ten_minutes_away_fails_clearly() -> None:
    with Forge(token=TOKEN) as forge:
        add_pulls(forge, 1)
        forge.faults.append(Fault("rate-limit", seconds=600))
        with pytest.raises(ForgeUnavailable) as exc:
            github(forge).open_changes()
    assert "rate limited" in str(exc.value) and "resets in 10 min" in str(exc.value)
    assert len(forge.log) == 1  # not tried again


def test_a_server_that_hangs_hits_the_time_out() -> None:
    with Forge(token=TOKEN) as forge:
        add_pulls(forge, 1)
        forge.faults.append(Fault("hang", seconds=3))
        with pytest.raises(ForgeUnavailable) as exc:
            github(forge, timeout=0.5).open_changes()
    assert "no answer within 0.5 s" in str(exc.value)


def test_a_5xx_is_tried_again_with_backoff() -> None:
    with Forge(token=TOKEN) as forge:
        add_pulls(forge, 2)
        forge.faults.append(Fault("5xx", times=2))
        slept: list[float] = []
        client = github(forge)
        client.http._sleep = slept.append
        assert len(client.open_changes()) == 2
        assert slept == [0.5, 1.0]
        forge.faults.append(Fault("5xx", times=10))
        with pytest.raises(ForgeUnavailable) as exc:
            client.open_changes()
    assert "HTTP 502" in str(exc.value) and "after 4 tries" in str(exc.value)


def test_issue_states_pull_requests_included_and_a_missing_one_is_none() -> None:
    with Forge(token=TOKEN) as forge:
        repo = forge.repo("acme/backend")
        repo.add_issue(1922, title="Decide the rollback trade", state="closed")
        repo.add_issue(1930, title="Still open", state="open")
        client = github(forge, path="acme/backend")
        closed = client.issue(1922)
        assert closed is not None and closed.closed and not closed.is_change
        still = client.issue(1930)
        assert still is not None and not still.closed
        assert client.issue(4242) is None


def test_comments_are_listed_created_and_edited() -> None:
    with Forge(token=TOKEN) as forge:
        add_pulls(forge, 1)
        client = github(forge)
        made = client.create_comment(1, "first")
        client.edit_comment(1, made.id, "second")
        assert [c.body for c in client.comments(1)] == ["second"]
        posted = [r for r in forge.log if r["method"] in ("POST", "PATCH")]
        assert [r["body"] for r in posted] == [{"body": "first"}, {"body": "second"}]
        assert all(r["headers"]["Authorization"] == f"Bearer {TOKEN}" for r in forge.log)


def test_gitlab_merge_requests_drafts_forks_issues_and_notes() -> None:
    with Forge(token=TOKEN, page_size=1) as forge:
        project = forge.project("acme/backend")
        project.add_merge_request(12, title="mr", description="Depends-On: client#791", sha="c" * 40,
                                  source_branch="topic", target_branch="main", draft=True)
        project.add_merge_request(13, title="fork", description="", sha="d" * 40, source_branch="patch",
                                  target_branch="main", fork_id=999)
        project.add_issue(5, title="x", state="closed")
        repo = ForgeRepo("gitlab", f"{forge.url}/api/v4", "gitlab.com", "acme/backend")
        client = GitLab(repo, Http(repo.api, Auth("PRIVATE-TOKEN", TOKEN, TOKEN)))
        twelve, thirteen = client.open_changes()
        assert twelve.draft and twelve.fetch_ref == "refs/merge-requests/12/head" and not twelve.fork
        assert thirteen.fork and twelve.body == "Depends-On: client#791"
        state = client.issue(5)
        assert state is not None and state.closed and client.issue(99) is None
        note = client.create_comment(12, "advice")
        client.edit_comment(12, note.id, "advice, edited")
        assert forge.comment_bodies("acme/backend", 12) == ["advice, edited"]
        assert forge.log[0]["path"] == "/api/v4/projects/acme%2Fbackend/merge_requests"


def test_where_a_repo_lives_and_its_api() -> None:
    env = {"GITHUB_SERVER_URL": "https://ghe.example.com", "GITHUB_API_URL": "https://ghe.example.com/api/v3"}
    gh = locate("https://github.com/acme/client", {})
    assert gh is not None and (gh.kind, gh.api, gh.path) == ("github", "https://api.github.com", "acme/client")
    ghe = locate("git@ghe.example.com:acme/client.git", env)
    assert ghe is not None and (ghe.kind, ghe.api) == ("github", "https://ghe.example.com/api/v3")
    gl = locate("https://gitlab.com/acme/sub/backend/-/tree/main", {})
    assert gl is not None and (gl.kind, gl.api, gl.path) == ("gitlab", "https://gitlab.com/api/v4", "acme/sub/backend")
    assert locate("/srv/git/client.git", {}) is None
    assert locate("file:///srv/git/client.git", {}) is None
    assert locate("https://example.org/acme/client", {}) is None
    assert locate("https://example.org/acme/client", {}, kind="gitlab") is not None


def test_connect_takes_the_token_from_the_environment_only_into_a_header() -> None:
    with Forge(token=TOKEN) as forge:
        add_pulls(forge, 1)
        repo = ForgeRepo("github", forge.url, "github.com", "acme/client")
        assert len(connect(repo, {"GH_TOKEN": TOKEN}).open_changes()) == 1
        with pytest.raises(ForgeDenied):
            connect(repo, {}).open_changes()
    assert all(TOKEN not in r["path"] and TOKEN not in str(r["query"]) for r in forge.log)


def _schema(name: str) -> Any:
    return json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))


def test_the_server_and_the_client_speak_githubs_documented_shapes() -> None:
    """The server's answers validate against GitHub's own schemas (tests/data/github,
    from github/rest-api-description), and so do the bodies the client sends."""
    with Forge(token=TOKEN) as forge:
        repo = forge.repo("acme/client")
        repo.add_pull(7, title="wip", body="Depends-On: acme/x#1", head_sha="a" * 40, head_ref="wip",
                      base_ref="main", draft=True)
        repo.add_pull(8, title="fork", body="", head_sha="b" * 40, head_ref="p", base_ref="main",
                      fork="someone/client")
        repo.add_issue(9, title="an issue", state="closed")
        client = github(forge)
        client.open_changes()
        client.issue(7)
        client.issue(9)
        made = client.create_comment(7, "advice")
        client.edit_comment(7, made.id, "advice, edited")
        client.comments(7)
        pulls = client.http.get("repos/acme/client/pulls").body
        issue = client.http.get("repos/acme/client/issues/7").body
        comments = client.http.get("repos/acme/client/issues/7/comments").body
    for item in pulls:
        jsonschema.validate(item, _schema("pull-request-simple"))
    jsonschema.validate(issue, _schema("issue"))
    for item in comments:
        jsonschema.validate(item, _schema("issue-comment"))
    sent = {r["method"]: r["body"] for r in forge.log if r["method"] in ("POST", "PATCH")}
    jsonschema.validate(sent["POST"], _schema("create-issue-comment-request"))
    jsonschema.validate(sent["PATCH"], _schema("update-issue-comment-request"))
