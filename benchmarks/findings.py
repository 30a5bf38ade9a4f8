"""Findings on real repositories, by repo and rule: the harness for measuring precision.

    python benchmarks/findings.py NAME=GITDIR[@REF][#OWNER/REPO] ... [--show CODE]

Each repository (a work tree or a bare snapshot) is checked as one workspace with no
cache, and the findings are counted per repo and rule; `--show CODE` prints that rule's
findings too, to be read one by one. `#OWNER/REPO` is the repo's GitHub name, for a
snapshot without a remote (blob URLs into it are then matched by it). It is not part
of the test suite: which findings are true is judged by reading them.
"""

from __future__ import annotations

import argparse
import collections
import json
import subprocess
import sys
import tempfile
from pathlib import Path


def workspace_config(repos: list[str]) -> str:
    """An anchorcheck.toml naming each NAME=GITDIR[@REF][#OWNER/REPO] as a repo."""
    config = ""
    for item in repos:
        name, sep, rest = item.partition("=")
        if not sep or not name:
            raise SystemExit(f"findings: {item!r} is not NAME=GITDIR[@REF][#OWNER/REPO]")
        rest, _, slug = rest.partition("#")
        path, _, ref = rest.partition("@")
        config += f'[[repo]]\nname = "{name}"\npath = "{Path(path).resolve()}"\nref = "{ref or "HEAD"}"\n'
        config += f'url = "https://github.com/{slug}"\n\n' if slug else "\n"
    return config


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("repos", nargs="+", metavar="NAME=GITDIR[@REF][#OWNER/REPO]")
    ap.add_argument("--show", action="append", default=[], metavar="CODE")
    args = ap.parse_args()
    config = workspace_config(args.repos)
    with tempfile.TemporaryDirectory() as root:
        (Path(root) / "anchorcheck.toml").write_text(config, encoding="utf-8")
        run = subprocess.run([sys.executable, "-m", "anchorcheck", "check", "--no-cache", "--format", "json",
                              "--fail-on", "never"], cwd=root, capture_output=True, text=True, check=False)
    if run.returncode != 0:
        raise SystemExit(f"findings: anchorcheck failed: {run.stderr.strip()[-500:]}")
    found = json.loads(run.stdout)["findings"]
    counts = collections.Counter((f["repo"], f["code"]) for f in found)
    print(f"{len(found)} findings")
    for (repo, code), n in sorted(counts.items()):
        print(f"  {repo:20} {code}  {n}")
    for f in found:
        if f["code"] in args.show:
            print(f"{f['code']} {f['repo']}:{f['path']}:{f['line']}: {f['message']}")


if __name__ == "__main__":
    main()
