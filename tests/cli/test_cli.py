"""The command line as users and CI run it: formats, exit codes, errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.conftest import WorkspaceBuilder, run_cli

DEPLOY = "spec:\n  # ROLLBACK ON THE DEGRADED PATH\n  # Recreate plus --atomic rolls back.\n  strategy: Recreate\n"
CITE = "# see ROLLBACK ON THE DEGRADED PATH in client/templates/cron.yaml\n"


def two_repos(ws: WorkspaceBuilder) -> None:
    ws.repo("client", {"templates/deploy.yaml": DEPLOY, "templates/cron.yaml": "kind: CronJob\n"})
    ws.repo("runtime", {"jobs.py": CITE})


def test_text_output_is_plain_when_not_a_terminal(ws: WorkspaceBuilder) -> None:
    two_repos(ws)
    r = ws.check()
    assert r.code == 1
    assert r.out.splitlines() == [
        "runtime:jobs.py:1:3: AC102 'ROLLBACK ON THE DEGRADED PATH' is not in "
        "client/templates/cron.yaml; it is defined at client:templates/deploy.yaml:2",
        "Found 1 problem (1 error).",
    ]
    assert "\x1b[" not in r.out


def test_json_output_shape(ws: WorkspaceBuilder) -> None:
    two_repos(ws)
    r = ws.check("--format", "json")
    assert r.code == 1
    doc = json.loads(r.out)
    [f] = doc["findings"]
    assert set(f) >= {"code", "rule", "severity", "repo", "path", "line", "column", "message",
                      "fingerprint"}
    assert (f["code"], f["rule"], f["severity"], f["repo"], f["path"], f["line"], f["column"]) == (
        "AC102", "wrong-location", "error", "runtime", "jobs.py", 1, 3)
    assert f["suggestion"] == "client:templates/deploy.yaml"
    assert doc["summary"] == {"total": 1, "by_severity": {"error": 1, "warning": 0, "info": 0},
                              "by_code": {"AC102": 1}}


def test_fingerprint_survives_moved_lines(ws: WorkspaceBuilder) -> None:
    two_repos(ws)
    before = json.loads(ws.check("--format", "json").out)["findings"][0]
    ws.pr("runtime", "moved", {"jobs.py": "import os\n\n\n" + CITE})
    after = json.loads(ws.check("--format", "json", "--ref", "runtime=moved").out)["findings"][0]
    assert after["line"] == before["line"] + 3
    assert after["fingerprint"] == before["fingerprint"]


def test_fail_on_thresholds(ws: WorkspaceBuilder) -> None:
    ws.repo("r", {"a.py": "# DUPLICATED HEADING\n# Body.\nx = 1\n# DUPLICATED HEADING\n# Body.\n",
                  "b.py": "# see DUPLICATED HEADING in a.py\n"})  # (cited: AC110 warns)
    assert ws.check().code == 0  # AC110 is a warning
    assert ws.check("--fail-on", "warning").code == 1
    assert ws.check("--fail-on", "never").code == 0


def test_anchors_json_and_citation_counts(ws: WorkspaceBuilder) -> None:
    ws.repo("client", {"templates/deploy.yaml": DEPLOY})
    ws.repo("runtime", {"a.py": CITE.replace("cron", "deploy"), "b.py": CITE.replace("cron", "deploy")})
    ws.config()
    r = run_cli("anchors", "--format", "json", cwd=ws.root)
    assert r.code == 0, r.err
    assert json.loads(r.out) == {"anchors": [{
        "name": "ROLLBACK ON THE DEGRADED PATH", "kind": "caps-heading", "repo": "client",
        "path": "templates/deploy.yaml", "line": 2, "slug": "rollback-on-the-degraded-path",
        "citations": 2,
    }]}
    text = run_cli("anchors", cwd=ws.root).out
    assert "client:templates/deploy.yaml:2: caps-heading ROLLBACK ON THE DEGRADED PATH (2 citing)" in text


def test_refs_lists_resolutions(ws: WorkspaceBuilder) -> None:
    two_repos(ws)
    ws.config()
    doc = json.loads(run_cli("refs", "--format", "json", cwd=ws.root).out)
    assert [(r["path"], r["status"], r["targets"]) for r in doc["references"]] == [
        ("jobs.py", "wrong-location", ["client:templates/deploy.yaml:2"])
    ]


def test_rules_listing_and_one_rule(tmp_path: Path) -> None:
    r = run_cli("rules", cwd=tmp_path)
    assert r.code == 0
    codes = [line.split()[0] for line in r.out.splitlines()]
    assert codes == ["AC101", "AC102", "AC103", "AC104", "AC105", "AC106", "AC107", "AC108", "AC110", "AC120",
                     "AC201", "AC202", "AC203", "AC204", "AC205", "AC206", "AC207", "AC301", "AC302", "AC303", "AC304",
                     "AC305", "AC306", "AC307", "AC308", "AC901"]
    one = run_cli("rules", "AC101", cwd=tmp_path)
    assert one.out.startswith("AC101 dangling-reference (error, on by default)")
    for part in ("What:", "Why:", "Example:"):
        assert part in one.out
    assert run_cli("rules", "wrong-location", cwd=tmp_path).out.startswith("AC102")
    bad = run_cli("rules", "AC999", cwd=tmp_path)
    assert (bad.code, bad.err.strip()) == (2, "anchorcheck: error: unknown rule 'AC999' (see 'anchorcheck rules')")


def test_config_errors_are_one_line_exit_2(tmp_path: Path) -> None:
    cases = {
        "[[repo]\n": "invalid TOML",
        '[[repo]]\nname = "a"\n': "missing required key 'path'",
        '[[repo]]\nname = "a"\npath = 3\n': "'path' must be a string, got an integer",
        '[[repo]]\nname = "a"\npath = "x"\n[[repo]]\nname = "a"\npath = "y"\n': "duplicate repo name 'a'",
        '[[repo]]\nname = "a"\npath = "nowhere"\n': "nowhere: no such directory",
        '[[repo]]\nname = "a"\npath = "."\n': "not a git repository",
        '[[repo]]\nname = "a"\npath = "."\n[settings]\nmax-file-size = "big"\n': "'max-file-size' must be an integer, got a string",
    }
    for text, expected in cases.items():
        (tmp_path / "anchorcheck.toml").write_text(text, encoding="utf-8")
        r = run_cli("check", cwd=tmp_path)
        assert r.code == 2, (text, r.out, r.err)
        assert expected in r.err, (text, r.err)
        assert len(r.err.strip().splitlines()) == 1, r.err
        assert "Traceback" not in r.err


def test_debug_adds_the_traceback_to_the_one_line_error(tmp_path: Path) -> None:
    (tmp_path / "anchorcheck.toml").write_text('[[repo]]\nname = "a"\npath = "nowhere"\n', encoding="utf-8")
    r = run_cli("check", "--debug", cwd=tmp_path)
    assert r.code == 2
    assert r.err.startswith("Traceback (most recent call last):"), r.err
    assert r.err.rstrip().splitlines()[-1].startswith("anchorcheck: error: "), r.err
    assert "nowhere: no such directory" in r.err


def test_bad_options_exit_2(tmp_path: Path) -> None:
    assert run_cli("check", "--repo", "nonsense", cwd=tmp_path).code == 2
    assert run_cli("check", cwd=tmp_path).code == 2  # not a git repo, no config
    assert run_cli("check", "--format", "xml", cwd=tmp_path).code == 2
    assert run_cli("check", "--config", str(tmp_path / "missing.toml"), cwd=tmp_path).code == 2


def test_unknown_config_keys_warn_and_continue(ws: WorkspaceBuilder) -> None:
    ws.repo("r", {"a.py": "x = 1\n"})
    (ws.root / "anchorcheck.toml").write_text(
        '[[repo]]\nname = "r"\npath = "r"\nbranch = "main"\n[setings]\n', encoding="utf-8")
    r = run_cli("check", cwd=ws.root)
    assert r.code == 0
    assert "unknown key 'branch'" in r.err
    assert "unknown key 'setings'" in r.err


def test_rules_can_be_disabled_in_config(ws: WorkspaceBuilder) -> None:
    ws.repo("r", {"a.py": "# see MISSING HEADING NAME in a.py\n"})
    (ws.root / "anchorcheck.toml").write_text(
        '[[repo]]\nname = "r"\npath = "r"\n[rules]\ndisable = ["AC101"]\n', encoding="utf-8")
    assert run_cli("check", cwd=ws.root).code == 0


def test_terminal_escapes_in_repo_text_are_not_passed_through(ws: WorkspaceBuilder) -> None:
    ws.repo("r", {"a.py": '# see "EVIL \x1b[2J HEADING" in a.py\n'})
    r = ws.check()
    assert "\x1b" not in r.out
    assert "\\x1b[2J" in r.out


def test_demo_runs_and_tells_the_story(tmp_path: Path) -> None:
    r = run_cli("demo", "--keep", str(tmp_path / "demo"), cwd=tmp_path)
    assert r.code == 0, r.err
    assert "AC101 no heading 'ROLLBACK ON THE DEGRADED PATH'" in r.out
    assert "AC102 'ATOMIC UPGRADES IMPLY WAIT' is not in client/templates/jobs-manager-deployment.yaml" in r.out
    assert r.out.count("No problems found.") == 1
    assert "AC201 'type: Recreate' is no longer at client:templates/jobs-manager-deployment.yaml:12; it is now at 17" in r.out
    assert "AC204 this line restates '8080', but client-runtime:jobs_manager.py::env.INGESTION_HTTP_PORT is now '9090'" in r.out
    assert "[client#791] client:Chart.yaml:3:1: AC305 develop is at 1.9.59, so this bump 1.9.58 -> 1.9.59 is no longer ahead: re-cut it to 1.9.61" in r.out
    assert "  3. client-runtime#359  (after client#791)" in r.out
    kept = run_cli("check", "--config", str(tmp_path / "demo" / "anchorcheck.toml"),
                   "--ref", "client-runtime=pr/359", cwd=tmp_path)
    assert kept.code == 1 and "AC101" in kept.out


def _stderr_on_a_terminal(args: list[str], cwd: Path, env_extra: dict[str, str]) -> str:
    """Run the command line with stderr on a real pseudo-terminal; return what it showed."""
    import os
    import pty
    import subprocess
    import sys

    master, slave = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k != "CI"} | env_extra
    proc = subprocess.Popen([sys.executable, "-m", "anchorcheck", *args], cwd=cwd, env=env,
                            stdout=subprocess.DEVNULL, stderr=slave)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 4096)
        except OSError:  # the terminal closed: the process is done
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=60)
    os.close(master)
    return b"".join(chunks).decode(errors="replace")


def test_progress_on_a_terminal_only(ws: WorkspaceBuilder) -> None:
    ws.repo("r", {f"m{i}.py": f"# PART {i} HEADING\n# Body.\nx = {i}\n" for i in range(300)})
    ws.config()
    shown = _stderr_on_a_terminal(["check", "--no-cache"], ws.root, {})
    assert "anchorcheck: r: 250/300 files read" in shown
    assert "anchorcheck: r: 300/300 files read, 0.0 MB, 300 anchors" in shown
    assert _stderr_on_a_terminal(["check", "--no-cache", "--quiet"], ws.root, {}) == ""
    assert _stderr_on_a_terminal(["check", "--no-cache"], ws.root, {"CI": "true"}) == ""


def test_the_command_line_leaves_its_heap_to_the_process_exit_not_to_a_last_collection(tmp_path: Path) -> None:
    """main() freezes the heap at the end (gc.freeze): at exit the collector would only
    walk it. The command still ends with its exit code and its output."""
    script = ("import gc, sys\nsys.argv = ['anchorcheck', '--version']\nfrom anchorcheck.cli.main import main\n"
              "code = 0\ntry:\n    main()\nexcept SystemExit as e:\n    code = e.code\n"
              "print('frozen', gc.get_freeze_count() > 0, 'code', code)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False,
                          cwd=tmp_path)
    assert "anchorcheck" in done.stdout and "frozen True code 0" in done.stdout, done.stdout + done.stderr


def test_the_command_is_the_module_entry_and_runs_with_the_collector_off() -> None:
    """`anchorcheck` (the console script) and `python -m anchorcheck` are one entry,
    which turns the cyclic collector off before importing the package."""
    import importlib.metadata

    import anchorcheck.__main__ as entry

    [script] = [e for e in importlib.metadata.entry_points(group="console_scripts") if e.name == "anchorcheck"]
    assert script.load() is entry.main
    probe = ("import gc, sys\nimport anchorcheck.__main__ as m\nsys.argv = ['anchorcheck', '--version']\n"
             "import anchorcheck.cli.main as c\norig = c._main\n"
             "c._main = lambda: (print('collector', gc.isenabled()), orig())\nm.main()\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "collector False"
