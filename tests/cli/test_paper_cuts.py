"""The paper cuts a new user met: --statistics, --show-source, --color, outputs that
cannot be written, the rules listing, fix with nothing to fix, the demo's commands."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import WorkspaceBuilder, run_cli


def workspace(ws: WorkspaceBuilder) -> None:
    ws.repo("r", {"a.md": "See [gone](gone.md) and [lost](lost.md).\n", "b.py": "# see MISSING HEADING HERE in b.py\n"})
    ws.config()


def test_statistics_and_show_source(ws: WorkspaceBuilder) -> None:
    workspace(ws)
    stats = run_cli("check", "--statistics", cwd=ws.root)
    assert stats.out.splitlines() == ["     2  AC105  dangling-path", "     1  AC101  dangling-reference",
                                      "Found 3 problems."]
    source = run_cli("check", "--show-source", cwd=ws.root).out.splitlines()
    at = source.index("r:a.md:1:5: AC105 no file gone.md in repo r (at main)")
    assert source[at + 1] == "       1 | See [gone](gone.md) and [lost](lost.md)."
    assert source[at + 2] == "         |     ^"


def test_color_always_never_and_force_color(ws: WorkspaceBuilder) -> None:
    workspace(ws)
    assert "\x1b[" in run_cli("check", "--color", "always", cwd=ws.root).out
    assert "\x1b[" not in run_cli("check", "--color", "never", cwd=ws.root).out
    assert "\x1b[" not in run_cli("check", cwd=ws.root).out  # not a terminal


def test_an_output_that_cannot_be_written_is_one_line(ws: WorkspaceBuilder, tmp_path: Path) -> None:
    workspace(ws)
    missing = run_cli("check", "--format", f"sarif:{tmp_path}/no/such/dir/x.sarif", cwd=ws.root)
    assert missing.code == 2 and not (tmp_path / "no").exists()
    assert missing.err.strip() == f"anchorcheck: error: {tmp_path}/no/such/dir/x.sarif: cannot write: no folder " \
                                  f"{tmp_path}/no/such/dir"
    readonly = tmp_path / "ro"
    readonly.mkdir()
    readonly.chmod(0o500)
    try:
        denied = run_cli("check", "-o", str(readonly / "x.txt"), cwd=ws.root)
    finally:
        readonly.chmod(0o700)
    if denied.code != 1:  # (root may write anywhere: then the run just succeeds)
        assert denied.code == 2 and "internal error" not in denied.err and "cannot write" in denied.err


def test_rules_say_off_by_default_once_and_fix_says_nothing_to_fix(ws: WorkspaceBuilder) -> None:
    listing = run_cli("rules", cwd=ws.root).out
    assert all(line.count("off by default") <= 1 for line in listing.splitlines())
    ws.repo("r", {"a.md": "# A\n"})
    ws.config()
    fixed = run_cli("fix", cwd=ws.root)
    assert fixed.code == 0 and "Nothing to fix" in fixed.err


def test_the_demo_prints_commands_that_run(tmp_path: Path) -> None:
    gone = run_cli("demo", cwd=tmp_path)
    assert "--config DIR/anchorcheck.toml" in gone.out and "anchorcheck demo --keep DIR" in gone.out
    kept = run_cli("demo", "--keep", str(tmp_path / "d"), cwd=tmp_path)
    assert f"--config {tmp_path / 'd' / 'anchorcheck.toml'}" in kept.out
    assert f"The workspace is kept in {tmp_path / 'd'}" in kept.out


def test_one_sarif_file_per_repo(ws: WorkspaceBuilder, tmp_path: Path) -> None:
    import json

    ws.repo("a", {"a.md": "See [gone](gone.md).\n"})
    ws.repo("b", {"b.md": "# B\n"})
    ws.config()
    r = run_cli("check", "--format", f"sarif-per-repo:{tmp_path}", "--format", "text", cwd=ws.root)
    assert r.code == 1, r.err
    a = json.loads((tmp_path / "a.sarif").read_text())
    b = json.loads((tmp_path / "b.sarif").read_text())
    assert [x["ruleId"] for x in a["runs"][0]["results"]] == ["AC105"] and b["runs"][0]["results"] == []


def test_piped_output_is_utf8_whatever_the_locale(ws: WorkspaceBuilder) -> None:
    """A pipe or a file gets UTF-8 under any locale (JSON, SARIF, JUnit and Markdown are
    UTF-8 by definition; `-o FILE` writes it already): under Latin-1 a piped JSON was
    Latin-1, and SARIF and Markdown stopped at their first character outside it."""
    import os
    import subprocess
    import sys

    ws.repo("r", {"résumé.md": "# Résumé\n\nSee [the café](café.md) and the [summary](#summary…).\n"})
    ws.config()
    outputs: dict[str, list[tuple[int, bytes]]] = {}
    for encoding in ("utf-8", "latin-1", "ascii"):
        env = {**os.environ, "PYTHONIOENCODING": encoding, "NO_COLOR": "1"}
        for fmt in ("text", "json", "sarif", "markdown", "junit", "github"):
            done = subprocess.run([sys.executable, "-m", "anchorcheck", "check", "--format", fmt, "--no-cache"],
                                  cwd=ws.root, env=env, capture_output=True, timeout=120, check=False)
            assert done.returncode == 1, done.stderr.decode(errors="replace")
            outputs.setdefault(fmt, []).append((done.returncode, done.stdout))
    for fmt, runs in outputs.items():
        assert runs[0] == runs[1] == runs[2], fmt
        assert "café.md" in runs[0][1].decode("utf-8"), fmt


# -- issue 42, item 8 ----------------------------------------------------------


def test_a_reader_that_leaves_gives_141_not_the_findings_code(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    from anchorcheck.git.repobuilder import init_repo

    repo = init_repo(tmp_path / "r", {"a.md": "".join(f"# H{i}\n\n[x](gone{i}.md)\n\n" for i in range(200))})
    read, write = os.pipe()
    os.close(read)  # `anchorcheck refs | head -1` once head has left
    done = subprocess.run([sys.executable, "-m", "anchorcheck", "refs"], cwd=repo, stdout=write,
                          stderr=subprocess.PIPE, text=True, check=False, timeout=120)
    os.close(write)
    assert done.returncode == 141 and done.stderr == "", (done.returncode, done.stderr)


def test_a_mistyped_repo_key_is_named_with_a_did_you_mean(ws: WorkspaceBuilder) -> None:
    ws.repo("chart", {"a.md": "# A\n"})
    (ws.root / "anchorcheck.toml").write_text('[[repo]]\nname = "chart"\npaht = "chart"\n', encoding="utf-8")
    r = run_cli("check", cwd=ws.root)
    assert r.code == 2 and "unknown key 'paht' (did you mean 'path'?)" in r.err and "missing" not in r.err, r.err


def test_help_names_every_rule_off_by_default_and_explains_merge_order_fail_on(ws: WorkspaceBuilder) -> None:
    from anchorcheck.rules import REGISTRY

    workspace(ws)
    check_help = " ".join(run_cli("check", "--help", cwd=ws.root).out.split())
    enable = check_help[check_help.index("--enable"):][:200]
    assert all(code in enable for code, rule in REGISTRY.items() if not rule.enabled_by_default), enable
    merge_help = " ".join(run_cli("merge-order", "--help", cwd=ws.root).out.split())
    fail_on = merge_help[merge_help.index("--fail-on"):][:200]
    assert "Exit 1 when a finding" in fail_on, fail_on


def test_for_keeps_every_format_to_one_change(ws: WorkspaceBuilder) -> None:
    import json

    ws.repo("a", {"plan.py": "# ROLLBACK PLAN HERE\n# Roll back.\n"})
    ws.repo("b", {"c.py": "# see ROLLBACK PLAN HERE in a:plan.py\nx = 1\n"})
    ws.config()
    ws.pr("a", "pr1", {"plan.py": "# ROLLBACK PLAN RENAMED\n# Roll back.\n"})  # breaks b's citation
    ws.pr("b", "pr2", {"c.py": "# see ROLLBACK PLAN HERE in a:plan.py\n# see NO SUCH PLAN HERE in a:plan.py\n"})
    args = ["merge-order", "--pr", "a#1=pr1", "--pr", "b#2=pr2", "--fail-on", "never"]
    both = json.loads(run_cli(*args, "--format", "json", cwd=ws.root).out)
    assert {f["change"] for f in both["findings"]} == {"a#1", "b#2"} and both["for"] is None
    one = json.loads(run_cli(*args, "--for", "b#2", "--format", "json", cwd=ws.root).out)
    assert {f["change"] for f in one["findings"]} == {"b#2"} and one["for"] == "b#2"
    assert one["order"] == both["order"]  # the order stays whole
    text = run_cli(*args, "--for", "b#2", cwd=ws.root).out
    assert "[b#2]" in text and "[a#1]" not in text, text


def test_single_repo_paths_open_from_the_current_folder(tmp_path: Path) -> None:
    from anchorcheck.git.repobuilder import init_repo

    repo = init_repo(tmp_path / "r", {"README.md": "# R\n\n[x](nope.md)\n", "docs/a.md": "# A\n\n[y](nope.md)\n"})
    lines = run_cli("check", cwd=repo / "docs").out.splitlines()
    assert lines[0].startswith("../README.md:3:1: AC105") and lines[1].startswith("a.md:3:1: AC105"), lines
    assert run_cli("check", cwd=repo).out.splitlines()[1].startswith("docs/a.md:3:1: AC105")


def test_graph_anchor_that_names_nothing_offers_the_nearest(ws: WorkspaceBuilder) -> None:
    ws.repo("r", {"a.py": "# ROLLBACK ON THE DEGRADED PATH\n# why\nx = 1\n", "b.py": "# see ROLLBACK ON THE DEGRADED "
                  "PATH in a.py\n"})
    ws.config()
    r = run_cli("graph", "--anchor", "ROLLBACK ON THE DEGRADED PATHS", cwd=ws.root)
    # (An empty view, as before, exit 0: test_graph.py; now with the names meant.)
    assert "no anchor is named" in r.err and "did you mean 'ROLLBACK ON THE DEGRADED PATH'" in r.err, r.err
    assert run_cli("graph", "--anchor", "ROLLBACK ON THE DEGRADED PATH", cwd=ws.root).code == 0
