"""The persistent blob cache: warm runs, damaged and foreign files, concurrent runs."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from anchorcheck.check.pipeline import run_check
from anchorcheck.config.workspace import load_workspace
from anchorcheck.git.repobuilder import commit
from anchorcheck.index.cache import BlobCache, _sum
from anchorcheck.index.plan import extract_options
from tests.conftest import WorkspaceBuilder, run_cli

CITE = "# see MISSING HEADING NUMBER ONE in a.py\n"


def many_files(ws: WorkspaceBuilder, n: int = 300) -> None:
    files = {f"pkg/m{i}.py": f"# MODULE HEADING NUMBER {i}\n# Body.\nX{i} = {i}\n" for i in range(n)}
    files["a.py"] = CITE + "# see MODULE HEADING NUMBER 7 in pkg/m7.py\n"
    ws.repo("r", files)


def test_warm_run_reads_no_blobs_and_finds_the_same(ws: WorkspaceBuilder, tmp_path: Path) -> None:
    many_files(ws)
    workspace = load_workspace(ws.config())
    cache = BlobCache(tmp_path / "c", extract_options(workspace.settings))
    cold = run_check(workspace, cache=cache)
    assert cold.index.snapshots["r"].files_read == 301
    warm = run_check(workspace, cache=cache)
    assert warm.index.snapshots["r"].files_read == 0  # the whole snapshot came from the cache
    assert [f.finding for f in warm.findings] == [f.finding for f in cold.findings]
    assert [f.finding.code for f in warm.findings] == ["AC101"]
    # A new commit touching one file: that blob is read, the 300 others come from the
    # blob cache, keyed by blob id.
    commit(ws.repos["r"], {"pkg/m5.py": "# see MISSING HEADING NUMBER TWO in a.py\n"}, "touch one")
    changed = run_check(workspace, cache=cache)
    assert changed.index.snapshots["r"].files_read == 1
    assert [f.finding.line for f in changed.findings] == [1, 1]
    cache.close()


def _cli(ws: WorkspaceBuilder, cache: Path, *extra: str) -> tuple[int, str, str]:
    r = run_cli("check", "--format", "json", "--cache-dir", str(cache), *extra, cwd=ws.root)
    return r.code, json.dumps(json.loads(r.out)["findings"]), r.err


def test_damaged_cache_is_rebuilt_with_a_warning(ws: WorkspaceBuilder, tmp_path: Path) -> None:
    many_files(ws, 20)
    ws.config()
    cache = tmp_path / "cache"
    code, expected, _ = _cli(ws, cache)
    assert code == 1
    (cache / "blobs.sqlite3").write_bytes(b"this is not a database" * 100)
    for suffix in ("-wal", "-shm"):
        Path(str(cache / "blobs.sqlite3") + suffix).unlink(missing_ok=True)
    code, got, err = _cli(ws, cache)
    assert (code, got) == (1, expected)
    assert "is damaged or foreign" in err and "rebuilding it" in err
    code, got, err = _cli(ws, cache)
    assert (code, got, err) == (1, expected, "")


def test_foreign_sqlite_file_is_not_trusted(ws: WorkspaceBuilder, tmp_path: Path) -> None:
    many_files(ws, 5)
    ws.config()
    cache = tmp_path / "cache"
    cache.mkdir()
    db = sqlite3.connect(cache / "blobs.sqlite3")
    db.execute("CREATE TABLE blobs (key TEXT PRIMARY KEY, value TEXT)")
    db.commit()
    db.close()
    code, got, err = _cli(ws, cache)
    assert code == 1 and "AC101" in got
    assert "damaged or foreign" in err


def test_tampered_values_are_misses_not_results(ws: WorkspaceBuilder, tmp_path: Path) -> None:
    many_files(ws, 5)
    workspace = load_workspace(ws.config())
    cache = BlobCache(tmp_path / "c", extract_options(workspace.settings))
    expected = [f.finding for f in run_check(workspace, cache=cache).findings]
    cache.close()
    db = sqlite3.connect(tmp_path / "c" / "blobs.sqlite3")
    db.execute("UPDATE blobs SET value = '{\"a\": [[1]], \"r\": 5}'")
    db.execute("UPDATE results SET value = '{\"commit\": 5, \"paths\": 7}'")
    db.commit()
    db.close()
    cache = BlobCache(tmp_path / "c", extract_options(workspace.settings))
    again = run_check(workspace, cache=cache)
    assert [f.finding for f in again.findings] == expected
    assert again.index.snapshots["r"].files_read == 6
    cache.close()


def test_two_runs_at_once_share_a_cache(ws: WorkspaceBuilder, tmp_path: Path) -> None:
    many_files(ws, 400)
    ws.config()
    cache = tmp_path / "cache"
    cmd = [sys.executable, "-m", "anchorcheck", "check", "--format", "json", "--cache-dir", str(cache)]
    procs = [subprocess.Popen(cmd, cwd=ws.root, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(2)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [1, 1], [o[1] for o in outs]
    assert outs[0][0] == outs[1][0]
    assert all(err == "" for _, err in outs)


@pytest.mark.slow
def test_a_run_killed_midway_leaves_a_usable_cache(ws: WorkspaceBuilder, tmp_path: Path) -> None:
    many_files(ws, 1500)
    ws.config()
    cache = tmp_path / "cache"
    _, expected, _ = _cli(ws, tmp_path / "other-cache", "--no-cache")
    for delay in (0.3, 0.6, 0.9):
        cmd = [sys.executable, "-m", "anchorcheck", "check", "--format", "json", "--cache-dir", str(cache)]
        proc = subprocess.Popen(cmd, cwd=ws.root, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(delay)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        code, got, _ = _cli(ws, cache)
        assert (code, got) == (1, expected)


def test_stored_snapshots_round_trip_with_and_without_their_paths(ws: WorkspaceBuilder) -> None:
    from dataclasses import replace

    from anchorcheck.index.stored import snapshot_from_json, snapshot_to_json

    many_files(ws, 5)
    workspace = load_workspace(ws.config())
    snap = run_check(workspace).index.snapshots["r"]
    spec = workspace.repos[0]
    doc = snapshot_to_json(snap)
    # The paths are the blob ids' keys; the ids are one string beside them.
    assert "paths" not in doc and len(doc["files"]) == 6 and len(doc["oids"]) == 6 * 40
    plain = replace(snap, files_read=0, bytes_read=0)
    back = snapshot_from_json(json.loads(json.dumps(doc)), spec)
    assert back == plain
    assert back is not None and dict(back.oids) == snap.oids and dict(back.line_counts) == snap.line_counts
    # Paths that are not (a snapshot of other making) are kept.
    odd = replace(plain, paths=plain.paths | {"sub/module"})
    assert snapshot_from_json(json.loads(json.dumps(snapshot_to_json(odd))), spec) == odd
    assert snapshot_from_json({**doc, "paths": sorted(snap.paths)}, spec) == plain
    # A path that is not a string, ids of a width no object format has, line counts
    # of another number of files, references that are not text: a miss.
    assert snapshot_from_json({**doc, "paths": [1]}, spec) is None
    assert snapshot_from_json({**doc, "files": [*doc["files"][:5], 1]}, spec) is None
    assert snapshot_from_json({**doc, "oids": doc["oids"][:-6]}, spec) is None
    assert snapshot_from_json({**doc, "lines": doc["lines"][1:]}, spec) is None
    assert snapshot_from_json({**doc, "lines": ["1"] * 6}, spec) is None
    assert snapshot_from_json({**doc, "refs": [[], []]}, spec) is None


def test_stored_snapshots_of_the_layout_before_still_read(ws: WorkspaceBuilder) -> None:
    """Index files of formats 1 and 2 hold blob ids and line counts as dicts and the
    references inside the index."""
    from dataclasses import replace

    from anchorcheck.extract.blob import BlobIndex
    from anchorcheck.index.cache import encode_blob_index
    from anchorcheck.index.stored import snapshot_from_json

    many_files(ws, 3)
    workspace = load_workspace(ws.config())
    snap = run_check(workspace).index.snapshots["r"]
    blob = BlobIndex(snap.anchors, tuple(snap.references), 0, 0, (), snap.suppressions)
    old = {"commit": snap.commit, "oids": dict(snap.oids), "lines": dict(snap.line_counts), "skipped": [],
           "index": encode_blob_index(blob), "anchor_paths": [a.path for a in snap.anchors],
           "ref_paths": [r.path for r in snap.references], "mention_paths": [],
           "suppression_paths": [s.path for s in snap.suppressions]}
    back = snapshot_from_json(json.loads(json.dumps(old)), workspace.repos[0])
    # (Those layouts knew no excluded paths: their crawls read every path.)
    assert back == replace(snap, files_read=0, bytes_read=0, mentions=(), excluded=())
    assert back is not None and (len(back.anchors), len(back.references), len(back.suppressions)) == (
        len(snap.anchors), len(snap.references), len(snap.suppressions))
    assert snapshot_from_json({**old, "oids": {"a.py": 1}}, workspace.repos[0]) is None
    assert snapshot_from_json({**old, "lines": {"a.py": "1"}}, workspace.repos[0]) is None


def test_stored_references_decode_when_read_and_a_damaged_part_is_one_clear_error(
    ws: WorkspaceBuilder,
) -> None:
    from anchorcheck.errors import CacheError
    from anchorcheck.index.lazy import LazyReferences, of_kind
    from anchorcheck.index.stored import snapshot_from_json, snapshot_to_json
    from anchorcheck.model.reference import RefKind

    many_files(ws, 3)
    workspace = load_workspace(ws.config())
    snap = run_check(workspace).index.snapshots["r"]
    spec = workspace.repos[0]
    doc = snapshot_to_json(snap)
    back = snapshot_from_json(doc, spec)
    assert back is not None and isinstance(back.references, LazyReferences)
    # No restated value in the repo: asking for them decodes nothing.
    assert of_kind(back.references, RefKind.FACT) == []
    assert back.references._items is None
    assert of_kind(back.references, RefKind.HEADING) == [r for r in snap.references if r.kind is RefKind.HEADING]
    assert list(back.references) == list(snap.references) and len(back.references) == len(snap.references)
    assert back.references[0] == snap.references[0] and hash(back.references) == hash(tuple(snap.references))
    assert () + back.references == tuple(snap.references)  # noqa: RUF005 - what overlay() does
    damaged = snapshot_from_json({**doc, "refs": doc["refs"][:-3]}, spec)
    assert damaged is not None
    with pytest.raises(CacheError, match="damaged snapshot of r"):
        list(damaged.references)


def test_a_damaged_stored_reference_list_stops_the_run_with_one_line_and_code_2(
    ws: WorkspaceBuilder, tmp_path: Path,
) -> None:
    """References of a stored snapshot are decoded when a run first reads them: a damaged
    part found then is a one-line error naming the way out, not a traceback."""
    many_files(ws, 3)
    ws.config()
    cache = tmp_path / "c"
    code, _, _ = _cli(ws, cache)
    assert code == 1
    db = sqlite3.connect(cache / "blobs.sqlite3")
    (key, value), = db.execute("SELECT key, value FROM results WHERE key LIKE 'snap4:%'").fetchall()
    # The packed layout: a JSON line with the parts' lengths, then the parts (paths, blob
    # ids, references, line counts). The references' text is damaged, its length kept.
    cut = value.index("\n")
    files, oids, refs, _ = json.loads(value[:cut])["packed"]
    at = cut + 1 + files + oids + refs
    value = value[:at - 4] + "!!!!" + value[at:]
    # Summed as the cache sums what it writes: damage its checksum would not catch (a
    # writer's own bug) is still one line, not a traceback. (Damage the sum catches is
    # rebuilt: test_a_row_edited_behind_the_caches_back_is_rebuilt_with_a_warning.)
    db.execute("UPDATE results SET value = ?, sum = ? WHERE key = ?", (value, _sum(key, value), key))
    db.execute("DELETE FROM results WHERE key LIKE 'check-result%'")
    db.commit()
    db.close()
    r = run_cli("check", "--format", "json", "--cache-dir", str(cache), cwd=ws.root)
    assert r.code == 2 and r.out == ""
    assert r.err.count("\n") == 1 and "damaged snapshot of r" in r.err and "--no-cache" in r.err


def test_a_packed_snapshot_reads_back_equal_and_a_damaged_part_is_an_error_when_read() -> None:
    """The snapshot cache's layout (crawl.snapshot_to_packed): the same snapshot back,
    paths, blob ids, line counts and references decoded only when read; a damaged
    length is no snapshot (rebuilt), damaged line counts a CacheError when read."""
    from pathlib import Path as P

    from anchorcheck.config.workspace import RepoSpec
    from anchorcheck.errors import CacheError
    from anchorcheck.index.lazy import LazyPaths
    from anchorcheck.index.stored import snapshot_from_packed, snapshot_to_packed
    from anchorcheck.model.anchor import Anchor, AnchorKind
    from anchorcheck.model.snapshot import SnapshotIndex

    spec = RepoSpec.make("r", P("."), "main")
    anchor = Anchor("ROLLBACK", AnchorKind.CAPS, 3, 2, "rollback", "r", "a\nb/x.py")
    snap = SnapshotIndex("r", "main", "c" * 40, frozenset({"a\nb/x.py", "é.md", "img.png"}), (anchor,), (),
                         {"a\nb/x.py": 9, "é.md": 2}, {"a\nb/x.py": "1" * 40, "é.md": "2" * 40, "img.png": "3" * 40})
    text = snapshot_to_packed(snap)
    back = snapshot_from_packed(text, spec)
    assert back is not None and isinstance(back.paths, LazyPaths)
    assert back == snap and dict(back.oids) == dict(snap.oids) and dict(back.line_counts) == dict(snap.line_counts)
    assert back.paths == snap.paths and "img.png" in back.paths and back.anchors == (anchor,)
    assert snapshot_from_packed(text + "x", spec) is None  # the lengths no longer add up
    cut = text.index("\n")
    damaged = snapshot_from_packed(text[:-3] + "]]]", spec)  # the line counts' list, same length
    assert damaged is not None
    with pytest.raises(CacheError, match="damaged snapshot of r"):
        dict(damaged.line_counts)
    assert json.loads(text[:cut])["packed"][0] == len("\0".join(snap.oids))  # paths joined by NUL
    empty = SnapshotIndex("r", "main", "c" * 40, frozenset(), (), (), {}, {})
    assert snapshot_from_packed(snapshot_to_packed(empty), spec) == empty
    # Headings beyond ASCII are escaped: with ASCII paths the stored text is ASCII (one
    # wider character makes Python copy every part sliced from it again).
    curly = Anchor("DON’T RETRY", AnchorKind.CAPS, 1, 0, "don-t-retry", "r", "x.py")
    ascii_paths = SnapshotIndex("r", "main", "c" * 40, frozenset({"x.py"}), (curly,), (), {"x.py": 1},
                                {"x.py": "1" * 40})
    packed = snapshot_to_packed(ascii_paths)
    assert packed.isascii() and snapshot_from_packed(packed, spec) == ascii_paths


def test_a_warm_run_builds_no_stored_anchor_and_a_damaged_anchor_part_is_an_error_when_read(
    ws: WorkspaceBuilder, tmp_path: Path,
) -> None:
    """A stored snapshot's anchors, mentions and suppressions are built when first read
    (lazy.LazyTuple; whether there are any is known without building them): a warm run
    that its stored result answers builds none, and the index over them builds its
    tables on first use. A damaged anchor part is one clear error when read."""
    from dataclasses import replace

    from anchorcheck.errors import CacheError
    from anchorcheck.index.lazy import LazyTuple
    from anchorcheck.index.stored import snapshot_from_packed, snapshot_to_packed
    from anchorcheck.resolve.workspace_index import WorkspaceIndex

    ws.repo("r", {"a.py": "# RETRIES AND BACKOFF\n# why\nx = 1\n",
                  "b.py": "# see RETRIES AND BACKOFF in a.py; `old_probe()` went\n# anchorcheck: ignore[AC101]\ny = 1\n",
                  "c.py": "# see BACKOFF AND RETRIES in a.py\nz = 1\n"})
    workspace = load_workspace(ws.config())
    snap = run_check(workspace).index.snapshots["r"]
    spec = workspace.repos[0]
    back = snapshot_from_packed(snapshot_to_packed(snap), spec)
    assert back is not None
    lazy = [back.anchors, back.mentions, back.suppressions]
    assert all(isinstance(part, LazyTuple) for part in lazy)
    assert [len(part) for part in lazy] == [len(snap.anchors), len(snap.mentions), len(snap.suppressions)] != [0, 0, 0]
    index = WorkspaceIndex([back], workspace.repos)
    assert all(part._items is None for part in lazy)  # nothing built yet
    assert index.by_name["RETRIES AND BACKOFF"] == [a for a in snap.anchors if a.name == "RETRIES AND BACKOFF"]
    assert back == replace(snap, files_read=0, bytes_read=0) and hash(back.anchors) == hash(tuple(snap.anchors))
    assert list(back.mentions) == list(snap.mentions) and tuple(back.suppressions) == tuple(snap.suppressions)
    text = snapshot_to_packed(snap)
    cut = text.index("\n")
    doc = json.loads(text[:cut])
    doc["index"]["a"] = doc["index"]["a"][:-1]  # an anchor gone, its path kept
    damaged = snapshot_from_packed(json.dumps(doc, separators=(",", ":")) + text[cut:], spec)
    assert damaged is not None and len(damaged.anchors) == len(snap.anchors)
    with pytest.raises(CacheError, match="damaged snapshot of r"):
        list(damaged.anchors)
    # Through the command line: a warm run answered by its stored result reads none.
    cache = tmp_path / "c"
    first = run_cli("check", "--format", "json", "--cache-dir", str(cache), cwd=ws.root)
    again = run_cli("check", "--format", "json", "--cache-dir", str(cache), cwd=ws.root)
    assert first.out == again.out and json.loads(first.out)["findings"]


def test_a_stored_snapshot_of_an_empty_tree_round_trips() -> None:
    from pathlib import Path as P

    from anchorcheck.config.workspace import RepoSpec
    from anchorcheck.index.stored import snapshot_from_json, snapshot_to_json
    from anchorcheck.model.snapshot import SnapshotIndex

    empty = SnapshotIndex("r", "main", "c" * 40, frozenset(), (), (), {}, {})
    back = snapshot_from_json(json.loads(json.dumps(snapshot_to_json(empty))), RepoSpec.make("r", P("."), "main"))
    assert back is not None and dict(back.oids) == {} and dict(back.line_counts) == {} and list(back.references) == []


def test_a_new_cache_answers_misses_without_asking_and_then_finds_what_was_stored(tmp_path: Path) -> None:
    from anchorcheck.extract.blob import BlobIndex, ExtractOptions

    value = BlobIndex(anchors=(), references=(), comments=0, line_count=3)
    first = BlobCache(tmp_path / "c", ExtractOptions())
    assert first.get_many([("a" * 40, "python"), ("b" * 40, "python")]) == {}
    assert (first.hits, first.misses) == (0, 2)
    assert first.get_many([("c" * 40, "python")] * 2) == {}  # one blob asked twice: one miss
    assert (first.hits, first.misses) == (0, 3)
    first.put_many([("a" * 40, "python", value)])
    # Its own rows, and (a new run) another's, are found once stored.
    assert first.get_many([("a" * 40, "python")]) == {("a" * 40, "python"): value}
    first.close()
    second = BlobCache(tmp_path / "c", ExtractOptions())
    assert second.get_many([("a" * 40, "python"), ("b" * 40, "python")]) == {("a" * 40, "python"): value}
    assert (second.hits, second.misses) == (1, 1)


def test_the_cache_writes_in_wal_mode_without_waiting_for_the_disk_at_every_write(tmp_path: Path) -> None:
    """WAL with synchronous=NORMAL: consistent through any crash (a power loss may drop
    the last writes, which a cache can lose); FULL waited for the disk at every write."""
    from anchorcheck.extract.blob import ExtractOptions

    cache = BlobCache(tmp_path / "c", ExtractOptions())
    db = cache._db
    assert db is not None
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
    assert not cache.has_result("k")
    cache.put_result("k", {"v": 1})
    assert cache.has_result("k")
    cache.close()
    assert BlobCache(tmp_path / "c", ExtractOptions()).get_result("k") == {"v": 1}


def test_a_repo_keeps_its_most_recently_written_snapshots_and_old_layouts_go(tmp_path: Path) -> None:
    """Snapshots are per commit: without a bound a nightly job grew the cache by every
    repo's snapshot every night. Each repo keeps its `keep` most recently written."""
    from anchorcheck.extract.blob import ExtractOptions

    cache = BlobCache(tmp_path / "c", ExtractOptions())
    db = cache._db
    assert db is not None
    # Rows of an earlier layout: this repo's go with its first snapshot, another's stay.
    db.execute("INSERT INTO results (key, value) VALUES ('snap3:r:old:o:1', '{}'), ('snap3:other:old:o:1', '{}')")
    for n in range(5):
        cache.put_snapshot("r", f"snap4:r:c{n}:o:1", f"text {n}", keep=3)
    cache.put_snapshot("other", "snap4:other:c0:o:1", "theirs", keep=3)
    cache.put_snapshot("r", "snap4:r:c2:o:1", "text 2 again", keep=3)  # written again: newest now
    cache.put_snapshot("r", "snap4:r:c5:o:1", "text 5", keep=3)
    keys = {k for k, in db.execute("SELECT key FROM results WHERE key LIKE 'snap%'")}  # the rows kept
    assert keys == {"snap4:r:c4:o:1", "snap4:r:c2:o:1", "snap4:r:c5:o:1", "snap4:other:c0:o:1",
                    "snap3:other:old:o:1"}
    assert cache.get_text("snap4:r:c2:o:1") == "text 2 again" and cache.get_text("snap4:r:c3:o:1") is None
    cache.close()


def test_a_blob_with_nothing_found_is_encoded_as_json_writes_it() -> None:
    import json as json_module

    from anchorcheck.extract.blob import BlobIndex
    from anchorcheck.index.cache import _decode, encode_blob_index, encode_value

    for comments, lines in ((0, 0), (0, 1), (7, 12345), (2**40, 3)):
        empty = BlobIndex(anchors=(), references=(), comments=comments, line_count=lines)
        text = encode_value(empty)
        assert text == json_module.dumps(encode_blob_index(empty), separators=(",", ":"))
        assert _decode(text) == empty


def test_rows_no_run_wrote_for_a_month_go_at_the_end_of_a_run_that_writes(tmp_path: Path) -> None:
    """Expiry by the day each row was last written: once a day, after a run that wrote
    something; a run that only reads leaves the file as it is."""
    import sqlite3

    from anchorcheck.extract.blob import BlobIndex, ExtractOptions
    from anchorcheck.index.cache import _KEEP_DAYS

    day = 20_000

    def at(d: int) -> BlobCache:
        return BlobCache(tmp_path / "c", ExtractOptions(), clock=lambda: d * 86400.0 + 3600)

    value = BlobIndex(anchors=(), references=(), comments=0, line_count=1)
    old = at(day)
    old.put_many([("a" * 40, "python", value)])
    old.put_result("removals:old", {"name": ["r", "c", "s", "p"]})
    old.close()
    # A month on, a run that only reads: nothing is dropped.
    reader = at(day + _KEEP_DAYS)
    assert reader.get_many([("a" * 40, "python")]) == {("a" * 40, "python"): value}
    reader.close()
    # A day later still, a run that writes: what no run wrote for a month goes.
    writer = at(day + _KEEP_DAYS + 1)
    assert writer.get_many([("a" * 40, "python")]) == {("a" * 40, "python"): value}  # still there
    writer.put_many([("b" * 40, "python", value)])
    writer.close()
    after = at(day + _KEEP_DAYS + 1)
    assert after.get_many([("a" * 40, "python"), ("b" * 40, "python")]) == {("b" * 40, "python"): value}
    assert after.get_result("removals:old") is None
    after.close()
    # Once a day: a row another process left old is dropped by the next day's run.
    with sqlite3.connect(tmp_path / "c" / "blobs.sqlite3") as db:
        db.execute("INSERT INTO results (key, value, day, sum) VALUES ('stale', '1', ?, ?)", (day, _sum("stale", "1")))
    same_day = at(day + _KEEP_DAYS + 1)
    assert same_day.prune() == 0 and same_day.get_result("stale") == 1
    same_day.close()
    next_day = at(day + _KEEP_DAYS + 2)
    assert next_day.prune() == 1 and next_day.get_result("stale") is None
    next_day.close()


def test_a_cache_of_the_schema_before_is_kept_and_given_its_days(tmp_path: Path) -> None:
    """Schema 2 (no `day` column, no `sum`): its rows kept, counted as written today and
    summed as they are, no warning."""
    import sqlite3

    from anchorcheck.extract.blob import BlobIndex, ExtractOptions
    from anchorcheck.index.cache import _APPLICATION_ID, _KEEP_DAYS, encode_value

    value = BlobIndex(anchors=(), references=(), comments=0, line_count=2)
    probe = BlobCache(tmp_path / "probe", ExtractOptions())
    key = probe._key("a" * 40, "python")
    probe.close()
    (tmp_path / "c").mkdir()
    with sqlite3.connect(tmp_path / "c" / "blobs.sqlite3") as db:
        db.execute("CREATE TABLE blobs (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID")
        db.execute("CREATE TABLE results (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID")
        db.execute(f"PRAGMA application_id = {_APPLICATION_ID}")
        db.execute("PRAGMA user_version = 2")
        db.execute("INSERT INTO blobs VALUES (?, ?)", (key, encode_value(value)))
    warnings: list[str] = []
    day = 20_000
    cache = BlobCache(tmp_path / "c", ExtractOptions(), warnings.append, clock=lambda: day * 86400.0)
    assert cache.get_many([("a" * 40, "python")]) == {("a" * 40, "python"): value}
    cache.put_result("x", 1)
    cache.close()
    assert warnings == []
    with sqlite3.connect(tmp_path / "c" / "blobs.sqlite3") as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 4  # (3 gave days, 4 sums)
        assert db.execute("SELECT day FROM blobs").fetchall() == [(day,)]
    later = BlobCache(tmp_path / "c", ExtractOptions(), clock=lambda: (day + _KEEP_DAYS + 1) * 86400.0)
    later.put_result("y", 2)
    later.close()
    assert BlobCache(tmp_path / "c", ExtractOptions()).get_many([("a" * 40, "python")]) == {}


def test_results_are_read_by_key_prefix(tmp_path: Path) -> None:
    from anchorcheck.config.workspace import Settings

    cache = BlobCache(tmp_path / "c", extract_options(Settings()))
    cache.put_results([("walk:r:a.py:1-2:aaa", [1]), ("walk:r:a.py:1-2:bbb", [2]), ("walk:r:a.py:1-3:ccc", [3]),
                       ("walk:r:a.py:1-2", [4]), ("walk:r:a.py:1-2;x", [5]), ("walk:r:b.py:1-2:ddd", [6])])
    assert cache.get_results_under(["walk:r:a.py:1-2:"]) == {"walk:r:a.py:1-2:aaa": [1], "walk:r:a.py:1-2:bbb": [2]}
    assert cache.get_results_under(["walk:r:a.py:1-2:", "walk:r:b.py:1-2:", "walk:r:b.py:1-2:", ""]) == {
        "walk:r:a.py:1-2:aaa": [1], "walk:r:a.py:1-2:bbb": [2], "walk:r:b.py:1-2:ddd": [6]}
    assert cache.get_results_under(["walk:s:"]) == {}
    cache.close()


def test_a_row_edited_behind_the_caches_back_is_rebuilt_with_a_warning(ws: WorkspaceBuilder, tmp_path: Path) -> None:
    """A plausible edit (a finding's message changed in a stored result, a stored
    snapshot's reference list shortened) fails the row's checksum: the row is ignored,
    said once, and rebuilt; the findings are the true ones (issue 43, item 9)."""
    import sqlite3

    many_files(ws, 3)
    ws.config()
    cache = tmp_path / "c"
    code, first, _ = _cli(ws, cache)
    db = sqlite3.connect(cache / "blobs.sqlite3")
    for key, value in db.execute("SELECT key, value FROM results WHERE key LIKE 'check-result%' "
                                 "OR key LIKE 'snap4:%'").fetchall():
        db.execute("UPDATE results SET value = ? WHERE key = ?", (value.replace("AC101", "AC999"), key))
    for key, value in db.execute("SELECT key, value FROM blobs").fetchall():
        db.execute("UPDATE blobs SET value = ? WHERE key = ?", (value.replace('"r"', '"x"'), key))
    db.commit()
    db.close()
    code2, again, err = _cli(ws, cache)
    assert (code2, again) == (code, first) and "AC999" not in again
    assert err.count("does not match its checksum") == 1, err
    code3, third, err3 = _cli(ws, cache)  # rebuilt: quiet again
    assert (code3, third) == (code, first) and "checksum" not in err3
