"""Extraction across cores: blobs are read from git and scanned in worker processes,
a batch at a time, for every repo of a run through one pool.

Scanning is pure Python, so threads would share one core; processes do not. Each
worker reads its batches itself through its own `git cat-file --batch` (one per git
directory, kept for the worker's life): this process only hands out blob ids, so it
neither copies every blob through a pipe nor takes a core's share from the scanning.
The pool only starts when there is enough text to pay for it (a PR run reading ten
blobs never forks), and at most a few batches are in flight, so memory stays bounded
however large the workspace. Results come back in the order the blobs were given.
"""

from __future__ import annotations

import dataclasses
import gc
import itertools
import os
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from anchorcheck.extract.blob import BlobIndex, ExtractOptions, extract
from anchorcheck.git.blobtext import decode_blob
from anchorcheck.git.process import BlobReader
from anchorcheck.index.cache import encode_value
from anchorcheck.model.anchor import Anchor
from anchorcheck.model.reference import Reference
from anchorcheck.model.suppression import Suppression

if TYPE_CHECKING:
    from concurrent.futures import Future

# (git directory, blob id, its size from the tree listing, the languages it is read as)
BlobJob = tuple[str, str, int, tuple[str, ...]]
# A BlobIndex as a worker sends it: its anchors, references and suppressions as rows
# of their fields but the place (repo, path), then comments, line count, mentions.
Rows = tuple[tuple[Any, ...], ...]
PackedIndex = tuple[Rows, Rows, int, int, tuple[tuple[str, int, int], ...], Rows]
# (whether git could read the blob, one result per language: its index, packed (see
# unpack), or why it is not read; and, when the results go to the cache, each one
# encoded for it)
BlobResult = tuple[bool, tuple[PackedIndex | str, ...], tuple[str, ...] | None]

# Below this much text a pool costs more (fork, start-up) than it saves.
_MIN_PARALLEL_BYTES = 4_000_000
_BATCH_BYTES = 1_000_000
_BATCH_BLOBS = 256

# A worker's readers, by git directory (a forked worker starts with none).
_READERS: dict[str, BlobReader] = {}
_READERS_MAX = 4  # cat-file processes a worker keeps, one per repo, most recent first


def worker_count(jobs: int) -> int:
    """`jobs` as asked (`--jobs N`); 0 means one per core this process may use."""
    if jobs > 0:
        return jobs
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def extract_one(
    data: bytes | None, langs: Sequence[str], options: ExtractOptions
) -> tuple[BlobIndex | str, ...]:
    text, reason = decode_blob(data)
    if text is None:
        return tuple(reason for _ in langs)
    out: list[BlobIndex | str] = []
    for lang in langs:
        try:
            out.append(extract(text, lang, options))
        except Exception as exc:  # a bug of ours on odd text: skip the file, go on
            out.append(f"not read: {type(exc).__name__}: {exc}"[:200])
    return tuple(out)


def _read_and_extract(
    batch: Sequence[BlobJob], options: ExtractOptions, encode: bool,
    readers: dict[str, BlobReader],
) -> list[BlobResult]:
    """One batch, all of one git directory: read, then scan each blob."""
    git_dir = batch[0][0]
    reader = readers.pop(git_dir, None)
    if reader is None:
        while len(readers) >= _READERS_MAX:
            # The repo read longest ago: a worker kept one cat-file for every repo it
            # had read, two descriptors each (1,000 repos: 2,000 descriptors a worker).
            readers.pop(next(iter(readers))).close()
        reader = BlobReader(git_dir)
    readers[git_dir] = reader  # last: the most recently used
    blobs = reader.stream([oid for _, oid, _, _ in batch])
    try:
        # Each blob is scanned as it arrives, while git inflates the next ones.
        return [_result(data, job[3], options, encode) for job, data in zip(batch, blobs, strict=True)]
    except BaseException:
        readers.pop(git_dir, None)  # part of its answer may be unread: never reused
        reader.close()
        raise


def _worker_batch(batch: Sequence[BlobJob], options: ExtractOptions, encode: bool) -> list[BlobResult]:
    if not _READERS:
        # A worker ends with os._exit, past atexit: multiprocessing's own finalizers
        # still run, and close its cat-file processes rather than leave them to init.
        from multiprocessing.util import Finalize

        Finalize(None, _close_readers, exitpriority=0)
        # No cyclic collector in a worker: scanning a blob makes no reference cycle (a
        # test holds every language to that), so reference counting frees all of it,
        # and the collector's passes only walked the objects (every 10th GHC Haskell
        # file: 2,526M -> 2,498M instructions; cold bench run, 7 interleaved runs:
        # children's CPU 9.96 -> 9.69 s median). The worker's memory is unchanged (the
        # whole of GHC's blobs scanned so: 41 MB peak either way).
        gc.disable()
    return _read_and_extract(batch, options, encode, _READERS)


def _row(cls: type) -> attrgetter[Any]:
    """The fields of `cls` but its last two, which must be its place: repo, path."""
    names = [f.name for f in dataclasses.fields(cls)]
    if names[-2:] != ["repo", "path"]:
        raise TypeError(f"{cls.__name__} must end with its place (repo, path)")
    return attrgetter(*names[:-2])


_ANCHOR_ROW, _REFERENCE_ROW, _SUPPRESSION_ROW = _row(Anchor), _row(Reference), _row(Suppression)
# Their constructors, called with a row and the place: positionally, which _row checked
# (a type checker cannot count a row's fields).
_new_anchor: Callable[..., Anchor] = Anchor
_new_reference: Callable[..., Reference] = Reference
_new_suppression: Callable[..., Suppression] = Suppression


def pack(index: BlobIndex) -> PackedIndex:
    """What a worker sends for `index`. Its objects cost the most to send: pickled, each
    is a call of its constructor in the receiving process (~4 us: every field set by
    object.__setattr__), and the crawl then built each one again with its repo and
    path. Rows of plain values pickle in a tenth of that, and unpack builds each
    object once, in place."""
    return (tuple(map(_ANCHOR_ROW, index.anchors)), tuple(map(_REFERENCE_ROW, index.references)),
            index.comments, index.line_count, index.mentions,
            tuple(map(_SUPPRESSION_ROW, index.suppressions)))


def unpack(packed: PackedIndex, repo: str, path: str) -> BlobIndex:
    """The BlobIndex a worker packed, its objects placed at `repo` and `path`."""
    anchors, references, comments, line_count, mentions, suppressions = packed
    return BlobIndex(
        tuple([_new_anchor(*row, repo, path) for row in anchors]),
        tuple([_new_reference(*row, repo, path) for row in references]),
        comments, line_count, mentions,
        tuple([_new_suppression(*row, repo, path) for row in suppressions]),
    )


def _worker_start(parent: int) -> None:
    """A worker ends when the run that started it dies, whatever killed it: a forked
    worker holds both ends of the pool's pipes, so no end-of-file would ever tell it,
    and after a `kill -9` of the run the workers lived on for good (issue 43). Linux
    signals it the parent's death (PR_SET_PDEATHSIG); elsewhere a thread looks for a
    new parent every second."""
    if sys.platform.startswith("linux"):
        import ctypes
        import signal

        try:
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM, 0, 0, 0)  # 1: PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
        else:
            if os.getppid() != parent:  # died before the request took effect
                os._exit(1)
            return
    import threading

    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


def _watch_parent(parent: int) -> None:
    import time

    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(1)


def _close_readers() -> None:
    while _READERS:
        _READERS.popitem()[1].close()


def _result(data: bytes | None, langs: Sequence[str], options: ExtractOptions, encode: bool) -> BlobResult:
    results = extract_one(data, langs, options)
    # Encoding for the cache is done where the scanning is: in the workers, in parallel.
    encoded = tuple(encode_value(r) for r in results) if encode and data is not None else None
    return data is not None, tuple(pack(r) if isinstance(r, BlobIndex) else r for r in results), encoded


def _batches(jobs: Iterable[BlobJob]) -> Iterator[list[BlobJob]]:
    """Consecutive jobs in batches of about _BATCH_BYTES, each of one git directory."""
    batch: list[BlobJob] = []
    size = 0
    for job in jobs:
        if batch and (job[0] != batch[0][0] or size >= _BATCH_BYTES or len(batch) >= _BATCH_BLOBS):
            yield batch
            batch, size = [], 0
        batch.append(job)
        size += max(job[2], 0)
    if batch:
        yield batch


def extract_blobs(
    jobs: Iterable[BlobJob], options: ExtractOptions, workers: int, encode: bool = False,
) -> Iterator[BlobResult]:
    """Each blob's results, in the order given. With one worker, or too little text
    to share out, everything runs here. Indexes come packed (unpack). `jobs` is read as
    the pool needs work (it may be a generator still reading trees), past the first
    _MIN_PARALLEL_BYTES."""
    given = iter(jobs)
    head: list[BlobJob] = []
    total = 0
    if workers > 1:
        for job in given:
            head.append(job)
            total += max(job[2], 0)
            if total >= _MIN_PARALLEL_BYTES:
                break
    if workers <= 1 or total < _MIN_PARALLEL_BYTES:
        readers: dict[str, BlobReader] = {}
        try:
            for batch in _batches(itertools.chain(head, given)):
                yield from _read_and_extract(batch, options, encode, readers)
        finally:
            for reader in readers.values():
                reader.close()
        return
    # Imported here: a run that scans little (a PR) never forks and skips their import.
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # fork: workers start in milliseconds with every pattern already compiled.
    # Elsewhere (macOS, Windows) fork is unsafe or absent: the platform's default.
    context = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else None)
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_worker_start,
                               initargs=(os.getpid(),))
    try:
        in_flight: deque[Future[list[BlobResult]]] = deque()
        for batch in _batches(itertools.chain(head, given)):
            in_flight.append(pool.submit(_worker_batch, batch, options, encode))
            # Bounded, so memory does not grow with the workspace; but deep enough that a
            # slow batch at the head of the line (results are taken in order) does not
            # leave the other workers without work (bench workspace, extraction phase:
            # 7.0 s with 2 per worker, 5.8-6.1 s with 8).
            while len(in_flight) > 8 * workers:
                yield from in_flight.popleft().result()
        while in_flight:
            yield from in_flight.popleft().result()
    except BaseException:  # an error, or the caller stopped reading: wait for them
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    # Every result is in: the workers close their readers and exit in the background
    # (20-30 ms that stood between the crawl and what follows it).
    pool.shutdown(wait=False)
