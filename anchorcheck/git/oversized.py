"""Files over the size limit, which git is told to leave alone: the crawl notes them
(note_oversized) as its listing finds them, and every later search and history read
of that repo leaves them out. Its own room: the crawl writes it, and both the searches
(search.py) and the history's log (history.py) read it."""

from __future__ import annotations

from collections.abc import Iterable

# Files over the size limit, by (git directory, commit), as the crawl's listing saw
# them: every `git grep` at that commit leaves them out, since grep reads a blob whole
# whatever its size (a 2 GB blob cost 2 GB in each git process). And the limit itself,
# which `git log -p` is given as core.bigFileThreshold: a blob over it is diffed as
# binary, by its size alone, never read.
_OVERSIZED: dict[tuple[str, str], frozenset[str]] = {}
SIZE_LIMIT: list[int] = []


def note_oversized(git_dir: str, commit: str, paths: Iterable[str], limit: int) -> None:
    """Tell every search at `commit` in `git_dir` to leave these paths out, and every
    history read to diff nothing over `limit` bytes."""
    found = frozenset(paths)
    if found:
        _OVERSIZED[(git_dir, commit)] = _OVERSIZED.get((git_dir, commit), frozenset()) | found
    SIZE_LIMIT[:] = [limit]


def left_out(git_dir: str, commit: str) -> list[str]:
    return [f":(exclude,literal){p}" for p in sorted(_OVERSIZED.get((git_dir, commit), ()))]
