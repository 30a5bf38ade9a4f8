"""A repo's stored name-search answers after it moved (AC202's and AC203's): the entry
of the commit it was last asked at, and the files changed since, which are all a
search at the new commit need read for the names that entry holds."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import TypeVar

from anchorcheck.extract.languages import READ_PATHSPECS
from anchorcheck.git.repo import GitRepo, NameSearch
from anchorcheck.index.cache import BlobCache

T = TypeVar("T")

# The files searched, in the keys of the entries: an entry chained from commit to commit
# would otherwise keep a search of the files an older version read (a name defined
# only in a kind read since would stay undefined).
SEARCHED = hashlib.sha256("\0".join(READ_PATHSPECS).encode()).hexdigest()[:12]

# Files changed since a repo's last entry past which it is searched whole: each is a
# pathspec of the search of the changed files.
CHANGED_LIMIT = 500


def last_entry(
    cache: BlobCache | None, last_key: str, read: Callable[[str], T | None], git: GitRepo, commit: str,
) -> tuple[T, list[str]] | None:
    """The entry (`read` of the commit stored under `last_key`, the one the repo was
    last asked at) and the files git reads that changed between that commit and
    `commit`, as git grep names them; None when there is no such entry (or it is
    `commit`'s), or git cannot tell what changed."""
    if cache is None:
        return None
    last = cache.get_result(last_key)
    before = read(last) if isinstance(last, str) and last != commit else None
    if before is None:
        return None
    changed = git.changed_between(last, commit, READ_PATHSPECS, CHANGED_LIMIT)
    return None if changed is None else (before, changed)


def search_changed(repo: str, git: GitRepo, commit: str, names: list[str], changed: list[str]) -> NameSearch:
    """A search of only the `changed` files of `repo` at `commit` for `names`, started."""
    search = NameSearch(tuple(f":(literal){path}" for path in changed))
    search.want(repo, git, commit, names)
    search.start()
    return search
