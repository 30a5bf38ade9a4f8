"""Extraction across cores: blobs are read from git in this process and scanned in
worker processes, a batch at a time.

Scanning is pure Python, so threads would share one core; processes do not. The pool
only starts when there is enough text to pay for it (a PR run reading ten blobs never
forks), and at most a few batches are in flight, so memory stays bounded however
large the repo. Results come back in the order blobs were read.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor

from anchorcheck.blobtext import decode_blob
from anchorcheck.cache import encode_value
from anchorcheck.extract import BlobIndex, ExtractOptions, extract

# (blob id, its bytes or None when git could not read it, the languages it is read as)
BlobJob = tuple[str, bytes | None, tuple[str, ...]]
# (blob id, bytes read, one result per language: its index, or why it is not read;
# and, when the results go to the cache, each one encoded for it)
BlobResult = tuple[str, int, tuple[BlobIndex | str, ...], tuple[str, ...] | None]

# Below this much text a pool costs more (fork, pickling) than it saves.
_MIN_PARALLEL_BYTES = 4_000_000
_BATCH_BYTES = 1_000_000
_BATCH_BLOBS = 256


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


def _extract_batch(batch: list[BlobJob], options: ExtractOptions, encode: bool) -> list[BlobResult]:
    return [_result(oid, data, langs, options, encode) for oid, data, langs in batch]


def _result(
    oid: str, data: bytes | None, langs: Sequence[str], options: ExtractOptions, encode: bool
) -> BlobResult:
    results = extract_one(data, langs, options)
    # Encoding for the cache is done where the scanning is: in the workers, in parallel.
    encoded = tuple(encode_value(r) for r in results) if encode and data is not None else None
    return oid, len(data or b""), results, encoded


def extract_blobs(
    jobs: Iterable[BlobJob], options: ExtractOptions, workers: int, total_bytes: int,
    encode: bool = False,
) -> Iterator[BlobResult]:
    """Each blob's results, in the order given. With one worker, or too little text
    to share out, everything runs here."""
    if workers <= 1 or total_bytes < _MIN_PARALLEL_BYTES:
        for oid, data, langs in jobs:
            yield _result(oid, data, langs, options, encode)
        return
    # fork: workers start in milliseconds with every pattern already compiled. A fork
    # pool starts all its workers on the first submit, made here before `jobs` is
    # iterated, so no thread (the git reader's feeder) exists when they are forked.
    # Elsewhere (macOS, Windows) fork is unsafe or absent: the platform's default.
    context = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else None)
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        pool.submit(int).result()
        in_flight: deque[Future[list[BlobResult]]] = deque()
        batch: list[BlobJob] = []
        size = 0
        for job in jobs:
            batch.append(job)
            size += len(job[1] or b"")
            if size >= _BATCH_BYTES or len(batch) >= _BATCH_BLOBS:
                in_flight.append(pool.submit(_extract_batch, batch, options, encode))
                batch, size = [], 0
                # Bounded: reading waits for scanning, so memory does not grow with the repo.
                while len(in_flight) > 2 * workers:
                    yield from in_flight.popleft().result()
        if batch:
            in_flight.append(pool.submit(_extract_batch, batch, options, encode))
        while in_flight:
            yield from in_flight.popleft().result()
