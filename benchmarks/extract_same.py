"""Whether two checkouts of anchorcheck extract the same from every file of real trees.

    python benchmarks/extract_same.py OLD_TREE NEW_TREE LANGUAGE GITDIR... [--show N]

Each tree's code (its folder put first on PYTHONPATH) extracts every file of LANGUAGE at
HEAD of each GITDIR, as benchmarks/extract_rate.py reads them, and prints one line per
file: its blob id and a digest of everything extraction found (anchors, references,
mentions, suppressions, counts). The two lists are compared and the files that differ
are counted and named, the first N of them with the two results side by side. Findings
are made from these results alone, so the same results on a corpus mean the same
findings on it; a change to a parser or a trigger scan is checked on many more files
than any corpus's findings touch.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

_DUMP = r"""
import hashlib, json, sys
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from extract_rate import texts_with_ids
from anchorcheck.extract.blob import ExtractOptions, extract
options = ExtractOptions()
for gitdir in sys.argv[3:]:
    for oid, text in texts_with_ids(Path(gitdir), sys.argv[2]):
        index = extract(text, sys.argv[2], options)
        fields = {name: [repr(item) for item in getattr(index, name)]
                  for name in ("anchors", "references", "mentions", "suppressions")}
        fields["counts"] = [repr((index.comments, index.line_count))]
        print(oid, json.dumps(fields))
"""


def dump(tree: Path, language: str, gitdirs: list[str]) -> dict[str, dict[str, list[str]]]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    out = subprocess.run(
        [sys.executable, "-c", _DUMP, str(Path(__file__).parent), language, *gitdirs],
        env=env, capture_output=True, text=True, check=True, cwd="/",
    ).stdout
    found: dict[str, dict[str, list[str]]] = {}
    for line in out.splitlines():
        oid, _, result = line.partition(" ")
        found[oid] = json.loads(result)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument("language")
    parser.add_argument("gitdirs", nargs="+")
    parser.add_argument("--show", type=int, default=3)
    args = parser.parse_args()
    old, new = (dump(tree.resolve(), args.language, args.gitdirs) for tree in (args.old, args.new))
    differ = sorted(oid for oid in old.keys() | new.keys() if old.get(oid) != new.get(oid))
    digest = hashlib.sha256(json.dumps(sorted(new.items())).encode()).hexdigest()[:16]
    print(f"{args.language}: {len(new)} files, {len(differ)} differ (new results' digest {digest})")
    for oid in differ[:args.show]:
        print(f"  blob {oid}")
        was, now = old.get(oid, {}), new.get(oid, {})
        for name in sorted(was.keys() | now.keys()):
            before, after = was.get(name, []), now.get(name, [])
            for item in (x for x in before if x not in after):
                print(f"    - {name}: {item}")
            for item in (x for x in after if x not in before):
                print(f"    + {name}: {item}")
    raise SystemExit(1 if differ else 0)


if __name__ == "__main__":
    main()
