"""AC106 and AC107: issue references checked against a forge on 127.0.0.1."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from anchorcheck.extract.blob import ExtractOptions, extract
from anchorcheck.model.reference import RefKind
from tests.conftest import FORGE_TOKENS, Run, WorkspaceBuilder
from tests.forge.server import Forge

TOKEN = "ghp_ISSUEStoken0123456789shouldneverappear"

CHART = """\
# Draft pending the decision being confirmed on backend#1922.
# History: backend#1779 chose Recreate over RollingUpdate.
# The port is set in one place; see #4242 for why.
# Blocked on https://github.com/acme/backend/issues/1930 (still open).
# TODO(backend#19222): drop the hardcoded port
# Fixed in step #3 of the runbook; colour #333333.
replicas: 1
"""


def run(*args: str, cwd: Path, env: dict[str, str]) -> Run:
    base = {k: v for k, v in os.environ.items() if k not in FORGE_TOKENS}
    done = subprocess.run([sys.executable, "-m", "anchorcheck", *args], cwd=cwd, capture_output=True, text=True,
                          env={**base, **env}, timeout=120, check=False)
    return Run(done.returncode, done.stdout, done.stderr)


def seed(ws: WorkspaceBuilder, forge: Forge) -> None:
    ws.repo("client", {"values.yaml": CHART})
    ws.repo("backend", {"README.md": "# Backend\n"})
    ws.with_urls("acme", "client", "backend")
    backend = forge.repo("acme/backend")
    backend.add_issue(1922, title="Confirm the rollback trade", state="closed")
    backend.add_issue(1779, title="Recreate or RollingUpdate", state="closed")
    backend.add_issue(1930, title="Still being decided", state="open")
    forge.repo("acme/client")  # exists, with no issue 4242


def found(r: Run) -> list[tuple[str, int]]:
    return [(f["code"], f["line"]) for f in json.loads(r.out)["findings"] if f["code"] in ("AC106", "AC107")]


def test_the_seeds_wording_and_neutral_wording(ws: WorkspaceBuilder, tmp_path: Path) -> None:
    with Forge(token=TOKEN) as forge:
        seed(ws, forge)
        env = {**forge.env(), "XDG_CACHE_HOME": str(tmp_path / "cache")}
        r = run("check", "--format", "json", "--fail-on", "never", cwd=ws.root, env=env)
        assert r.code == 0, r.err
        # 1922 closed and waited on: AC107; 1779 closed but only mentioned: nothing;
        # #4242 no such issue: AC106; 1930 waited on but open: nothing; 19222: AC106.
        assert found(r) == [("AC107", 1), ("AC106", 3), ("AC106", 5)]
        messages = {f["line"]: f["message"] for f in json.loads(r.out)["findings"]}
        assert "Confirm the rollback trade" in messages[1] and "closed" in messages[1]
        asked = len(forge.log)
    # The server is gone: the answers come from the cache, within the TTL.
    again = run("check", "--format", "json", "--fail-on", "never", cwd=ws.root, env=env)
    assert again.code == 0, again.err
    assert found(again) == found(r) and "warning" not in again.err
    assert asked > 0
    cached = b"".join(p.read_bytes() for p in (tmp_path / "cache").rglob("*") if p.is_file())
    assert TOKEN.encode() not in cached
    assert TOKEN not in r.out + r.err + again.out + again.err


def test_a_forge_that_fails_is_a_warning_unless_required(ws: WorkspaceBuilder) -> None:
    with Forge(token=TOKEN) as forge:
        seed(ws, forge)
        env = forge.env()
    # Stopped, and no cache: nothing is known.
    r = run("check", "--no-cache", "--format", "json", "--fail-on", "never", cwd=ws.root, env=env)
    assert r.code == 0, r.err
    assert found(r) == []
    assert "warning:" in r.err and "its issue references are not checked" in r.err
    required = run("check", "--no-cache", "--forge", "require", "--fail-on", "never", cwd=ws.root, env=env)
    assert required.code == 2 and len(required.err.strip().splitlines()) == 1, required.err
    offline = run("check", "--no-cache", "--offline", "--format", "json", "--fail-on", "never", cwd=ws.root,
                  env=env)
    assert offline.code == 0 and offline.err == "" and found(offline) == []


def test_no_token_and_no_flag_asks_no_forge(ws: WorkspaceBuilder) -> None:
    with Forge() as forge:
        seed(ws, forge)
        env = {k: v for k, v in forge.env().items() if k not in FORGE_TOKENS}
        r = run("check", "--no-cache", "--format", "json", "--fail-on", "never", cwd=ws.root, env=env)
        assert r.code == 0 and found(r) == [] and forge.log == []
        asked = run("check", "--no-cache", "--forge", "--format", "json", "--fail-on", "never", cwd=ws.root,
                    env=env)
        assert found(asked) == [("AC107", 1), ("AC106", 3), ("AC106", 5)], asked.err


def test_issue_reference_forms() -> None:
    refs = sorted((r for r in extract(CHART, "yaml", ExtractOptions()).references if r.kind is RefKind.ISSUE),
                  key=lambda r: r.line)
    assert [(r.line, r.target_repo, r.name, r.claim) for r in refs] == [
        (1, "backend", "1922", "pending"),
        (2, "backend", "1779", None),
        (3, None, "4242", None),
        (4, "acme/backend", "1930", "pending"),
        (5, "backend", "19222", "pending"),
    ]
    assert refs[3].via_url and refs[3].target_path == "github.com"


def test_list_items_and_steps_are_no_issue_references() -> None:
    text = ("# For #1 and #3 there could be odd cases; we may have both after #2.\n"
            "# The common prefix at #1 is empty. Colour #333333, item #7.\n"
            "# Regression test for the bug (#1024); see issue #1990.\nx = 1\n")
    refs = [r for r in extract(text, "python", ExtractOptions()).references if r.kind is RefKind.ISSUE]
    assert sorted(r.name for r in refs) == ["1024", "1990"]
