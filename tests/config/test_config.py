"""The shipped config files stay true to the code."""

from __future__ import annotations

import tomllib
from pathlib import Path

from anchorcheck.config.workspace import Settings, _read_settings

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
