"""The README's examples run as pasted in the demo's workspace (`anchorcheck demo --keep
DIR`): each command of "Using it" runs with no error, and each `console` example prints
exactly what the README shows (issue 42, item 9)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import run_cli

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _blocks(kind: str, section: str | None = None) -> list[str]:
    text = README
    if section is not None:
        text = text.split(f"\n## {section}\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(rf"```{kind}\n(.*?)```", text, re.DOTALL)


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("demo") / "ws"
    made = run_cli("demo", "--keep", str(where), cwd=where.parent)
    assert made.code == 0, made.err
    return where


def _run(line: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    # As a user's shell runs it, with `anchorcheck` this checkout's.
    shell = f'anchorcheck() {{ "{sys.executable}" -m anchorcheck "$@"; }}\n{line}'
    return subprocess.run(["bash", "-c", shell], cwd=cwd, capture_output=True, text=True, timeout=300, check=False)


USING = [line for line in _blocks("sh", "Using it")[0].splitlines() if line.strip()]


def test_using_it_has_the_commands() -> None:
    assert len(USING) >= 10 and all(line.startswith("anchorcheck ") for line in USING)


@pytest.mark.parametrize("line", USING)
def test_each_command_of_using_it_runs_in_the_demo(demo: Path, line: str) -> None:
    done = _run(line, demo)
    assert done.returncode in (0, 1), f"{line}: exit {done.returncode}: {done.stderr}"
    assert "Traceback" not in done.stderr and "error" not in done.stderr, done.stderr
    assert done.stdout.strip() or done.stderr.strip(), f"{line}: said nothing"


CONSOLE = _blocks("console")


@pytest.mark.parametrize("block", CONSOLE, ids=[b.splitlines()[0][2:40] for b in CONSOLE])
def test_each_console_example_prints_what_the_readme_shows(demo: Path, block: str) -> None:
    command, *shown = block.rstrip("\n").split("\n")
    assert command.startswith("$ anchorcheck ")
    done = _run(command[2:], demo)
    assert done.stdout.rstrip("\n").split("\n") == shown, done.stdout + done.stderr
