"""The result cache: a check over unchanged repos answers from the cache, and anything
that decides the findings (a commit, the rule selection, a setting) asks afresh."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from anchorcheck.git.repobuilder import commit
from anchorcheck.index.cache import _sum
from tests.check.test_index_file import REFS, RULES, _workspace
from tests.conftest import run_cli


def _check(ws: Path, cache: Path, *args: str) -> tuple[int, dict[str, object]]:
    r = run_cli("check", "--format", "json", "--cache-dir", str(cache), *REFS, *RULES, *args, cwd=ws)
    assert r.code in (0, 1), r.err
    return r.code, json.loads(r.out)


def _result_rows(cache: Path) -> list[tuple[str, str]]:
    db = sqlite3.connect(cache / "blobs.sqlite3")
    try:
        return db.execute("SELECT key, value FROM results WHERE key LIKE 'check-result:%'").fetchall()
    finally:
        db.close()


def _tamper(cache: Path, key: str, old: str, new: str) -> None:
    db = sqlite3.connect(cache / "blobs.sqlite3")
    try:
        (value,) = db.execute("SELECT value FROM results WHERE key = ?", (key,)).fetchone()
        assert old in value
        # Written as the cache writes (its checksum too): a stored result the run must use.
        changed = value.replace(old, new)
        db.execute("UPDATE results SET value = ?, sum = ? WHERE key = ?", (changed, _sum(key, changed), key))
        db.commit()
    finally:
        db.close()


def test_unchanged_repos_answer_from_the_cache_and_a_new_commit_does_not(tmp_path: Path) -> None:
    ws, cache = tmp_path / "ws", tmp_path / "cache"
    _workspace(ws)
    fresh = run_cli("check", "--format", "json", "--no-cache", *REFS, *RULES, cwd=ws)
    code, first = _check(ws, cache)
    assert code == fresh.code == 1 and first == json.loads(fresh.out)
    rows = _result_rows(cache)
    assert len(rows) == 1
    # Mark the stored answer: the next run must print it, so it came from the cache.
    _tamper(cache, rows[0][0], "drop the healthz report", "MARKED IN THE CACHE")
    code, again = _check(ws, cache)
    assert code == 1 and "MARKED IN THE CACHE" in json.dumps(again)
    assert again["workspace"] == first["workspace"]
    # Commands that need what a cached answer leaves out still get it (computed then).
    anchors_cached = run_cli("anchors", "--format", "json", "--cache-dir", str(cache), *REFS, cwd=ws)
    anchors_fresh = run_cli("anchors", "--format", "json", "--no-cache", *REFS, cwd=ws)
    assert anchors_cached.code == 0 and anchors_cached.out == anchors_fresh.out
    # A new commit in one repo is a new question.
    stored = len(_result_rows(cache))
    commit(ws / "tools", {"more.py": "# see NOTHING LIKE THIS in more.py\n"}, "more")
    code, after = _check(ws, cache)
    text = json.dumps(after)
    assert "MARKED IN THE CACHE" not in text and "drop the healthz report" in text
    assert any(f["path"] == "more.py" and f["code"] == "AC101" for f in after["findings"])  # type: ignore[index, union-attr]
    assert len(_result_rows(cache)) == stored + 1


def test_selection_and_settings_are_part_of_the_question(tmp_path: Path) -> None:
    ws, cache = tmp_path / "ws", tmp_path / "cache"
    config = _workspace(ws)
    _, everything = _check(ws, cache)
    _, only = _check(ws, cache, "--select", "AC101")  # (RULES still enables AC120 and AC901)
    # (No AC901 now: the one unused marker names AC102, which this selection did not run,
    # so whether it suppresses anything is not known; a full run still reports it.)
    assert {f["code"] for f in only["findings"]} == {"AC101", "AC120"}  # type: ignore[index]
    assert "AC901" in {f["code"] for f in everything["findings"]}  # type: ignore[index]
    assert len(only["findings"]) < len(everything["findings"])  # type: ignore[arg-type]
    config.write_text(config.read_text(encoding="utf-8").replace(
        "[[repo]]", "[settings]\nhistory-depth = 0\n\n[[repo]]", 1), encoding="utf-8")
    _, shallow = _check(ws, cache)
    assert "AC203" not in {f["code"] for f in shallow["findings"]}  # type: ignore[index]
    assert "AC203" in {f["code"] for f in everything["findings"]}  # type: ignore[index]
    assert len(_result_rows(cache)) == 3


def test_a_stored_answer_that_does_not_decode_is_asked_afresh(tmp_path: Path) -> None:
    ws, cache = tmp_path / "ws", tmp_path / "cache"
    _workspace(ws)
    _, first = _check(ws, cache)
    (key, _), = _result_rows(cache)
    db = sqlite3.connect(cache / "blobs.sqlite3")
    bad = '{"findings": [["x"]], "claims": []}'
    db.execute("UPDATE results SET value = ?, sum = ? WHERE key = ?", (bad, _sum(key, bad), key))
    db.commit()
    db.close()
    _, again = _check(ws, cache)
    assert again == first


def test_new_code_is_not_given_the_old_codes_findings(tmp_path: Path) -> None:
    """The version stays 0.1.0 across commits of a branch install: the key holds a hash
    of the sources, so a changed rule or resolver is run, not answered from the cache."""
    import shutil

    import anchorcheck
    from anchorcheck.check.result_cache import _code_fingerprint, sources_fingerprint

    package = Path(anchorcheck.__file__).parent
    copy = tmp_path / "anchorcheck"
    shutil.copytree(package, copy, ignore=shutil.ignore_patterns("__pycache__"))
    before = sources_fingerprint(copy)
    assert before == _code_fingerprint() and len(before) == 16  # this very code
    with open(copy / "resolve" / "resolver.py", "a", encoding="utf-8") as fh:
        fh.write("\n# a change\n")
    assert sources_fingerprint(copy) != before
    (copy / "resolve" / "resolver.py").unlink()
    assert sources_fingerprint(copy) not in (before, "")
