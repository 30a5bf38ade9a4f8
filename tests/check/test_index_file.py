"""Index files: per-repo indexes built apart, combined by `check --index`, give the
findings of one run over the whole workspace."""

from __future__ import annotations

import gzip
import json
import subprocess
from pathlib import Path

from anchorcheck.cli.demo import build_demo_workspace
from anchorcheck.git.repobuilder import commit, init_repo
from tests.conftest import run_cli

# Every rule family in one workspace: the demo's PR heads (AC101 across repos, AC201
# drift, AC204 restated port, AC102 wrong file) plus a repo with AC202, AC203, AC110
# and a suppression (and AC901 for an unused one).
REFS = ("--ref", "client-runtime=pr/360", "--ref", "backend=pr/1923")
RULES = ("--enable", "AC120", "--enable", "AC901")


def _workspace(root: Path) -> Path:
    config = build_demo_workspace(root)
    tools = init_repo(root / "tools", {
        "jobs.py": "def _old_probe():\n    return 200\n\n\ndef serve():\n    pass\n",
        "notes.py": (
            "# DEPLOY ORDER\n# The chart goes first.\nx = 1\n\n# DEPLOY ORDER\n# Again.\ny = 2\n"
            "# see DEPLOY ORDR in notes.py  # anchorcheck: ignore[AC101]\n"
            "# see ALSO GONE in notes.py  # anchorcheck: ignore[AC102]\n"
        ),
        "claims.py": (
            "# `_old_probe()` was the readiness check; see\n"
            "# client-runtime:jobs_manager.py:no_such_function() for the port.\n"
            "# Per ROLLBACK ON THE DEGRADED PATH in client:templates/jobs-manager-deployment.yaml.\n"
            "# The order is DEPLOY ORDER (in notes.py), defined twice there (AC110).\n"
            "z = 3\n"
        ),
    })
    commit(tools, {"jobs.py": "def serve():\n    pass\n"}, "drop the healthz report")
    with config.open("a", encoding="utf-8") as fh:
        fh.write('\n[[repo]]\nname = "tools"\npath = "tools"\nref = "main"\n')
    return config


def _findings(out: str) -> list[dict[str, object]]:
    doc = json.loads(out)
    return [{k: v for k, v in f.items()} for f in doc["findings"]]


def test_combined_per_repo_indexes_equal_one_run(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    _workspace(ws)
    whole = run_cli("check", "--format", "json", "--no-cache", *REFS, *RULES, cwd=ws)
    assert whole.code == 1, whole.err
    expected = _findings(whole.out)
    codes = {f["code"] for f in expected}
    assert {"AC101", "AC110", "AC202", "AC203", "AC204", "AC901"} <= codes, codes

    # One job per repo, each with its own (empty) cache, as on separate runners.
    files = []
    (tmp_path / "idx").mkdir()  # (outputs no longer make their folders)
    for name in ("client", "client-runtime", "backend", "tools"):
        out = tmp_path / "idx" / f"{name}.acidx"
        r = run_cli("index", name, "--out", str(out), *REFS, "--cache-dir", str(tmp_path / name),
                    cwd=ws)
        assert r.code == 0, r.err
        assert f"anchorcheck: wrote {out}" in r.err
        files += ["--index", str(out)]
    # The check job: no config, no cache, another folder; repos found where indexed.
    elsewhere = tmp_path / "check-job"
    elsewhere.mkdir()
    combined = run_cli("check", "--format", "json", "--no-cache", "--verbose", *RULES, *files,
                       cwd=elsewhere)
    assert combined.code == 1, combined.err
    assert _findings(combined.out) == expected
    assert json.loads(combined.out)["workspace"] == json.loads(whole.out)["workspace"]
    # Nothing was scanned: every snapshot came from an index.
    for name in ("client", "client-runtime", "backend", "tools"):
        assert f"anchorcheck: {name} at " in combined.err
    assert combined.err.count(" files, 0 read from git (0.0 MB)") == 4, combined.err


def test_one_index_of_all_repos_and_a_mix_with_scanned_repos(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    _workspace(ws)
    whole = run_cli("check", "--format", "json", *REFS, *RULES, cwd=ws)
    out = tmp_path / "all.acidx"
    assert run_cli("index", "--out", str(out), *REFS, cwd=ws).code == 0
    doc = json.loads(gzip.decompress(out.read_bytes()))
    assert [r["name"] for r in doc["repos"]] == ["client", "client-runtime", "backend", "tools"]
    # No source text: file contents appear only as comment text of references.
    raw = gzip.decompress(out.read_bytes()).decode()
    assert "def serve" not in raw and "tcpSocket" not in raw
    r = run_cli("check", "--format", "json", "--index", str(out), *RULES, cwd=ws)
    assert _findings(r.out) == _findings(whole.out)
    # The listing and graph commands read index files too.
    for cmd in (["anchors", "--format", "json"], ["refs", "--format", "json"],
                ["graph", "--format", "json"]):
        scanned = run_cli(*cmd, *REFS, cwd=ws)
        from_index = run_cli(*cmd, "--index", str(out), cwd=ws)
        assert (from_index.code, from_index.out) == (scanned.code, scanned.out), cmd
    # Two repos from an index, the others scanned from the config.
    part = tmp_path / "part.acidx"
    assert run_cli("index", "client", "tools", "--out", str(part), *REFS, cwd=ws).code == 0
    r = run_cli("check", "--format", "json", "--index", str(part), *REFS, *RULES, cwd=ws)
    assert _findings(r.out) == _findings(whole.out)


def test_index_files_that_cannot_be_used_are_one_line_errors(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    _workspace(ws)
    out = tmp_path / "tools.acidx"
    assert run_cli("index", "tools", "--out", str(out), cwd=ws).code == 0

    def error(*args: str, cwd: Path = ws) -> str:
        r = run_cli("check", *args, cwd=cwd)
        assert r.code == 2 and r.err.count("\n") == 1 and "Traceback" not in r.err, r.err
        return r.err

    garbage = tmp_path / "garbage.acidx"
    garbage.write_bytes(b"not gzip")
    assert "not an anchorcheck index file" in error("--index", str(garbage))
    assert "no such index file" in error("--index", str(tmp_path / "missing.acidx"))
    assert "is also in" in error("--index", str(out), "--index", str(out))
    # Built with other extraction settings than this check's: refused, not mixed.
    (ws / "other.toml").write_text((ws / "anchorcheck.toml").read_text() +
                                   "\n[settings]\nmax-file-size = 1000\n", encoding="utf-8")
    assert "other extraction settings" in error("--config", str(ws / "other.toml"), "--index", str(out))
    # The repo's clone moved: say so, and --repo points at the new place.
    moved = tmp_path / "moved-tools"
    (ws / "tools").rename(moved)
    elsewhere = tmp_path / "job"
    elsewhere.mkdir()
    assert "give --repo tools=PATH" in error("--index", str(out), cwd=elsewhere)
    r = run_cli("check", "--index", str(out), "--repo", f"tools={moved}", cwd=elsewhere)
    assert r.code == 1 and "AC203" in r.out, r.err
    # A shallow clone at the indexed commit is enough for the check job.
    shallow = tmp_path / "shallow-tools"
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{moved}", str(shallow)], check=True)
    r2 = run_cli("check", "--index", str(out), "--repo", f"tools={shallow}", cwd=elsewhere)
    assert (r2.code, r2.out) == (r.code, r.out), r2.err
    assert unknown_repo_error(ws) == "anchorcheck: error: no repo 'nope' in the workspace (client, client-runtime, backend, tools)\n"


def unknown_repo_error(ws: Path) -> str:
    r = run_cli("index", "nope", "--out", str(ws / "x.acidx"), cwd=ws)
    assert r.code == 2
    return r.err
