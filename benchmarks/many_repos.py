"""Many tiny repos in one workspace, cold and warm, under a file-descriptor limit.

    python benchmarks/many_repos.py [--repos 1000] [--nofile 256] [--ref main] [--dir /tmp/many-repos]

Builds COUNT one-commit repos (one is made with git, the rest are copies of it, each a
real repository with its own objects), writes anchorcheck.toml naming them all, and
runs `anchorcheck check` under `ulimit -n NOFILE` (resource.RLIMIT_NOFILE), first with
an empty cache (cold), then again (warm, every snapshot cached). Prints the exit code,
wall time and the peak number of git processes seen (sampled from /proc every 20 ms).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path


def build(root: Path, count: int, ref: str | None) -> None:
    seed = root / "r0"
    if not seed.exists():
        seed.mkdir(parents=True)
        env = {**os.environ, "GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@example.org",
               "GIT_COMMITTER_NAME": "a", "GIT_COMMITTER_EMAIL": "a@example.org"}
        (seed / "a.py").write_text("# ROLLBACK PLAN HERE\n# Roll back by hand.\nx = 1\n")
        (seed / "b.py").write_text("# see ROLLBACK PLAN HERE in a.py\n# see NO SUCH PLAN HERE in a.py\n")
        for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-qm", "seed"]):
            subprocess.run(["git", *args], cwd=seed, env=env, check=True)
    for i in range(1, count):
        if not (root / f"r{i}").exists():
            shutil.copytree(seed, root / f"r{i}", symlinks=True)
    at = f'ref = "{ref}"\n' if ref else ""  # no ref: each repo's work tree is checked
    (root / "anchorcheck.toml").write_text(
        "".join(f'[[repo]]\nname = "r{i}"\npath = "r{i}"\n{at}\n' for i in range(count)))


def gits() -> int:
    n = 0
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                with open(f"/proc/{pid}/comm") as fh:
                    n += fh.read().strip() == "git"
            except OSError:
                continue
    return n


def run(root: Path, nofile: int, cache: Path) -> tuple[int, float, int, str]:
    peak = [0]
    stop = threading.Event()

    def sample() -> None:
        while not stop.is_set():
            peak[0] = max(peak[0], gits())
            time.sleep(0.02)

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))

    watcher = threading.Thread(target=sample, daemon=True)
    watcher.start()
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "anchorcheck", "check", "-q", "--cache-dir", str(cache),
                           "--statistics", "--fail-on", "never"], cwd=root, preexec_fn=limit,
                          capture_output=True, text=True, check=False)
    took = time.perf_counter() - start
    stop.set()
    watcher.join()
    return done.returncode, took, peak[0], (done.stdout + done.stderr).strip().splitlines()[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repos", type=int, default=1000)
    parser.add_argument("--nofile", type=int, default=256)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/many-repos"))
    parser.add_argument("--ref", default="main", help="the ref checked; '' for each work tree")
    args = parser.parse_args()
    root = args.dir / str(args.repos)
    build(root, args.repos, args.ref or None)
    cache = root / ".cache"
    shutil.rmtree(cache, ignore_errors=True)
    for label in ("cold", "warm"):
        code, took, peak, last = run(root, args.nofile, cache)
        where = args.ref or "their work trees"
        print(f"{args.repos} repos at {where}, ulimit -n {args.nofile}, {label}: exit {code}, {took:.1f} s, "
              f"peak {peak} git processes; {last}", flush=True)


if __name__ == "__main__":
    main()
