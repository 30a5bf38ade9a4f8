"""AC306 (version-guard) on real PR history: each of the last COMMITS first-parent
commits of a chart repo, against its first parent, as `check --changed-only` asks it.

    python benchmarks/version_guard_replay.py GITDIR [--commits 300]

Prints how many commits touch a chart and how many leave a chart's version as it was,
with each flagged commit's subject, the version file and the first files it touched.
"""

from __future__ import annotations

import argparse
import subprocess
from pathlib import Path

from anchorcheck.git.repo import GitRepo
from anchorcheck.pr.versions import unbumped_packages


def git(gitdir: str, *args: str) -> str:
    return subprocess.run(["git", f"--git-dir={gitdir}", *args], capture_output=True, text=True,
                          check=True).stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("gitdir")
    parser.add_argument("--commits", type=int, default=300)
    args = parser.parse_args()
    repo = GitRepo(Path(args.gitdir))
    shas = git(args.gitdir, "rev-list", "--first-parent", f"--max-count={args.commits}", "HEAD").split()
    flagged, touching = [], 0
    for sha in shas:
        parents = git(args.gitdir, "rev-list", "--parents", "-n1", sha).split()[1:]
        if not parents:
            continue
        changed = repo.changed_paths(parents[0], sha)
        paths = [e.path for e in repo.list_tree(sha)]
        found = unbumped_packages(repo, paths, changed, parents[0], sha, ("Chart.yaml",))
        touching += any(p.startswith("charts/") or p.endswith("Chart.yaml") for p in changed)
        if found:
            subject = git(args.gitdir, "log", "-1", "--format=%s", sha).strip()
            touched = [t for u in found for t in u.touched][:3]
            flagged.append((sha[:10], subject[:90], [u.path for u in found], touched))
    print(f"{len(shas)} commits, {touching} touch a chart, {len(flagged)} flagged")
    for row in flagged:
        print(*row)


if __name__ == "__main__":
    main()
