"""The shipped config files stay true to the code."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

from anchorcheck.config.workspace import Settings, _read_settings
from tests.conftest import WorkspaceBuilder

ROOT = Path(__file__).resolve().parents[2]  # the checkout: tests/<wing>/this file


def test_defaults_file_matches_code_defaults() -> None:
    path = ROOT / "config" / "defaults.toml"
    warnings: list[str] = []
    assert _read_settings(tomllib.loads(path.read_text()), path, warnings) == Settings()
    assert warnings == []


def test_example_config_parses_without_warnings() -> None:
    path = ROOT / "config" / "anchorcheck.example.toml"
    data = tomllib.loads(path.read_text())
    warnings: list[str] = []
    settings = _read_settings(data, path, warnings)
    assert warnings == []
    assert settings.rules.extend == ("AC120",) and settings.rules.select == ()
    assert settings.history_depth == 250
    assert settings.exclude == ("vendor/", "node_modules/", "testdata/", "third_party/")
    assert settings.ignore_targets == ("^/(products|blog)/",)
    assert [r["name"] for r in data["repo"]] == ["client", "client-runtime", "backend"]


def test_tool_anchorcheck_in_pyproject_found_from_a_subfolder_with_per_file_ignores(tmp_path: Path) -> None:
    from anchorcheck.git.repobuilder import init_repo
    from tests.conftest import run_cli

    repo = init_repo(tmp_path / "proj", {
        "pyproject.toml": ('[project]\nname = "proj"\n\n[tool.anchorcheck.rules]\n'
                           'per-file-ignores = { "docs/legacy/" = ["AC105"], "*.txt" = ["AC1"] }\n'),
        "docs/legacy/old.md": "See [gone](gone.md).\n",
        "docs/new.md": "See [lost](lost.md).\n",
        "src/notes.txt": "see MISSING HEADING NUMBER ONE in src/a.py\n",
    })
    r = run_cli("check", "--format", "json", cwd=repo / "docs")
    assert r.code == 1, r.err
    found = [(f["path"], f["code"]) for f in json.loads(r.out)["findings"]]
    assert found == [("docs/new.md", "AC105")]
    # anchorcheck.toml beside it wins over pyproject.toml.
    (repo / "anchorcheck.toml").write_text('[[repo]]\nname = "proj"\npath = "."\n')
    both = run_cli("check", "--format", "json", cwd=repo / "docs")
    assert sorted(f["path"] for f in json.loads(both.out)["findings"]) == ["docs/legacy/old.md", "docs/new.md"]


def test_per_file_ignores_must_be_pattern_to_codes(tmp_path: Path) -> None:
    from tests.conftest import run_cli

    (tmp_path / "anchorcheck.toml").write_text('[[repo]]\nname = "a"\npath = "."\n[rules]\nper-file-ignores = 3\n')
    r = run_cli("check", cwd=tmp_path)
    assert r.code == 2 and "per-file-ignores must be a table" in r.err


def test_listed_settings_name_only_what_they_may(ws: WorkspaceBuilder) -> None:
    from tests.conftest import run_cli

    ws.repo("a", {"a.py": "x = 1\n"})
    config = ws.config()
    base = config.read_text()
    for setting, bad in (("note-styles", '["rule", "tildes"]'), ("version-guard", '["Cargo.toml"]')):
        config.write_text(base + f"[settings]\n{setting} = {bad}\n")
        r = run_cli("check", cwd=ws.root)
        assert r.code == 2 and f"{setting}: " in r.err and "is not one of" in r.err and "Traceback" not in r.err
