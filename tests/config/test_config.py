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


def test_workspace_file_found_from_a_member_repo_and_from_a_plain_subfolder(ws: WorkspaceBuilder) -> None:
    from tests.conftest import run_cli

    ws.repo("chart", {"templates/deploy.yaml": "# ROLLBACK ON THE DEGRADED PATH\n# Recreate, never surge.\nx: 1\n"})
    ws.repo("app", {"app.py": "# see ROLLBACK ON THE DEGRADED PATH in chart:templates/deploy.yaml\nx = 1\n"})
    config = ws.config()
    inside = run_cli("check", "-v", "--format", "json", cwd=ws.repos["app"])
    assert inside.code == 0, inside.out + inside.err
    assert json.loads(inside.out)["findings"] == []
    assert f"anchorcheck: config {config}" in inside.err
    # From a folder of the workspace that is no repo, the same file.
    (ws.root / "notes").mkdir()
    plain = run_cli("check", "--format", "json", cwd=ws.root / "notes")
    assert plain.code == 0, plain.err
    # A repo beside them that the file does not name is checked alone, not as a member.
    ws.repo("other", {"o.py": "# see ROLLBACK ON THE DEGRADED PATH in chart:templates/deploy.yaml\n"})
    alone = run_cli("check", "-v", "--format", "json", cwd=ws.repos["other"])
    assert [f["code"] for f in json.loads(alone.out)["findings"]] == ["AC104"], alone.err
    assert "no anchorcheck.toml (or [tool.anchorcheck]) from" in alone.err and "names this repo" in alone.err


def test_the_readmes_first_config_checks_the_work_tree() -> None:
    # A newcomer copies the first example: with `ref` on every repo their uncommitted
    # edits would silently not be checked (issue 42, item 4).
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first = readme.split("```toml\n", 1)[1].split("```", 1)[0]
    assert "[[repo]]" in first and "ref =" not in first, first


def test_ignore_evidence_note_leaves_notes_unchecked_and_pyproject_alone_shows_plain_paths(tmp_path: Path) -> None:
    # A project whose every `Note [X]` shows the syntax (anchorcheck itself) turns
    # Notes off; its [tool.anchorcheck] with no [[repo]] is the repo alone, shown as
    # one with no config is (paths without the repo's name).
    from anchorcheck.git.repobuilder import init_repo
    from tests.conftest import run_cli

    repo = init_repo(tmp_path / "proj", {
        "pyproject.toml": '[project]\nname = "proj"\n\n[tool.anchorcheck.settings]\nignore-evidence = ["note"]\n',
        "a.py": "# See Note [Title] for the syntax.\nx = 1\n",
        "b.md": "# B\n\n[gone](gone.md)\n",
    })
    r = run_cli("check", cwd=repo)
    assert r.out.splitlines()[0].startswith("b.md:3:1: AC105"), r.out + r.err
    assert "Note" not in r.out


def test_anchorcheck_is_clean_on_its_own_repo() -> None:
    # As .ci/run checks it: what is an example and not a citation is said in
    # pyproject.toml's [tool.anchorcheck] and by inline suppressions.
    from tests.conftest import run_cli

    if not (ROOT / ".git").exists():
        import pytest

        pytest.skip("not a git checkout")
    r = run_cli("check", "--no-cache", cwd=ROOT)
    assert r.code == 0, r.out + r.err
