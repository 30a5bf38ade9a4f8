"""Benchmark anchorcheck against git itself, on a workspace of real trees.

    python benchmarks/bench.py --package networkx --package pygments \
        --snapshot /path/to/ghc.git@cc5805521a46160cc979b7e94798899aec089ba5

    python benchmarks/bench.py --corpus packages --package networkx --package pygments \
        --corpus history --snapshot /work/.mirror/git+git/repo@HEAD \
        --snapshot /work/.mirror/helm+helm/repo@HEAD

--package NAME   the installed sources of a package, committed into a temp repo
--tree DIR       any directory, committed into a temp repo
--snapshot [NAME=]G@REF  an existing git dir (work tree or bare) at REF, used as is;
                 named NAME, else after G (`owner+name/repo` after owner-name)
--corpus NAME    the repos after it form a workspace of their own, NAME: each repeat
                 runs every step on each workspace in turn, and each gets its own
                 table (without it, one workspace of every repo given)

It times, in one run: `git cat-file --batch` reading every blob of every repo, `git
grep -c` of the anchor and reference triggers, anchorcheck cold (empty cache), warm
(same cache, nothing changed), `merge-order` for a PR touching 10 files of the first
repo (the base cached, the PR head new), `check` after that repo moved to the PR's
commit, everything else cached (a nightly run's case: "moved"), and `check --index`
over per-repo index files
(built by one `anchorcheck index` per repo, not timed); it prints each time, its ratio
to cat-file and to cold, the same ratios taken within each repeat (their median: the
figure drift moves least), and peak memory. Machines are noisy: compare ratios, not
seconds, and repeat (--repeat).

On a shared virtual machine the speed drifts within seconds. Where /proc/stat tells
it (Linux), the share of CPU time stolen by other guests while each step ran is
reported, and the cold ratio is given again over the "quiet" repeats (under 1% stolen
during both cat-file and the cold run). cat-file is also timed again right after the
cold run ("cat-file again", not used in any ratio): on the machine this was written
on, a step right after a run that kept both cores busy had CPU stolen far more often,
which would flatter a ratio against it.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from anchorcheck.git.repobuilder import git

_GREP = r"Note \[|[Ss]ee |[A-Z]{3,}[ A-Z]{6,}|restates|\]\(|:[0-9]"


def package_dir(name: str) -> Path:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(f"bench: no installed package {name!r}")
    return Path(next(iter(spec.submodule_search_locations)))


def commit_tree(src: Path, dest: Path) -> Path:
    shutil.copytree(src, dest / src.name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    git(dest, "init", "-q", "-b", "main")
    git(dest, "add", "-A")
    git(dest, "commit", "-q", "-m", f"snapshot of {src.name}")
    return dest


class Stolen:
    """The share of all CPUs' time stolen by the hypervisor (other guests) while a
    step ran, from /proc/stat's `steal` column; None where there is no such file."""

    def __init__(self) -> None:
        self._start = self._ticks()

    @staticmethod
    def _ticks() -> tuple[int, int] | None:
        try:
            with open("/proc/stat", encoding="ascii") as f:
                fields = [int(x) for x in f.readline().split()[1:]]
        except (OSError, ValueError):
            return None
        return (fields[7], sum(fields)) if len(fields) > 7 else None

    def share(self) -> float | None:
        end = self._ticks()
        if self._start is None or end is None or end[1] <= self._start[1]:
            return None
        return (end[0] - self._start[0]) / (end[1] - self._start[1])


def peak_mb(cmd: list[str], cwd: Path, env: dict[str, str]) -> float:
    """Run `cmd`; its peak resident memory in MB."""
    with tempfile.TemporaryFile() as err:  # not a pipe: a full pipe would block the run
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode not in (0, 1):
            err.seek(0)
            raise SystemExit(f"bench: {' '.join(cmd)} failed: {err.read().decode()[-500:]}")
    return usage.ru_maxrss / 1024


def _gitdir(path: str) -> str:
    out = subprocess.run(["git", "-C", path, "rev-parse", "--absolute-git-dir"],
                         capture_output=True, text=True, check=False).stdout.strip()
    return out or path  # a bare mirror without a config file: the path is the git dir


def _children_cpu() -> float:
    """User and system seconds of this process's finished children, and theirs."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def cat_file_all(gitdir: str, ref: str) -> tuple[int, int]:
    tree = subprocess.run(["git", f"--git-dir={gitdir}", "ls-tree", "-r", "-l", ref],
                          capture_output=True, text=True, check=True).stdout
    # A snapshot may lack its largest blobs (ls-tree then shows no size): skip them.
    rows = [line.split() for line in tree.splitlines()]
    present = [r for r in rows if r[1] == "blob" and r[3].isdigit()]
    blobs = [r[2] for r in present]
    sizes = [int(r[3]) for r in present]
    subprocess.run(["git", f"--git-dir={gitdir}", "cat-file", "--batch"],
                   input="\n".join(blobs).encode() + b"\n", capture_output=True, check=False)
    return len(blobs), sum(sizes)


class _InOrder(argparse.Action):
    """Keeps every repo option and `--corpus` in the order given."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        namespace.items = [*getattr(namespace, "items", []), (self.dest, values)]


def _snapshot_dir(path: str) -> str:
    """The folder a fetch snapshot is named by: `owner+name` of `owner+name/repo` (or
    `.../repo/.git`), else the repository's own folder."""
    p = Path(path)
    while p.name in ("repo", ".git") and p.parent != p:
        p = p.parent
    return p.name.removesuffix(".git")


def snapshot_name(item: str) -> tuple[str, str, str]:
    """(name, path, ref) of a `--snapshot [NAME=]GITDIR[@REF]`."""
    name, eq, rest = item.partition("=")
    if not eq:
        name, rest = "", item
    path, _, ref = rest.partition("@")
    if not name:
        name = _snapshot_dir(path).replace("+", "-") or "snap"
    return name, path, ref or "HEAD"


def _url_line(path: str) -> str:
    """`url = ...` for a `fetch` snapshot (`owner+name/repo`), as a clone's origin would
    say where it lives: without it, a blob URL into another owner's repo of the same
    name (kiwigrid/helm-charts from helm/charts, checked as `helm-charts`) is matched to
    the snapshot by name, and its paths reported missing."""
    owner, plus, name = _snapshot_dir(path).partition("+")
    return f'url = "https://github.com/{owner}/{name}"\n' if plus and owner and name else ""


@dataclass
class Corpus:
    """One workspace of the bench, its configs, and what each step measured on it."""

    name: str
    root: Path
    repos: list[tuple[str, str, str]]  # (name, path, ref)
    config: Path = Path()
    pr_config: Path = Path()
    moved_config: Path = Path()
    work: Path = Path()
    blobs: int = 0
    size: int = 0
    rows: dict[str, list[float]] = field(default_factory=dict)
    stolen: dict[str, list[float | None]] = field(default_factory=dict)
    cpu: dict[str, list[float]] = field(default_factory=dict)  # the step's processes' CPU seconds
    peaks: list[float] = field(default_factory=list)


def build(corpus: Corpus) -> None:
    """Write the corpus's configs, and a PR touching 10 files of its first repo."""
    corpus.root.mkdir(parents=True, exist_ok=True)
    names = [n for n, _, _ in corpus.repos]
    if len(set(names)) != len(names):
        raise SystemExit(f"bench: two repos of {corpus.name!r} have one name: {names} "
                         "(name them NAME=GITDIR)")
    config = corpus.config = corpus.root / "anchorcheck.toml"
    config.write_text("".join(f'[[repo]]\nname = "{n}"\npath = "{p}"\nref = "{r}"\n{_url_line(p)}\n'
                              for n, p, r in corpus.repos))
    # A PR touching 10 files of the first repo, on a branch of a clone we may write to.
    first_name, first_path, first_ref = corpus.repos[0]
    pr_repo = corpus.root / f"{first_name}-pr"
    if not pr_repo.exists():
        subprocess.run(["git", "clone", "-q", "--bare", first_path, str(pr_repo)], check=True)
    files = subprocess.run(["git", f"--git-dir={pr_repo}", "ls-tree", "-r", "--name-only", first_ref],
                           capture_output=True, text=True, check=True).stdout.split()
    touched = [f for f in files if f.endswith((".py", ".hs", ".md", ".yaml"))][:10]
    work = corpus.work = Path(tempfile.mkdtemp(prefix="bench-pr-"))
    subprocess.run(["git", "clone", "-q", str(pr_repo), str(work / "w")], check=True)
    start_point = f"origin/{first_ref}" if first_ref != "HEAD" else "HEAD"
    git(work / "w", "checkout", "-q", "-B", "bench-pr", start_point)
    for f in touched:
        with open(work / "w" / f, "a", encoding="utf-8") as fh:
            fh.write("\n# see BENCH HEADING NUMBER ONE in nowhere.py\n")
    git(work / "w", "commit", "-q", "-am", "bench: touch 10 files")
    git(work / "w", "push", "-q", "-f", "origin", "bench-pr")
    corpus.pr_config = corpus.root / "anchorcheck-pr.toml"
    corpus.pr_config.write_text(
        config.read_text().replace(f'path = "{first_path}"', f'path = "{pr_repo}"', 1))
    # The nightly case: the first repo moved to the PR's commit, the rest unchanged.
    corpus.moved_config = corpus.root / "anchorcheck-moved.toml"
    moved_text = corpus.pr_config.read_text().replace(
        f'path = "{pr_repo}"\nref = "{first_ref}"', f'path = "{pr_repo}"\nref = "bench-pr"', 1)
    if moved_text == corpus.pr_config.read_text():
        raise SystemExit("bench: could not point the first repo at the PR's commit")
    corpus.moved_config.write_text(moved_text)


_STEPS = ("cat-file", "git grep", "cold", "cat-file again", "warm", "pr", "moved", "from indexes", "python")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    for option in ("--corpus", "--package", "--tree", "--snapshot"):
        ap.add_argument(option, action=_InOrder)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--keep", type=Path, help="build the workspaces here and keep them")
    args = ap.parse_args()
    root = args.keep or Path(tempfile.mkdtemp(prefix="anchorcheck-bench-"))
    root.mkdir(parents=True, exist_ok=True)
    corpora: list[Corpus] = []
    for kind, value in getattr(args, "items", []):
        if kind == "corpus" or not corpora:
            name = value if kind == "corpus" else "workspace"
            if any(c.name == name for c in corpora):
                raise SystemExit(f"bench: two corpora named {name!r}")
            corpora.append(Corpus(name, root / name if kind == "corpus" else root, []))
            if kind == "corpus":
                continue
        corpus = corpora[-1]
        if kind == "package":
            dest = corpus.root / value
            if not dest.exists():
                commit_tree(package_dir(value), dest)
            corpus.repos.append((value, str(dest), "main"))
        elif kind == "tree":
            tree = Path(value)
            dest = corpus.root / tree.name
            if not dest.exists():
                commit_tree(tree, dest)
            corpus.repos.append((tree.name, str(dest), "main"))
        else:
            corpus.repos.append(snapshot_name(value))
    if not corpora or any(not c.repos for c in corpora):
        raise SystemExit("bench: give at least one --package, --tree or --snapshot (in each --corpus)")
    for corpus in corpora:
        build(corpus)
        corpus.rows = {k: [] for k in _STEPS}
        corpus.stolen = {k: [] for k in _STEPS}
        corpus.cpu = {k: [] for k in _STEPS}
    exe = [sys.executable, "-m", "anchorcheck"]

    # Bytecode caching on, as an installed Python has it: with it off (some CI images set
    # PYTHONDONTWRITEBYTECODE) every run compiles the package again.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"} | {"CI": "1"}

    def step(corpus: Corpus, row: str, work: Callable[[], object]) -> None:
        """Time `work` as one repeat of `row`, with the CPU time stolen meanwhile and the
        CPU time of the processes it ran (git's, anchorcheck's and its workers' and
        gits: every descendant waited for)."""
        steal = Stolen()
        used = _children_cpu()
        start = time.perf_counter()
        work()
        corpus.rows[row].append(time.perf_counter() - start)
        corpus.cpu[row].append(_children_cpu() - used)
        corpus.stolen[row].append(steal.share())

    def read_all(corpus: Corpus) -> list[tuple[int, int]]:
        return [cat_file_all(_gitdir(path), ref) for _, path, ref in corpus.repos]

    def grep_all(corpus: Corpus) -> None:
        for _, path, ref in corpus.repos:
            subprocess.run(["git", "-C", path, "grep", "-c", "-E", _GREP, ref],
                           capture_output=True, check=False)

    def run_step(corpus: Corpus, row: str, cmd: list[str]) -> None:
        step(corpus, row, lambda: corpus.peaks.append(peak_mb(cmd, corpus.root, env)))

    # Every blob read once, untimed (and counted): otherwise the first repeat's
    # cat-file may read a snapshot's pack from disk, and the cold run after it from
    # memory (the page cache of the machine this was written on drains when idle: `cat`
    # of GHC's 190 MB pack took 0.48 s, then 0.02 s; one first repeat's cat-file took
    # 2.96 s with 0.3% of CPU stolen, the other four 1.98-2.79 s).
    for corpus in corpora:
        counted = read_all(corpus)
        corpus.blobs = sum(n for n, _ in counted)
        corpus.size = sum(b for _, b in counted)
    for _ in range(args.repeat):
        for corpus in corpora:
            run_repeat(corpus, exe, env, step, read_all, grep_all, run_step)
        # The interpreter alone, starting with the same site-packages (and whatever
        # their .pth files run): the part of every run that is not anchorcheck's.
        for corpus in corpora:
            step(corpus, "python",
                 lambda: subprocess.run([sys.executable, "-c", "pass"], env=env, check=True))
    for corpus in corpora:
        report(corpus, args.repeat, several=len(corpora) > 1)
    if not args.keep:
        shutil.rmtree(root, ignore_errors=True)
    for corpus in corpora:
        shutil.rmtree(corpus.work, ignore_errors=True)


def run_repeat(
    corpus: Corpus, exe: list[str], env: dict[str, str],
    step: Callable[[Corpus, str, Callable[[], object]], None],
    read_all: Callable[[Corpus], object], grep_all: Callable[[Corpus], None],
    run_step: Callable[[Corpus, str, list[str]], None],
) -> None:
    """One repeat of every step on one corpus."""
    first_name = corpus.repos[0][0]
    step(corpus, "cat-file", lambda: read_all(corpus))
    step(corpus, "git grep", lambda: grep_all(corpus))
    cache = Path(tempfile.mkdtemp(prefix="bench-cache-"))
    check = [*exe, "check", "--config", str(corpus.config), "--cache-dir", str(cache), "--format", "json"]
    run_step(corpus, "cold", check)
    step(corpus, "cat-file again", lambda: read_all(corpus))  # for information only (see the module's doc)
    run_step(corpus, "warm", check)
    pr = [*exe, "merge-order", "--config", str(corpus.pr_config), "--cache-dir", str(cache),
          "--pr", f"{first_name}#1=bench-pr", "--format", "json", "--fail-on", "never"]
    # The PR head is new to the cache (its 10 changed blobs are scanned), the base
    # is not: the case of CI on a new push.
    before_pr = Path(tempfile.mkdtemp(prefix="bench-cache-"))
    shutil.copytree(cache, before_pr, dirs_exist_ok=True)
    run_step(corpus, "pr", pr)
    # A nightly check after the first repo moved by that commit (its 10 blobs new to
    # the cache, as they were before the PR run), everything else cached.
    moved = [*exe, "check", "--config", str(corpus.moved_config), "--cache-dir", str(before_pr),
             "--format", "json"]
    run_step(corpus, "moved", moved)
    shutil.rmtree(before_pr, ignore_errors=True)
    # Per-repo index files (one `anchorcheck index` per repo, as a CI matrix would
    # run them, not timed here), then the check that combines them.
    index_args: list[str] = []
    for name, _, _ in corpus.repos:
        out = cache / f"{name}.acidx"
        subprocess.run([*exe, "index", name, "--config", str(corpus.config), "--cache-dir", str(cache),
                        "--out", str(out), "-q"], cwd=corpus.root, env=env, check=True, capture_output=True)
        index_args += ["--index", str(out)]
    combined = [*exe, "check", "--config", str(corpus.config), "--no-cache", "--format", "json", *index_args]
    run_step(corpus, "from indexes", combined)
    shutil.rmtree(cache, ignore_errors=True)


def report(corpus: Corpus, repeat: int, *, several: bool) -> None:
    """The corpus's table: medians, ratios to cat-file and to cold, per-run ratios."""
    rows, stolen = corpus.rows, corpus.stolen
    med = {k: statistics.median(v) for k, v in rows.items()}
    if several:
        print(f"\n== corpus {corpus.name}: {', '.join(n for n, _, _ in corpus.repos)}")
    print(f"workspace: {len(corpus.repos)} repos, {corpus.blobs} blobs, {corpus.size / 1e6:.1f} MB "
          f"({corpus.root})")
    print(f"{'step':<15} {'median s':>9} {'x cat-file':>11} {'x cold':>8} {'stolen':>7}")
    for k, v in med.items():
        shares = [x for x in stolen[k] if x is not None]
        steal_text = f"{statistics.median(shares):.1%}" if shares else "-"
        print(f"{k:<15} {v:>9.2f} {v / med['cat-file']:>11.2f} {v / med['cold']:>8.2%} {steal_text:>7}")
    # The same ratios taken within each repeat (its own cat-file, cold, warm and PR run
    # a few seconds apart), then their median: the machine's speed drifts by a quarter
    # within minutes, and a ratio of medians can pair a fast cat-file with a slow cold.
    cold_ratios = [c / f for c, f in zip(rows["cold"], rows["cat-file"], strict=True)]
    per_run = {
        "cold / cat-file": cold_ratios,
        "warm / cold": [w / c for w, c in zip(rows["warm"], rows["cold"], strict=True)],
        "pr / cold": [p / c for p, c in zip(rows["pr"], rows["cold"], strict=True)],
        "moved / cold": [m / c for m, c in zip(rows["moved"], rows["cold"], strict=True)],
    }
    for k, ratios in per_run.items():
        shown = ", ".join(f"{r:.2f}" if k.startswith("cold") else f"{r:.1%}" for r in ratios)
        mid = statistics.median(ratios)
        print(f"per-run {k}: median {mid:.2f}" if k.startswith("cold") else f"per-run {k}: median {mid:.1%}",
              f"({shown})")
    # The repeats no other guest disturbed (under 1% of CPU time stolen while either
    # cat-file or the cold run ran), where the machine says.
    quiet = [r for i, r in enumerate(cold_ratios)
             if all((x := stolen[k][i]) is not None and x < 0.01 for k in ("cat-file", "cold"))]
    if quiet:
        print(f"quiet repeats: {len(quiet)} of {len(cold_ratios)}, cold / cat-file median "
              f"{statistics.median(quiet):.2f} ({', '.join(f'{r:.2f}' for r in quiet)})")
    elif any(x is not None for x in stolen["cold"]):
        print(f"quiet repeats: none of {len(cold_ratios)} (each had >= 1% stolen in cat-file or cold)")
    # And the fastest of each: another tenant of a shared machine only ever adds time,
    # so each step's minimum is the nearest to what it costs undisturbed.
    low = {k: min(v) for k, v in rows.items()}
    print(f"fastest: cold / cat-file {low['cold'] / low['cat-file']:.2f}, warm / cold "
          f"{low['warm'] / low['cold']:.1%}, pr / cold {low['pr'] / low['cold']:.1%}, "
          f"moved / cold {low['moved'] / low['cold']:.1%}")
    # CPU seconds, which time stolen by other guests does not inflate as it does wall
    # time: the cold run's against git's own for cat-file (its Python reader not counted),
    # each repeat's. On 2 cores a cold run of N times cat-file's CPU takes at least N/2
    # times its wall time.
    cpu = corpus.cpu
    cold_cpu = [c / f for c, f in zip(cpu["cold"], cpu["cat-file"], strict=True)]
    print("cpu s (median): " + ", ".join(f"{k}={statistics.median(v):.2f}" for k, v in cpu.items()))
    print(f"per-run cold CPU / cat-file CPU: median {statistics.median(cold_cpu):.2f} "
          f"({', '.join(f'{r:.2f}' for r in cold_cpu)}); warm CPU / cold CPU: median "
          f"{statistics.median([w / c for w, c in zip(cpu['warm'], cpu['cold'], strict=True)]):.1%}")
    print(f"peak memory (largest anchorcheck run): {max(corpus.peaks):.0f} MB")
    times = "; ".join(f"{k}={[round(x, 2) for x in v]}" for k, v in rows.items())
    print(f"runs: {repeat}; all times: {times}")
    shares_text = "; ".join(f"{k}={[None if x is None else round(100 * x, 1) for x in v]}"
                            for k, v in stolen.items())
    print(f"stolen, % of CPU time: {shares_text}")


if __name__ == "__main__":
    main()
