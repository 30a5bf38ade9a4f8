"""Extraction speed of one file kind, per core, on a real tree.

    python benchmarks/extract_rate.py GITDIR LANGUAGE [--profile]

Reads every file of LANGUAGE (anchorcheck's family name: markdown, yaml, python...) at
HEAD of GITDIR (under 2 MB each), decodes them as a crawl does, then times extract() over
all of them in this process (CPU time; one warm-up file first) and prints MB/s. With
--profile, the 18 functions with the most time of their own (cProfile).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time
from pathlib import Path

from anchorcheck.extract.blob import ExtractOptions, extract
from anchorcheck.extract.languages import language_of
from anchorcheck.git.blobtext import decode_blob
from anchorcheck.git.repo import GitRepo


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("gitdir", type=Path)
    parser.add_argument("language")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    git = GitRepo(args.gitdir)
    entries = [e for e in git.list_tree(git.resolve("HEAD"))
               if language_of(e.path) == args.language and e.size < 2_000_000]
    texts = [t for _, data in git.read_blobs([e.oid for e in entries]) for t in [decode_blob(data)[0]] if t]
    size = sum(len(t.encode()) for t in texts)
    options = ExtractOptions()
    extract(texts[0], args.language, options)
    start = time.process_time()
    for text in texts:
        extract(text, args.language, options)
    took = time.process_time() - start
    rate = size / 1e6 / took
    print(f"{args.language}: {len(texts)} files, {size / 1e6:.1f} MB, {took:.2f} s, {rate:.1f} MB/s")
    if args.profile:
        profile = cProfile.Profile()
        profile.enable()
        for text in texts:
            extract(text, args.language, options)
        profile.disable()
        pstats.Stats(profile).sort_stats("tottime").print_stats(18)


if __name__ == "__main__":
    main()
