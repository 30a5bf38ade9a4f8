"""Each rule's own case: a small workspace built by `cases/acNNN_name/case.py`, the
command it names run as a user runs it, and its output compared with the snapshot in
`cases/acNNN_name/expected` (as ruff keeps one fixture and snapshot per rule). A case
shows the rule reporting what it is for, and leaving alone a near miss beside it.

A case module defines `build(ws) -> list[str]`: it makes the repos with the
WorkspaceBuilder and returns the command's arguments (`["check", "--select",
"AC101"]`). One that needs a forge takes `build(ws, forge)` and is given a forge on
127.0.0.1 (tests/forge/server.py), whose variables the command runs with."""

from __future__ import annotations

import importlib.util
import inspect
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import FORGE_TOKENS, WorkspaceBuilder

CASES = sorted(p for p in (Path(__file__).parent / "cases").glob("ac[0-9]*") if (p / "case.py").is_file())


def _load(case: Path) -> Any:
    spec = importlib.util.spec_from_file_location(f"rule_case_{case.name}", case / "case.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _run(args: list[str], cwd: Path, env: dict[str, str]) -> str:
    done = subprocess.run([sys.executable, "-m", "anchorcheck", *args], cwd=cwd, capture_output=True, text=True,
                          env=env, timeout=300, check=False)
    assert done.returncode in (0, 1), f"{args}: exit {done.returncode}: {done.stderr}"
    return done.stdout.replace(str(cwd.resolve()), "/WORKSPACE")


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_rule_case_matches_its_snapshot(case: Path, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    module = _load(case)
    ws = WorkspaceBuilder(tmp_path / "ws")
    ws.root.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", *FORGE_TOKENS, "GITHUB_REPOSITORY",
                                                          "GITHUB_WORKSPACE")}
    if len(inspect.signature(module.build).parameters) == 2:
        from tests.forge.server import Forge

        with Forge(token="ghp_CASEtoken0123456789") as forge:
            args = module.build(ws, forge)
            got = _run(args, ws.root, {**env, **forge.env()})
    else:
        got = _run(module.build(ws), ws.root, env)
    code = case.name[:5].upper()
    assert code in got, f"{case.name}: the case does not make {code} report:\n{got}"
    expected = case / "expected"
    if request.config.getoption("--update-snapshots"):
        expected.write_text(got, encoding="utf-8")
    assert expected.is_file(), f"{expected} is missing: run pytest {__file__} --update-snapshots"
    assert got == expected.read_text(encoding="utf-8")


def test_every_rule_has_its_case_named_after_its_module() -> None:
    from anchorcheck.rules import REGISTRY

    rules = {p.stem for p in (Path(__file__).parents[2] / "anchorcheck" / "rules").glob("ac[0-9]*.py")}
    assert {c.name for c in CASES} == rules, sorted({c.name for c in CASES} ^ rules)
    assert {c.name[:5].upper() for c in CASES} == set(REGISTRY)
