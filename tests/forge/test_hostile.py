"""A hostile or broken forge (issue 43): every request bounded in tries, time, size and
depth, listings capped, redirects kept on the API's host, the advisory comment edited
only where the token's own login wrote it. A real HTTP server on 127.0.0.1."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from anchorcheck.forge.http import Budget, ForgeError, ForgeUnavailable
from tests.forge.server import Fault, Forge
from tests.forge.test_forge import TOKEN, add_pulls, github


def test_retry_after_zero_is_tried_a_bounded_number_of_times() -> None:
    with Forge(token=TOKEN) as forge:
        add_pulls(forge, 1)
        forge.faults.append(Fault("retry-after", times=10**9, seconds=0))
        with pytest.raises(ForgeUnavailable) as exc:
            github(forge).open_changes()
        assert len(forge.log) <= 10 and "rate limited" in str(exc.value)


def test_a_runs_requests_have_a_total() -> None:
    with Forge(token=TOKEN) as forge:
        add_pulls(forge, 1)
        client = github(forge)
        client.http.budget = Budget(requests=3)
        for _ in range(3):
            client.issue(1)
        with pytest.raises(ForgeUnavailable) as exc:
            client.issue(1)
        assert "as many requests" in str(exc.value) and len(forge.log) == 3


def test_a_trickling_answer_is_cut_off_at_the_deadline() -> None:
    with Forge(token=TOKEN) as forge:
        forge.faults.append(Fault("trickle", seconds=0.2))
        start = time.monotonic()
        with pytest.raises(ForgeUnavailable) as exc:
            github(forge, timeout=1.0).open_changes()
        assert time.monotonic() - start < 5 and "no answer within 1 s" in str(exc.value)


@pytest.mark.parametrize("length", [True, False])
def test_a_body_past_the_cap_is_an_error_not_read_whole(length: bool) -> None:
    with Forge(token=TOKEN) as forge:
        forge.faults.append(Fault("huge", size=16 << 20, length=length))
        with pytest.raises(ForgeError) as exc:
            github(forge).open_changes()
        assert "8 MB" in str(exc.value) and len(forge.log) == 1  # not tried again


def test_json_nested_too_deep_is_a_forge_error() -> None:
    with Forge(token=TOKEN) as forge:
        forge.faults.append(Fault("deep", size=200_000))
        with pytest.raises(ForgeError) as exc:
            github(forge).open_changes()
        assert "nested too deeply" in str(exc.value)


def test_endless_pages_stop_at_the_cap_with_a_warning() -> None:
    with Forge(token=TOKEN) as forge:
        add_pulls(forge, 1)
        forge.faults.append(Fault("endless", times=10**9, size=3, path="/repos/acme/client/issues/1/comments"))
        client = github(forge)
        client.http.budget = Budget(warnings=[])
        comments = client.comments(1)
        assert len(comments) == 300 and len(forge.log) == 100
        assert client.http.budget.warnings == [
            "GET /repos/acme/client/issues/1/comments: more than 100 pages (300 items); only those are read"]


def test_a_redirect_to_another_host_is_refused() -> None:
    with Forge() as forge:  # (a server that would answer the redirected request)
        add_pulls(forge, 1)
        forge.faults.append(Fault("elsewhere", path="/repos/acme/client/pulls"))
        with pytest.raises(ForgeError) as exc:
            github(forge).open_changes()
        assert "redirected to another host (localhost:" in str(exc.value)
        assert len(forge.log) == 1 and TOKEN not in str(exc.value)


def test_only_the_tokens_own_marked_comment_is_edited(tmp_path: Path) -> None:
    from anchorcheck.forge.base import MARKER
    from tests.pr.test_open_prs import OWNER, run, workspace

    with Forge(token=TOKEN, login="anchorcheck-bot") as forge:
        ws = workspace(tmp_path, forge)
        forge.add_foreign_comment(f"{OWNER}/client-runtime", 359, f"{MARKER}\nmine, says the author", "mallory")
        env = forge.env()
        first = run("merge-order", "--open-prs", "--post", "--no-cache", "--fail-on", "never", cwd=ws, env=env)
        assert first.code == 0, first.err
        bodies = forge.comment_bodies(f"{OWNER}/client-runtime", 359)
        # The author's comment stands; the advisory is a comment of its own.
        assert bodies[0] == f"{MARKER}\nmine, says the author" and len(bodies) == 2
        assert "land client\\#791 first" in bodies[1]
        assert "1 comment carrying the advisory's marker were written by others and left alone" in first.err
        assert not [r for r in forge.log if r["method"] == "PATCH"]
        second = run("merge-order", "--open-prs", "--post", "--no-cache", "--fail-on", "never", cwd=ws, env=env)
        assert second.code == 0 and len(forge.comment_bodies(f"{OWNER}/client-runtime", 359)) == 2


def test_an_unknown_identity_posts_nothing(tmp_path: Path) -> None:
    from tests.pr.test_open_prs import OWNER, run, workspace

    with Forge(token=TOKEN, login=None) as forge:  # GET /user: 403, and not in GitHub Actions
        ws = workspace(tmp_path, forge)
        env = {**forge.env(), "GITHUB_ACTIONS": ""}
        r = run("merge-order", "--open-prs", "--post", "--no-cache", "--fail-on", "never", cwd=ws, env=env)
        assert r.code == 0 and "the forge will not say whom the token is" in r.err, r.err
        assert forge.comment_bodies(f"{OWNER}/client-runtime", 359) == []
        # In GitHub Actions the token's comments are github-actions[bot]'s.
        r = run("merge-order", "--open-prs", "--post", "--no-cache", "--fail-on", "never", cwd=ws,
                env={**forge.env(), "GITHUB_ACTIONS": "true"})
        assert len(forge.comment_bodies(f"{OWNER}/client-runtime", 359)) == 1, r.err


def test_a_config_nested_too_deeply_is_a_config_error(tmp_path: Path) -> None:
    from anchorcheck.git.repobuilder import init_repo
    from tests.conftest import run_cli

    repo = init_repo(tmp_path / "r", {"a.md": "# A\n"})
    (tmp_path / "anchorcheck.toml").write_text('[[repo]]\nname = "r"\npath = "r"\n\n[settings]\nx = '
                                               + "[" * 50_000 + "]" * 50_000 + "\n")
    # From the member repo (found by walking up) and named outright: one line, exit 2.
    for r in (run_cli("check", cwd=repo), run_cli("check", "--config", str(tmp_path / "anchorcheck.toml"),
                                                  cwd=tmp_path)):
        assert r.code == 2 and r.err.count("\n") == 1 and "TOML" in r.err and "internal" not in r.err, r.err


def test_a_repo_url_must_be_http_and_the_page_allows_only_its_own_script(tmp_path: Path) -> None:
    import base64
    import hashlib
    import re

    from anchorcheck.git.repobuilder import init_repo
    from tests.conftest import run_cli

    init_repo(tmp_path / "r", {"a.md": "# A\n\n[x](gone.md)\n"})
    config = tmp_path / "anchorcheck.toml"
    for bad in ("javascript:alert(document.domain)//", "data:text/html,x", " https://github.com/a/r"):
        config.write_text(f'[[repo]]\nname = "r"\npath = "r"\nurl = "{bad}"\n')
        r = run_cli("check", cwd=tmp_path)
        assert r.code == 2 and "url must be an http(s) URL" in r.err, (bad, r.err)
    config.write_text('[[repo]]\nname = "r"\npath = "r"\nurl = "https://github.com/acme/r"\n')
    page = run_cli("graph", "--format", "html", cwd=tmp_path).out
    policy = re.search(r'Content-Security-Policy" content="([^"]+)"', page)
    assert policy is not None and "'unsafe-inline'" not in policy.group(1).split("script-src", 1)[1].split(";")[0]
    code = page.split("\n<script>", 1)[1].split("</script>", 1)[0]
    digest = base64.b64encode(hashlib.sha256(code.encode()).digest()).decode()
    assert f"script-src 'sha256-{digest}'" in policy.group(1)
    assert page.count("<script") == 2  # the data block (not run) and the one script


def test_a_line_break_in_a_file_name_is_shown_escaped_in_markdown(tmp_path: Path) -> None:
    from anchorcheck.git.repobuilder import init_repo
    from tests.conftest import run_cli

    repo = init_repo(tmp_path / "r", {"a\nb.md": "# A\n\n[x](gone.md)\n"})
    out = run_cli("check", "--format", "markdown", cwd=repo).out
    assert "`r:a\\nb.md:3`" in out and "a b.md" not in out, out
