"""A persistent cache of what was extracted from each blob, in one SQLite file.

Keyed by blob id, language, the extractor's version and the settings that change
its output, so a blob is scanned once for all refs, branches and repos that share it.
Two processes may use it at once (WAL, a busy timeout). Values are JSON, never
pickle: a foreign or damaged file is detected (application id, schema version,
integrity errors on use) and rebuilt with a warning; nothing in it is trusted beyond
decoding into plain values.

It does not grow for good: each row keeps the day it was last written, and a run
that wrote something drops, once a day, the rows no run has written for _KEEP_DAYS
days (a nightly job over moving repos added per-commit results every night: GHC's
AC203 removal table alone is 85 KB). A dropped row costs a later run that wants it
the work of making it again.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sqlite3
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from operator import itemgetter
from pathlib import Path
from typing import Any

from anchorcheck.extract.blob import EXTRACTOR_VERSION, BlobIndex, ExtractOptions
from anchorcheck.model.anchor import Anchor, AnchorKind
from anchorcheck.model.reference import Reference, RefKind
from anchorcheck.model.suppression import Suppression

_APPLICATION_ID = 0x41434B31  # "ACK1"
# 3: each row's `day`; 4: each row's `sum` (_sum). A cache of an earlier schema is
# given them (_upgrade), not rebuilt.
_SCHEMA = 4
_KEEP_DAYS = 30
_PRUNED_KEY = "pruned-day"  # a results row: the day old rows were last dropped
_CHUNK = 500
# Stored snapshots kept per repo, the most recently written: a snapshot is per commit
# (GHC's is 4.3 MB), so a nightly job over moving repos added one every night for good.
_SNAPSHOTS_KEPT = 16
_SNAPSHOT_LAYOUT = re.compile(r"snap[0-9]+")  # the first part of a snapshot's key


def default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "anchorcheck"


def options_key(options: ExtractOptions) -> str:
    raw = json.dumps(asdict(options), sort_keys=True) + f"|v{EXTRACTOR_VERSION}"
    return hashlib.sha256(raw.encode()).hexdigest()[:16]


class BlobCache:
    """get_many/put_many over (oid, language) pairs, for one set of options."""

    def __init__(
        self, directory: Path, options: ExtractOptions, warn: Any = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.path = directory / "blobs.sqlite3"
        self.today = int(clock() // 86400)  # days since the epoch: each written row's `day`
        self._wrote = False
        self.options = options_key(options)
        self._warn = warn or (lambda msg: print(f"anchorcheck: warning: {msg}", file=sys.stderr))
        self.hits = 0
        self.misses = 0
        self.damaged = 0  # rows read whose checksum did not match
        # Whether the blob table holds a row, asked once: a cold run on a new cache
        # (a CI runner's first run) asked for each of its blobs (17k on the bench
        # workspace, ~40 ms) to find none. A row another process stores after that
        # answer is missed by this run, which then reads that blob itself.
        self._any_blobs: bool | None = None
        try:
            directory.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            self._warn(f"cache {self.path} cannot be made ({exc.strerror or exc}); not cached")
            self._db = None
            return
        self._db = self._open()

    def _open(self) -> sqlite3.Connection | None:
        for attempt in (1, 2):
            try:
                db = sqlite3.connect(self.path, timeout=30, isolation_level=None)
                db.execute("PRAGMA busy_timeout = 30000")
                # One read transaction, so another process creating the file cannot
                # be caught half-way (tables made, application id not yet set).
                db.execute("BEGIN")
                app_id = db.execute("PRAGMA application_id").fetchone()[0]
                version = db.execute("PRAGMA user_version").fetchone()[0]
                tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
                db.execute("COMMIT")
                if tables == 0:
                    self._create(db)
                elif app_id == _APPLICATION_ID and version in (2, 3):
                    self._upgrade(db)
                elif app_id != _APPLICATION_ID or version != _SCHEMA:
                    db.close()
                    raise sqlite3.DatabaseError("not an anchorcheck cache of this version")
                self._wal(db)
                return db
            except sqlite3.OperationalError as exc:
                if self._read_only(exc):
                    self._warn(f"cache {self.path} is read-only; not cached")
                    return None
                # Locked or busy past the timeout: another run holds it. Never delete
                # a cache that is merely in use; run without it this time.
                self._warn(f"cache {self.path} is busy ({exc}); running without it")
                return None
            except sqlite3.DatabaseError as exc:
                if attempt == 2:
                    self._warn(f"cache {self.path} unusable ({exc}); running without it")
                    return None
                self._warn(f"cache {self.path} is damaged or foreign ({exc}); rebuilding it")
                self._remove()
        return None

    def _read_only(self, exc: sqlite3.OperationalError) -> bool:
        """Whether the cache cannot be written (a read-only file or folder), which is
        no lock another run will let go of."""
        said = str(exc).lower()
        if "readonly" in said or "read-only" in said:
            return True
        folder = self.path.parent
        return not os.access(folder, os.W_OK) or (self.path.exists() and not os.access(self.path, os.W_OK))

    @staticmethod
    def _wal(db: sqlite3.Connection) -> None:
        """WAL lets readers and a writer work at once; it is an optimisation, so a run
        that cannot switch (another process is using the file) goes on without it."""
        try:
            if db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                db.execute("PRAGMA journal_mode = WAL")
            if db.execute("PRAGMA journal_mode").fetchone()[0] == "wal":
                # In WAL mode NORMAL keeps the file consistent through any crash; a power
                # loss may only drop the last writes, which a cache can lose. FULL waited
                # for the disk at every write (a 100 KB result: 11.6 ms against 5.9) and
                # again at close (11 ms against 1.5): a tenth of a merge-order run.
                db.execute("PRAGMA synchronous = NORMAL")
        except sqlite3.OperationalError:
            pass

    def _create(self, db: sqlite3.Connection) -> None:
        db.execute("BEGIN IMMEDIATE")
        if db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0:
            db.execute("CREATE TABLE blobs (key TEXT PRIMARY KEY, value TEXT NOT NULL, "
                       "day INTEGER NOT NULL DEFAULT 0, sum TEXT) WITHOUT ROWID")
            # Results computed from whole commits (AC203's definitions and removals).
            db.execute("CREATE TABLE results (key TEXT PRIMARY KEY, value TEXT NOT NULL, "
                       "day INTEGER NOT NULL DEFAULT 0, sum TEXT) WITHOUT ROWID")
            db.execute(f"PRAGMA application_id = {_APPLICATION_ID}")
            db.execute(f"PRAGMA user_version = {_SCHEMA}")
            # Nothing to drop in a new file today (a cold run's close then reads no table).
            db.execute("INSERT INTO results (key, value, day, sum) VALUES (?, ?, ?, ?)",
                       _row(_PRUNED_KEY, str(self.today), self.today))
        db.execute("COMMIT")

    def _upgrade(self, db: sqlite3.Connection) -> None:
        """A cache of schema 2 (no `day`) or 3 (no `sum`), kept: its rows count as
        written today, so they expire as if this run had written them, and are summed
        as they are (once: ~1 GB/s)."""
        db.execute("BEGIN IMMEDIATE")
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version in (2, 3):  # not done by another run meanwhile
            for table in ("blobs", "results"):
                if version == 2:
                    db.execute(f"ALTER TABLE {table} ADD COLUMN day INTEGER NOT NULL DEFAULT {self.today:d}")
                db.execute(f"ALTER TABLE {table} ADD COLUMN sum TEXT")
                # The rows as they are now are the earlier schema's: summed once, here.
                rows = db.execute(f"SELECT key, value FROM {table}").fetchall()
                db.executemany(f"UPDATE {table} SET sum = ? WHERE key = ?",
                               [(_sum(key, value), key) for key, value in rows if isinstance(value, str)])
            # Every row is of today now: nothing to drop before a month from now.
            db.execute("INSERT OR REPLACE INTO results (key, value, day, sum) VALUES (?, ?, ?, ?)",
                       _row(_PRUNED_KEY, str(self.today), self.today))
            db.execute(f"PRAGMA user_version = {_SCHEMA}")
        db.execute("COMMIT")

    def _intact(self, key: str, value: Any, stored: Any) -> bool:
        """Whether a row read is as it was written (its sum matches); one that is not
        is a miss, rebuilt by the run that wanted it, and said once."""
        if isinstance(value, str) and stored == _sum(key, value):
            return True
        self.damaged += 1
        if self.damaged == 1:
            self._warn(f"cache {self.path}: a row does not match its checksum (damaged or edited); "
                       "it is ignored and rebuilt")
        return False

    def _remove(self) -> None:
        for suffix in ("", "-wal", "-shm"):
            Path(str(self.path) + suffix).unlink(missing_ok=True)

    def _key(self, oid: str, language: str) -> str:
        return f"{oid}:{language}:{self.options}"

    def get_many(self, pairs: Iterable[tuple[str, str]]) -> dict[tuple[str, str], BlobIndex | str]:
        found: dict[tuple[str, str], BlobIndex | str] = {}
        if self._db is None:
            return found
        try:
            if self._any_blobs is None:
                self._any_blobs = bool(self._db.execute("SELECT EXISTS (SELECT 1 FROM blobs)").fetchone()[0])
        except sqlite3.DatabaseError as exc:
            self._fail(exc)
            return {}
        if not self._any_blobs:  # nothing to find: no key is even made (17k on a cold bench run)
            self.misses += len(set(pairs))
            return found
        wanted = {self._key(oid, lang): (oid, lang) for oid, lang in pairs}
        keys = list(wanted)
        try:
            for i in range(0, len(keys), _CHUNK):
                chunk = keys[i:i + _CHUNK]
                marks = ",".join("?" * len(chunk))
                for key, value, stored in self._db.execute(
                    f"SELECT key, value, sum FROM blobs WHERE key IN ({marks})", chunk
                ):
                    if not self._intact(key, value, stored):
                        continue
                    decoded = _decode(value)
                    if decoded is not None:
                        found[wanted[key]] = decoded
        except sqlite3.DatabaseError as exc:
            self._fail(exc)
            return {}
        self.hits += len(found)
        self.misses += len(wanted) - len(found)
        return found

    def put_many(self, items: Iterable[tuple[str, str, BlobIndex | str | Encoded]]) -> None:
        """Store values, or values already encoded (`Encoded`, by the extraction workers)."""
        if self._db is None:
            return
        today = self.today
        rows = [_row(self._key(oid, lang), value.text if isinstance(value, Encoded) else encode_value(value),
                     today) for oid, lang, value in items]
        if not rows:
            return
        # In key order: blob ids are random, and inserting them as they come splits
        # pages all over the table's B-tree (17k rows of a cold bench run: 0.11-0.125 s
        # as they come, 0.076-0.10 s sorted, the sort ~5 ms).
        rows.sort(key=itemgetter(0))
        try:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.executemany("INSERT OR REPLACE INTO blobs (key, value, day, sum) VALUES (?, ?, ?, ?)",
                                 rows)
            self._db.execute("COMMIT")
            self._any_blobs = self._wrote = True
        except sqlite3.DatabaseError as exc:
            self._fail(exc)

    def get_result(self, key: str) -> Any:
        """A JSON value stored under `key`, or None."""
        if self._db is None:
            return None
        try:
            row = self._db.execute("SELECT value, sum FROM results WHERE key = ?", (key,)).fetchone()
            return None if row is None or not self._intact(key, row[0], row[1]) else json.loads(row[0])
        except (sqlite3.DatabaseError, ValueError) as exc:
            if isinstance(exc, sqlite3.DatabaseError):
                self._fail(exc)
            return None

    def get_results(self, keys: Iterable[str]) -> dict[str, Any]:
        """The JSON values stored under these keys, by key (those found and readable)."""
        wanted = list(dict.fromkeys(keys))
        return self._decoded(
            (f"SELECT key, value, sum FROM results WHERE key IN ({','.join('?' * len(chunk))})", chunk)
            for i in range(0, len(wanted), _CHUNK) for chunk in [wanted[i:i + _CHUNK]])

    def get_results_under(self, prefixes: Iterable[str]) -> dict[str, Any]:
        """The JSON values stored under every key that starts with one of these prefixes,
        by key (one range of the key index each: a prefix ends with a separator, and the
        next character bounds it)."""
        return self._decoded(("SELECT key, value, sum FROM results WHERE key >= ? AND key < ?",
                              [prefix, prefix[:-1] + chr(ord(prefix[-1]) + 1)])
                             for prefix in dict.fromkeys(prefixes) if prefix)

    def _decoded(self, queries: Iterable[tuple[str, list[str]]]) -> dict[str, Any]:
        """The (key, JSON value) rows these queries select, decoded, by key (an
        unreadable value is a miss)."""
        found: dict[str, Any] = {}
        if self._db is None:
            return found
        try:
            for sql, args in queries:
                for key, value, stored in self._db.execute(sql, args):
                    if not self._intact(key, value, stored):
                        continue
                    try:
                        found[key] = json.loads(value)
                    except (ValueError, TypeError):
                        continue
        except sqlite3.DatabaseError as exc:
            self._fail(exc)
            return {}
        return found

    def has_result(self, key: str) -> bool:
        """Whether something is stored under `key` (nothing is read or decoded)."""
        if self._db is None:
            return False
        try:
            return self._db.execute("SELECT 1 FROM results WHERE key = ?", (key,)).fetchone() is not None
        except sqlite3.DatabaseError as exc:
            self._fail(exc)
            return False

    def get_text(self, key: str) -> str | None:
        """A text stored under `key` as it is (put_snapshot), or None."""
        if self._db is None:
            return None
        try:
            row = self._db.execute("SELECT value, sum FROM results WHERE key = ?", (key,)).fetchone()
        except sqlite3.DatabaseError as exc:
            self._fail(exc)
            return None
        return None if row is None or not self._intact(key, row[0], row[1]) else row[0]

    def put_snapshot(self, repo: str, key: str, text: str, keep: int = _SNAPSHOTS_KEPT) -> None:
        """Store a repo's snapshot, a text as it is (crawl's packed layout), and drop
        that repo's snapshots beyond the `keep` most recently written (a row per repo
        lists them, in order; the first time, rows of earlier layouts of that repo go
        too). Dropping one only costs a later run that wants it a crawl."""
        if self._db is None:
            return
        log_key = f"kept-snapshots:{repo}"
        try:
            self._db.execute("BEGIN IMMEDIATE")
            row = self._db.execute("SELECT value FROM results WHERE key = ?", (log_key,)).fetchone()
            try:
                listed = json.loads(row[0]) if row is not None else None
            except ValueError:
                listed = None
            if not (isinstance(listed, list) and all(isinstance(k, str) for k in listed)):
                listed = []
                if row is None:  # this version's first snapshot of the repo
                    layout = key.partition(":")[0]
                    listed = [k for k, in self._db.execute(
                        "SELECT key FROM results WHERE key > 'snap' AND key < 'snaq'")
                        if k.split(":")[1:2] == [repo] and _SNAPSHOT_LAYOUT.fullmatch(k.partition(":")[0])
                        and k.partition(":")[0] != layout]
            listed = [k for k in listed if k != key] + [key]
            dropped, listed = listed[:-keep], listed[-keep:]
            self._db.executemany("DELETE FROM results WHERE key = ?", [(k,) for k in dropped])
            self._db.execute("INSERT OR REPLACE INTO results (key, value, day, sum) VALUES (?, ?, ?, ?)",
                             _row(key, text, self.today))
            self._db.execute("INSERT OR REPLACE INTO results (key, value, day, sum) VALUES (?, ?, ?, ?)",
                             _row(log_key, json.dumps(listed), self.today))
            self._db.execute("COMMIT")
            self._wrote = True
        except sqlite3.DatabaseError as exc:
            self._fail(exc)

    def put_result(self, key: str, value: Any) -> None:
        """Store a JSON value under `key`."""
        self.put_results(((key, value),))

    def put_results(self, items: Iterable[tuple[str, Any]]) -> None:
        """Store JSON values by key, in one transaction."""
        if self._db is None:
            return
        rows = [_row(key, json.dumps(value, separators=(",", ":")), self.today) for key, value in items]
        if not rows:
            return
        try:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.executemany("INSERT OR REPLACE INTO results (key, value, day, sum) VALUES (?, ?, ?, ?)",
                                 rows)
            self._db.execute("COMMIT")
            self._wrote = True
        except sqlite3.DatabaseError as exc:
            self._fail(exc)

    def _fail(self, exc: Exception) -> None:
        self._warn(f"cache {self.path} failed ({exc}); rebuilding it on the next run")
        try:
            if self._db is not None:
                self._db.close()
        finally:
            self._db = None
            self._remove()

    def prune(self) -> int:
        """Drop the rows no run has written for _KEEP_DAYS days, unless done today
        already; the number of rows dropped. (Each table is read whole, with no index
        on `day` that every write would pay for: once a day, at the end of a run.)"""
        if self._db is None:
            return 0
        try:
            self._db.execute("BEGIN IMMEDIATE")
            row = self._db.execute("SELECT value FROM results WHERE key = ?", (_PRUNED_KEY,)).fetchone()
            if row is not None and row[0] == str(self.today):
                self._db.execute("COMMIT")
                return 0
            oldest = self.today - _KEEP_DAYS
            dropped = sum(self._db.execute(f"DELETE FROM {table} WHERE day < ?", (oldest,)).rowcount
                          for table in ("blobs", "results"))
            self._db.execute("INSERT OR REPLACE INTO results (key, value, day, sum) VALUES (?, ?, ?, ?)",
                             _row(_PRUNED_KEY, str(self.today), self.today))
            self._db.execute("COMMIT")
            if dropped:
                self._any_blobs = None  # asked again: the blob table may be empty now
            return dropped
        except sqlite3.DatabaseError as exc:
            self._fail(exc)
            return 0

    def close(self) -> None:
        """Close the file; after a run that wrote something, old rows go first (prune)."""
        if self._db is not None:
            if self._wrote:
                self.prune()
            if self._db is not None:
                self._db.close()
            self._db = None


def _sum(key: str, value: str) -> str:
    """A row's checksum, of its key and value together (a value moved to another key
    is caught too). BLAKE2b: ~1 GB/s, a few ms on a warm run's reads."""
    return hashlib.blake2b(key.encode() + b"\0" + value.encode(errors="surrogatepass"),
                           digest_size=8).hexdigest()


def _row(key: str, value: str, day: int) -> tuple[str, str, int, str]:
    return key, value, day, _sum(key, value)


# -- codec: plain JSON, checked on the way in ----------------------------------


@dataclass(frozen=True, slots=True)
class Encoded:
    """A cache value already encoded."""

    text: str


def encode_value(value: BlobIndex | str) -> str:
    if (not isinstance(value, str) and not value.anchors and not value.references and not value.mentions
            and not value.suppressions):
        # Most blobs hold nothing: their text written directly, as json.dumps writes it
        # (a test compares), not through a dict of empty lists (~0.1 s of a cold run's
        # workers on the bench workspace).
        return f'{{"a":[],"r":[],"c":{value.comments:d},"n":{value.line_count:d},"m":[],"s":[]}}'
    return json.dumps(encode_blob_index(value), separators=(",", ":"))


def encode_blob_index(value: BlobIndex | str) -> dict[str, Any]:
    if isinstance(value, str):
        return {"skip": value}
    return {
        "a": [[a.name, a.kind.value, a.line, a.col, a.slug] for a in value.anchors],
        "r": [encode_reference(r) for r in value.references],
        "c": value.comments,
        "n": value.line_count,
        "m": [list(m) for m in value.mentions],
        "s": [[s.first, s.last, list(s.codes), s.line, s.col] for s in value.suppressions],
    }


def encode_reference(r: Reference) -> list[Any]:
    """A reference without its place (repo, path): the place is stored once per file."""
    return [r.kind.value, r.line, r.col, r.text, r.name, r.target_repo, r.target_path,
            r.relative, list(r.lines) if r.lines else None, r.via_url, r.claim]


def _decode(raw: str) -> BlobIndex | str | None:
    try:
        return decode_blob_index(json.loads(raw))
    except ValueError:
        return None


def decode_blob_index(
    doc: Any, repo: str = "", places: dict[str, list[str]] | None = None
) -> BlobIndex | str | None:
    """None when the value is not what this version writes: a miss, never a crash.

    `places` (a whole snapshot's value) gives each anchor ("a"), reference ("r") and
    suppression ("s") its path, so items are built once, in place."""
    try:
        if "skip" in doc:
            return str(doc["skip"])
        where = places or {}

        def paths(key: str, n: int) -> list[str]:
            found = [str(p) for p in where[key]] if key in where else [""] * n
            if len(found) != n:
                raise ValueError(key)
            return found

        a_paths = paths("a", len(doc["a"]))
        r_paths = paths("r", len(doc["r"]))
        s_paths = paths("s", len(doc["s"]))
        return BlobIndex(
            anchors=tuple(
                Anchor(str(n), _ANCHOR_KINDS[k], int(ln), int(c), str(s), repo, p)
                for (n, k, ln, c, s), p in zip(doc["a"], a_paths, strict=True)
            ),
            references=tuple(decode_reference(r, repo, p) for r, p in zip(doc["r"], r_paths, strict=True)),
            comments=int(doc["c"]),
            line_count=int(doc["n"]),
            mentions=tuple((str(n), int(ln), int(c)) for n, ln, c in doc["m"]),
            suppressions=tuple(
                Suppression(int(a), int(b), tuple(str(x) for x in codes), int(ln), int(c), repo, p)
                for (a, b, codes, ln, c), p in zip(doc["s"], s_paths, strict=True)
            ),
        )
    except (ValueError, KeyError, TypeError):
        return None


# Kinds by value: a dict lookup, where calling the Enum costs ~2 µs, and a merge-order
# run decodes every reference of every repo's snapshot.
_REF_KINDS = {k.value: k for k in RefKind}
_ANCHOR_KINDS = {k.value: k for k in AnchorKind}


def decode_reference(r: list[Any], repo: str = "", at: str = "") -> Reference:
    kind, line, col, text, name, target_repo, target_path, relative, lines, via_url, claim = r
    return Reference(
        _REF_KINDS[kind], int(line), int(col), str(text), name, target_repo, target_path, bool(relative),
        (int(lines[0]), int(lines[1])) if lines else None, bool(via_url), claim, repo, at,
    )
