"""A check reads the file kinds its rules and `kinds` need, and what those cite: the
same findings as a check that read everything (filtered to the kinds asked for), from
fewer files read."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from anchorcheck.check.kinds import read_kinds
from anchorcheck.extract.languages import language_of
from anchorcheck.rules import REGISTRY
from tests.conftest import WorkspaceBuilder, run_cli

_CODE = {
    "deploy/values.yaml": "# ROLLBACK ON THE DEGRADED PATH\n# Keep two replicas.\nreplicas: 2\n",
    "tools/run.py": "# Note [Warmup]\n# The cache warms first.\nx = 1\n\n# see MISSING HEADING in run.py\n",
    "tools/big.py": "".join(f"def f{i}():\n    return {i}\n" for i in range(200)),
}


# The reference rules (AC110 and AC120 read every file: a duplicate or an unreferenced
# anchor is one among all of them).
_REFERENCES = "AC101,AC102,AC103,AC104,AC105"


def _read(stderr: str, repo: str) -> int:
    """How many files the check read from git in `repo` (its --verbose line)."""
    m = re.search(rf"anchorcheck: {repo} at \w+: \d+ files, (\d+) read from git", stderr)
    assert m is not None, stderr
    return int(m.group(1))


def _findings(out: str) -> list[dict[str, object]]:
    return list(json.loads(out)["findings"])


def _same_as_everything_read(ws: WorkspaceBuilder, select: str) -> tuple[list[dict[str, object]], int]:
    """The findings of `--kind markdown` (checked equal to a check that read every file,
    its findings in Markdown files), and how many files it read."""
    every = ws.check("--no-cache", "--format", "json", "--select", select, "--fail-on", "never")
    assert every.code == 0, every.err
    some = ws.check("--no-cache", "--format", "json", "--select", select, "--fail-on", "never", "-v",
                    "--kind", "markdown")
    assert some.code == 0, some.err
    in_markdown = [f for f in _findings(every.out) if language_of(str(f["path"])) == "markdown"]
    assert _findings(some.out) == in_markdown
    assert len(_findings(every.out)) > len(in_markdown)  # the others were found, and left out
    return in_markdown, _read(some.err, "docs")


def test_a_markdown_only_rule_reads_markdown_only(ws: WorkspaceBuilder) -> None:
    ws.repo("docs", {**_CODE, "README.md": "# Docs\n\nSee [the guide](guide.md#setup).\n",
                     "guide.md": "# Guide\n\n## Setup\n\nRun it.\n"})
    alone = ws.check("--no-cache", "--select", "AC108", "-v")
    assert alone.code == 0, alone.err
    assert _read(alone.err, "docs") == 2  # README.md and guide.md, of 5
    every = ws.check("--no-cache", "--select", "AC101", "-v")
    assert _read(every.err, "docs") == 5


def test_a_fragment_in_a_file_of_another_kind_has_that_file_read(ws: WorkspaceBuilder) -> None:
    ws.repo("docs", {**_CODE, "README.md": (
        "# Docs\n\n[rollback](deploy/values.yaml#rollback-on-the-degraded-path) and "
        "[gone](deploy/values.yaml#no-such-heading), [guide](guide.md#nowhere).\n"),
        "guide.md": "# Guide\n"})
    found, read = _same_as_everything_read(ws, _REFERENCES)
    assert [(f["code"], f["column"]) for f in found] == [("AC101", 66), ("AC101", 110)]  # gone, guide
    assert read == 3  # the Markdown, and values.yaml which a link names


def test_a_one_word_name_with_no_place_has_the_files_holding_it_read(ws: WorkspaceBuilder) -> None:
    # `Warmup` is a Note of run.py (no Note is cited from Markdown): a quoted heading with
    # no place resolves to any anchor of that name in the workspace, of any kind.
    ws.repo("docs", {**_CODE, "README.md": "# Docs\n\nAs said under \"Warmup\", and see [x](nowhere.md).\n"})
    found, read = _same_as_everything_read(ws, _REFERENCES)
    assert [f["code"] for f in found] == ["AC105"]
    assert read == 2  # README.md, and run.py: the one file holding the word


def test_a_name_whose_did_you_mean_decides_has_everything_read(ws: WorkspaceBuilder) -> None:
    # "Rollback on the degraded path" is no heading; whether it is reported depends on
    # the names near it in every file: values.yaml's caps heading is one.
    ws.repo("docs", {**_CODE, "README.md": "# Docs\n\nSee \"Rollback on the degraded pat\" first.\n"})
    found, read = _same_as_everything_read(ws, _REFERENCES)
    assert [f["code"] for f in found] == ["AC101"] and "ROLLBACK ON THE DEGRADED PATH" in str(found[0]["message"])
    assert read == 4  # every file anchorcheck reads


def test_a_note_cited_from_markdown_has_everything_read(ws: WorkspaceBuilder) -> None:
    ws.repo("docs", {**_CODE, "README.md": "# Docs\n\nSee Note [Warmup] and Note [Cooldown].\n"})
    found, read = _same_as_everything_read(ws, _REFERENCES)
    assert [(f["code"], f["column"]) for f in found] == [("AC101", 23)]  # Note [Cooldown]
    assert read == 4


def test_kinds_from_the_config_and_bad_kinds(ws: WorkspaceBuilder) -> None:
    ws.repo("docs", {**_CODE, "README.md": "# Docs\n\n[x](nowhere.md)\n"})
    config = ws.config()
    config.write_text(config.read_text() + '[settings]\nkinds = ["markdown"]\n')
    kept = run_cli("check", "--no-cache", "--format", "json", "--select", _REFERENCES, cwd=ws.root)
    assert kept.code == 1 and [f["path"] for f in _findings(kept.out)] == ["README.md"]
    bad = run_cli("check", "--kind", "markdwn", cwd=ws.root)
    assert bad.code == 2 and bad.err.count("\n") == 1 and "'markdwn' is no file kind" in bad.err
    config.write_text(config.read_text().replace('"markdown"', "3"))
    bad = run_cli("check", cwd=ws.root)
    assert bad.code == 2 and "kinds" in bad.err and "Traceback" not in bad.err


@pytest.mark.parametrize(("select", "kinds", "expected"), [
    (("AC108",), (), ("markdown",)),
    (("AC108",), ("yaml",), ()),
    (("AC101", "AC105"), (), None),
    (("AC101", "AC108"), ("markdown", "yaml"), ("markdown", "yaml")),
    (("AC101", "AC110"), ("markdown",), None),
])
def test_the_kinds_rules_read(select: tuple[str, ...], kinds: tuple[str, ...],
                              expected: tuple[str, ...] | None) -> None:
    assert read_kinds([REGISTRY[code] for code in select], kinds) == expected


def test_snapshots_of_some_kinds_are_cached_apart(ws: WorkspaceBuilder, tmp_path: Path) -> None:
    ws.repo("docs", {**_CODE, "README.md": "# Docs\n\n[x](nowhere.md)\n"})
    cache = tmp_path / "cache"
    some = ws.check("--cache-dir", str(cache), "--format", "json", "--select", _REFERENCES, "--kind", "markdown",
                    "--fail-on", "never")
    every = ws.check("--cache-dir", str(cache), "--format", "json", "--select", _REFERENCES, "--fail-on", "never")
    fresh = ws.check("--no-cache", "--format", "json", "--select", _REFERENCES, "--fail-on", "never")
    assert some.code == every.code == fresh.code == 0
    # The snapshot of the Markdown alone did not answer for the whole repo.
    assert every.out == fresh.out and len(_findings(every.out)) > len(_findings(some.out))
