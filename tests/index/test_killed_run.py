"""A run killed with SIGKILL leaves no process behind (issue 43): its extraction
workers, forked with both ends of the pool's pipes, waited for work for good."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from anchorcheck.git.repobuilder import init_repo

# Markdown scans slowest: ~40 MB of it is a few seconds of work for the pool.
PAGE = "".join(f"## Section {i}\n\nSee [the guide](guide.md#section-{i}) and `code` here, *why* it is so.\n\n"
               for i in range(700))


def _children() -> dict[int, list[int]]:
    """Every live process's children, from /proc (zombies count as gone)."""
    tree: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if fields[0] != "Z":
            tree.setdefault(int(fields[1]), []).append(int(entry))
    return tree


def _descendants(pid: int) -> set[int]:
    tree, found, todo = _children(), set(), [pid]
    while todo:
        for child in tree.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def _cmdline(pid: int) -> bytes:
    """A process's command line; empty for one that ended meanwhile (a short git run
    of the check's)."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def _alive(pids: set[int]) -> set[int]:
    live = set()
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            live.add(pid)
    return live


def test_kill_9_of_a_check_leaves_no_worker(tmp_path: Path) -> None:
    if not Path("/proc/self/stat").exists():
        import pytest

        pytest.skip("needs /proc to see the processes")
    init_repo(tmp_path / "r", {f"doc{i}.md": f"# Page {i}\n\n{PAGE}" for i in range(600)})  # each its own blob
    run = subprocess.Popen([sys.executable, "-m", "anchorcheck", "check", "--no-cache", "--jobs", "2"],
                           cwd=tmp_path / "r", stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    workers: set[int] = set()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and run.poll() is None:
        workers = {p for p in _descendants(run.pid) if b"anchorcheck" in _cmdline(p) or b"python" in _cmdline(p)}
        if len(workers) >= 2:
            break
        time.sleep(0.02)
    assert run.poll() is None and len(workers) >= 2, "the pool never started"
    every = _descendants(run.pid)
    os.kill(run.pid, signal.SIGKILL)
    run.wait()
    end = time.monotonic() + 10
    while _alive(every) and time.monotonic() < end:
        time.sleep(0.1)
    assert not _alive(every), f"left running: {sorted(_alive(every))}"
