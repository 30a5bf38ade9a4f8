"""Findings that two versions of anchorcheck disagree on, on real repositories.

    python benchmarks/findings_diff.py --old TREE --new TREE [--select CODES] \\
        NAME=GITDIR[@REF][#OWNER/REPO] ...

TREE is a checkout of anchorcheck (run with PYTHONPATH=TREE). The repositories are
checked as one workspace, no cache, by each version; a finding is matched by its code,
repo, path, line and column. Prints the findings only the old version reports (to be
judged: a true one lost is a regression) and those only the new one reports. How the
twenty-first session used it on the earlier sets: benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from findings import workspace_config  # (benchmarks/ is on the path when run as a script)


def findings(tree: str, root: str, select: str | None) -> list[dict[str, Any]]:
    args = [sys.executable, "-m", "anchorcheck", "check", "--no-cache", "--format", "json",
            "--fail-on", "never"]
    if select:
        args += ["--select", select]
    env = {**os.environ, "PYTHONPATH": str(Path(tree).resolve())}
    run = subprocess.run(args, cwd=root, capture_output=True, text=True, check=False, env=env)
    if run.returncode != 0:
        raise SystemExit(f"findings_diff: anchorcheck ({tree}) failed: {run.stderr.strip()[-500:]}")
    found: list[dict[str, Any]] = json.loads(run.stdout)["findings"]
    return found


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--old", required=True)
    ap.add_argument("--new", required=True)
    ap.add_argument("--select")
    ap.add_argument("repos", nargs="+", metavar="NAME=GITDIR[@REF][#OWNER/REPO]")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as root:
        (Path(root) / "anchorcheck.toml").write_text(workspace_config(args.repos), encoding="utf-8")
        old, new = findings(args.old, root, args.select), findings(args.new, root, args.select)

    def key(f: dict[str, Any]) -> tuple[str, str, str, int, int]:
        return (f["code"], f["repo"], f["path"], f["line"], f["column"])

    old_keys, new_keys = {key(f) for f in old}, {key(f) for f in new}
    print(f"{len(old)} findings before, {len(new)} after")
    for label, mine, theirs in (("only before", old, new_keys), ("only after", new, old_keys)):
        only = [f for f in mine if key(f) not in theirs]
        print(f"{label}: {len(only)}")
        for f in only:
            print(f"  {f['code']} {f['repo']}:{f['path']}:{f['line']}:{f['column']}: {f['message']}")


if __name__ == "__main__":
    main()
