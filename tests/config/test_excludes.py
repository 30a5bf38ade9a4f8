"""Excluded paths: vendored code is listed, not read, in checks, PR runs and indexes."""

from __future__ import annotations

import json

import pytest

from anchorcheck.config.excludes import (
    DEFAULT_EXCLUDE,
    IgnoreFile,
    check_patterns,
    excluded_by,
    excluder,
    git_ignores,
)
from anchorcheck.config.workspace import load_workspace
from anchorcheck.errors import ConfigError
from anchorcheck.pr.change import ChangeSpec
from anchorcheck.pr.mergeorder import analyse
from anchorcheck.report.merge_order import advise
from tests.conftest import WorkspaceBuilder, run_cli


def excluded(patterns: tuple[str, ...], paths: list[str]) -> list[str]:
    rx = excluder(patterns)
    assert rx is not None
    return [p for p in paths if rx.search(p)]


def test_patterns_follow_gitignore() -> None:
    paths = ["vendor/a/b.go", "svc/vendor/x.go", "vendor.go", "vendored/x.go", "a/vendor",
             "docs/gen/x.md", "x/docs/gen/y.md", "gen/z.md", "a.pb.go", "p/q/b.pb.go", "a.pb.go.txt",
             "third_party/a/b/c.c", "src/third_party/d.c"]
    # No slash but a trailing one: a directory of that name at any depth (not a file).
    assert excluded(("vendor/",), paths) == ["vendor/a/b.go", "svc/vendor/x.go"]
    # No slash at all: a file or a directory of that name at any depth.
    assert excluded(("vendor",), paths) == ["vendor/a/b.go", "svc/vendor/x.go", "a/vendor"]
    # A slash inside: anchored at the root; `*` stays within one part, `**` does not.
    assert excluded(("docs/gen",), paths) == ["docs/gen/x.md"]
    assert excluded(("/gen/",), paths) == ["gen/z.md"]
    assert excluded(("**/gen/",), paths) == ["docs/gen/x.md", "x/docs/gen/y.md", "gen/z.md"]
    assert excluded(("*.pb.go",), paths) == ["a.pb.go", "p/q/b.pb.go"]
    assert excluded(("third_party/**/*.c",), paths) == ["third_party/a/b/c.c"]
    assert excluded(("*/third_party/",), paths) == ["src/third_party/d.c"]
    assert excluder(()) is None
    assert excluded(("*",), ["a", "b/c"]) == ["a", "b/c"]  # no literal part: every path is tried
    assert excluded(DEFAULT_EXCLUDE, ["plugins/x/test/testdata/Note.hs", "node_modules/a/b.js", "src/a.go",
                                      "testdata.go"]) == ["plugins/x/test/testdata/Note.hs", "node_modules/a/b.js"]
    assert excluded_by(("docs/", "vendor/"), "svc/vendor/x.go") == "vendor/"
    assert excluded_by(("docs/",), "svc/vendor/x.go") is None
    for bad in ("", "/", "../x", "a/./b", 3):
        with pytest.raises(ConfigError, match=r"is not a path pattern|without '\.' or '\.\.'"):
            check_patterns([bad], "--exclude")


VENDORED = {
    "main.go": "// see VENDOR LOCK ORDER in vendor/lib/lock.go and\n// vendor/lib/README.md#usage.\npackage main\n",
    "vendor/lib/lock.go": "// VENDOR LOCK ORDER\n// Take a before b.\n// see NOTHING HERE in gone.go\npackage lib\n",
    "vendor/lib/README.md": "# lib\n\n## Usage\n\nSee [the guide](docs/guide.md).\n",
    "gen/api.go": "// see MISSING HEADING in nowhere.go\npackage gen\n",
}


def test_vendored_code_is_listed_not_read(ws: WorkspaceBuilder) -> None:
    ws.repo("svc", VENDORED)
    r = ws.check("--format", "json", "--fail-on", "never")
    found = sorted((f["code"], f["path"], f["line"]) for f in json.loads(r.out)["findings"])
    # vendor/ is not read: its own dangling citations are not reported, and what it
    # defines is unknown, which the finding says. Its files still exist for citations.
    assert found == [("AC101", "main.go", 1), ("AC101", "main.go", 2), ("AC105", "gen/api.go", 1)]
    assert "svc:vendor/lib/lock.go was not read: excluded by 'vendor/'" in r.out
    assert "svc:vendor/lib/README.md was not read: excluded by 'vendor/'" in r.out
    r = ws.check("--verbose", "--fail-on", "never")
    assert "anchorcheck: svc: 2 files excluded (vendor/ 2)" in r.err
    # --exclude adds to the configured patterns.
    r = ws.check("--exclude", "gen/", "--format", "json", "--fail-on", "never")
    assert [f["path"] for f in json.loads(r.out)["findings"]] == ["main.go", "main.go"]
    r = ws.check("--exclude", "../x")
    assert r.code == 2 and r.err.count("\n") == 1 and "--exclude: '../x'" in r.err


def test_exclude_settings_replace_extend_and_apply_per_repo(ws: WorkspaceBuilder) -> None:
    ws.repo("svc", VENDORED)
    ws.repo("other", {"gen/x.py": "# see GONE HEADING in nowhere.py\n"})
    config = ws.config()
    base = config.read_text()

    def codes(settings: str, svc_extra: str = "") -> list[tuple[str, str, str]]:
        text = base.replace('name = "svc"\n', f'name = "svc"\n{svc_extra}')
        config.write_text(text + settings, encoding="utf-8")
        r = run_cli("check", "--format", "json", "--fail-on", "never", cwd=ws.root)
        assert r.code == 0, r.err
        return sorted((f["repo"], f["code"], f["path"]) for f in json.loads(r.out)["findings"])

    # `exclude` replaces the default list (here: reads vendor/ again).
    read_all = codes("[settings]\nexclude = []\n")
    assert ("svc", "AC105", "vendor/lib/lock.go") in read_all  # its `see ... in gone.go`
    assert ("svc", "AC101", "main.go") not in read_all  # its heading is read
    # `extend-exclude` adds to it, in every repo; a repo's own `exclude` only there.
    assert codes('[settings]\nextend-exclude = ["gen/"]\n') == [("svc", "AC101", "main.go")] * 2
    assert codes("", 'exclude = ["gen/"]\n') == [
        ("other", "AC105", "gen/x.py"), ("svc", "AC101", "main.go"), ("svc", "AC101", "main.go")]
    config.write_text(base + '[settings]\nexclude = ["a/../b"]\n', encoding="utf-8")
    r = run_cli("check", cwd=ws.root)
    assert r.code == 2 and r.err.count("\n") == 1 and "[settings] 'exclude': 'a/../b'" in r.err


def test_a_pr_touching_vendored_code_is_not_read_and_indexes_record_the_patterns(ws: WorkspaceBuilder) -> None:
    ws.repo("svc", {"main.go": "package main\n"})
    ws.pr("svc", "pr/1", {"vendor/lib/new.go": "// see NO SUCH HEADING in gone.go\npackage lib\n",
                          "app.go": "// see ALSO MISSING in gone.go\npackage main\n"})
    workspace = load_workspace(ws.config())
    adv = advise(analyse(workspace, [ChangeSpec.parse("svc#1=pr/1", workspace)], {}))
    assert [(f.finding.code, f.finding.path) for f in adv.findings] == [("AC105", "app.go")]
    # An index is built with the exclude patterns; a check with others refuses it.
    index = ws.root / "svc.idx"
    assert run_cli("index", "--out", str(index), cwd=ws.root).code == 0
    r = run_cli("check", "--index", str(index), "--exclude", "gen/", cwd=ws.root)
    assert r.code == 2 and "rebuild it with the same config" in r.err
    assert run_cli("check", "--index", str(index), cwd=ws.root).code == 0


def test_facts_of_excluded_files_are_listed_only_when_asked_by_path(ws: WorkspaceBuilder) -> None:
    ws.repo("svc", {"values.yaml": "port: 8080\n", "vendor/lib/values.yaml": "port: 9090\n"})
    ws.config()
    r = run_cli("facts", "--format", "json", cwd=ws.root)
    assert [f["address"] for f in json.loads(r.out)["facts"]] == ["svc:values.yaml::port"]
    r = run_cli("facts", "svc:vendor/lib/values.yaml", "--format", "json", cwd=ws.root)
    assert [f["value"] for f in json.loads(r.out)["facts"]] == ["9090"]


def test_gitignore_files_decide_as_git_does() -> None:
    root = IgnoreFile.parse("", "# build\n/target\n*.log\n!keep.log\n\\#notes\n")
    docs = IgnoreFile.parse("docs", "/settings.md\n/rules/\n!/rules/kept.md\n")
    files = [docs, root]  # (in any order: the deeper decides)
    ignored = [p for p in ("target/x", "a/target/x", "run.log", "a/keep.log", "#notes", "docs/settings.md",
                           "docs/a/settings.md", "docs/rules/x.md", "docs/rules", "docs/rules/kept.md",
                           "rules/x.md", "docs/index.md") if git_ignores(files, p)]
    # `/target` is the root's only; `*.log` anywhere but `!keep.log`; docs/'s rules
    # are relative to docs/, and its negation takes kept.md back.
    assert ignored == ["target/x", "run.log", "#notes", "docs/settings.md", "docs/rules/x.md", "docs/rules"]
