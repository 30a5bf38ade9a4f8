"""Replay real commits as changes and collect AC206 (stale-comment) findings for judging.

    python benchmarks/stale_replay.py NAME=GITDIR ... [--commits 100] [--skip 0] [--out /tmp/stale-replay]

Each NAME=GITDIR is a bare repository (a `fetch` snapshot) or a work tree. The last
COMMITS commits of its HEAD's first-parent line (after the newest SKIP, already
replayed) are replayed, newest first: for each
commit C a one-repo workspace at ref C is checked with the command line a CI job runs
on a PR,

    anchorcheck check --changed-only C^1 --select AC206 --format json --fail-on never

so a merge commit is its PR's whole diff, as the PR showed it. Every finding is written
to OUT/findings.jsonl with what a judge needs: the commit, its subject, the hunk of the
replaced line (`git diff -U3`), and the comment's lines. OUT/summary.json counts commits,
commits with findings and findings per repo. Judging is by hand (benchmarks/README.md).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def git(gitdir: str, *args: str) -> str:
    return subprocess.run(["git", f"--git-dir={gitdir}", *args], capture_output=True, text=True,
                          errors="replace", check=True).stdout


def git_dir(path: str) -> str:
    p = Path(path)
    return str(p / ".git") if (p / ".git").exists() else str(p)


def context(gitdir: str, commit: str, path: str, line: int, around: int = 3) -> list[str]:
    text = git(gitdir, "show", f"{commit}:{path}").split("\n")
    lo, hi = max(0, line - 1 - around), min(len(text), line + around)
    return [f"{n + 1:5}  {text[n]}" for n in range(lo, hi)]


def replay(name: str, gitdir: str, commits: int, out: Path, work: Path, skip: int = 0) -> dict[str, int]:
    shas = git(gitdir, "rev-list", "--first-parent", f"--skip={skip}", f"--max-count={commits + 1}",
               "HEAD").split()
    counts = {"commits": 0, "with_findings": 0, "findings": 0, "seconds": 0}
    started = time.perf_counter()
    with (out / "findings.jsonl").open("a", encoding="utf-8") as sink:
        for sha in shas[:commits]:
            parents = git(gitdir, "rev-list", "--parents", "-n1", sha).split()[1:]
            if not parents:
                continue
            counts["commits"] += 1
            (work / "anchorcheck.toml").write_text(
                f'[[repo]]\nname = "{name}"\npath = "{gitdir}"\nref = "{sha}"\n', encoding="utf-8")
            done = subprocess.run(
                [sys.executable, "-m", "anchorcheck", "check", "--changed-only", parents[0], "--select",
                 "AC206", "--format", "json", "--fail-on", "never", "-q"],
                cwd=work, capture_output=True, text=True, check=False)
            if done.returncode != 0:
                print(f"{name} {sha[:12]}: exit {done.returncode}: {done.stderr.strip()}", file=sys.stderr)
                continue
            findings = json.loads(done.stdout)["findings"]
            if findings:
                counts["with_findings"] += 1
            subject = git(gitdir, "log", "-1", "--format=%s", sha).strip()
            for f in findings:
                counts["findings"] += 1
                where = f["message"].rsplit(" at ", 1)[1].split(" (", 1)[0]
                changed_path, _, changed_line = where.rpartition(":")
                changed_path = changed_path.split(":", 1)[-1]
                hunk = git(gitdir, "diff", "-U3", "--no-color", parents[0], sha, "--", changed_path)
                sink.write(json.dumps({
                    "repo": name, "commit": sha, "subject": subject, "path": f["path"], "line": f["line"],
                    "message": f["message"], "old": f.get("subject"), "new": f.get("suggestion"),
                    "comment": context(gitdir, sha, f["path"], f["line"]),
                    "changed": f"{changed_path}:{changed_line}",
                    "diff": hunk[:6000],
                }) + "\n")
    counts["seconds"] = round(time.perf_counter() - started)
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("repos", nargs="+", metavar="NAME=GITDIR")
    parser.add_argument("--commits", type=int, default=100)
    parser.add_argument("--skip", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("/tmp/stale-replay"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "findings.jsonl").write_text("", encoding="utf-8")
    summary = {}
    with tempfile.TemporaryDirectory() as work:
        for item in args.repos:
            name, _, path = item.partition("=")
            summary[name] = replay(name, git_dir(path), args.commits, args.out, Path(work), args.skip)
            print(name, summary[name], flush=True)
    (args.out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
