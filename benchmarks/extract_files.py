"""Extract every STEP-th file of one language from a git tree, in one process: the
harness for measuring extraction by instruction count, which, unlike time, does not
drift with the machine.

    python benchmarks/extract_files.py GITDIR REF LANGUAGE STEP [--load-only]

Run it twice under `valgrind --tool=cachegrind --cache-sim=no` (with the real
interpreter, not a shim script), with and without `--load-only`; the difference of the
two `I refs` totals is the extraction's. Files are taken in tree order, decoded as
a crawl decodes them.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from anchorcheck.extract.blob import ExtractOptions, extract
from anchorcheck.extract.languages import language_of
from anchorcheck.git.blobtext import decode_blob
from anchorcheck.git.repo import GitRepo


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("gitdir", type=Path)
    ap.add_argument("ref")
    ap.add_argument("language")
    ap.add_argument("step", type=int)
    ap.add_argument("--load-only", action="store_true", help="read the files, extract nothing")
    args = ap.parse_args()
    git = GitRepo(args.gitdir)
    entries = [e for e in git.list_tree(git.resolve(args.ref))
               if not e.is_submodule and not e.is_symlink and language_of(e.path) == args.language]
    texts = []
    for _, data in git.read_blobs(e.oid for e in entries[::args.step]):
        text, _ = decode_blob(data)
        if text is not None:
            texts.append(text)
    options = ExtractOptions()
    if not args.load_only:
        for text in texts:
            extract(text, args.language, options)
    print(f"{len(texts)} files, {sum(map(len, texts)) / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
