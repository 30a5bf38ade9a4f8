"""Extraction speed of one file kind, per core, on real trees.

    python benchmarks/extract_rate.py LANGUAGE GITDIR... [--repeat N] [--profile]
    python benchmarks/extract_rate.py GITDIR LANGUAGE [--profile]      # (one tree)

Reads every file of LANGUAGE (anchorcheck's family name: markdown, yaml, python...) at
HEAD of each GITDIR (under 2 MB each, not excluded by the default excludes), decodes
them as a crawl does, then times extract() over all of them in this process (CPU time;
one warm-up file first) and prints MB/s: the fastest of --repeat passes (other guests
of a shared machine only ever add time) and the median. With --profile, the 18
functions with the most time of their own (cProfile).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import time
from pathlib import Path

from anchorcheck.config.excludes import DEFAULT_EXCLUDE, excluder
from anchorcheck.extract.blob import ExtractOptions, extract
from anchorcheck.extract.languages import language_of
from anchorcheck.git.blobtext import decode_blob
from anchorcheck.git.repo import GitRepo


def texts_of(gitdir: Path, language: str) -> list[str]:
    return [text for _, text in texts_with_ids(gitdir, language)]


def texts_with_ids(gitdir: Path, language: str) -> list[tuple[str, str]]:
    """(blob id, text) of every file of `language` at HEAD, as a crawl decodes them."""
    git = GitRepo(gitdir)
    excluded = excluder(DEFAULT_EXCLUDE)
    entries = [e for e in git.list_tree(git.resolve("HEAD"))
               if language_of(e.path) == language and 0 <= e.size < 2_000_000 and not e.is_symlink
               and not e.is_submodule and (excluded is None or not excluded.search(e.path))]
    return [(oid, t) for oid, data in git.read_blobs([e.oid for e in entries])
            for t in [decode_blob(data)[0]] if t]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("args", nargs="+", metavar="LANGUAGE GITDIR")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    words = list(args.args)
    if len(words) == 2 and Path(words[0]).exists():  # the one-tree form: GITDIR LANGUAGE
        words.reverse()
    language, gitdirs = words[0], [Path(w) for w in words[1:]]
    texts = [t for gitdir in gitdirs for t in texts_of(gitdir, language)]
    if not texts:
        raise SystemExit(f"extract_rate: no {language} files")
    size = sum(len(t.encode()) for t in texts)
    options = ExtractOptions()
    extract(texts[0], language, options)
    took = []
    for _ in range(args.repeat):
        start = time.process_time()
        for text in texts:
            extract(text, language, options)
        took.append(time.process_time() - start)
    best, mid = min(took), statistics.median(took)
    print(f"{language}: {len(texts)} files, {size / 1e6:.1f} MB, {best:.2f} s, {size / 1e6 / best:.1f} MB/s "
          f"(median of {len(took)}: {size / 1e6 / mid:.1f} MB/s)")
    if args.profile:
        profile = cProfile.Profile()
        profile.enable()
        for text in texts:
            extract(text, language, options)
        profile.disable()
        pstats.Stats(profile).sort_stats("tottime").print_stats(18)


if __name__ == "__main__":
    main()
