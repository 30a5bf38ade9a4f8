"""Did-you-mean: the real anchor names closest to a name that resolved to nothing.

Thousands of dangling references against thousands of names (GHC's notes) rule out
comparing every pair. Candidates come from a single-deletion index (SymSpell's idea):
two strings one substitution, insertion, deletion or transposition apart always
share a string one deletion away from each, so one dictionary look-up per deletion
of the query finds them; an edit distance then confirms.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence


def _fold(text: str) -> str:
    return "".join(text.split()).casefold()


def _deletions(word: str) -> set[str]:
    return {word} | {word[:i] + word[i + 1:] for i in range(len(word))}


class Suggester:
    def __init__(self, candidates: Iterable[str]) -> None:
        self._by_fold: dict[str, set[str]] = defaultdict(set)
        for cand in set(candidates):
            self._by_fold[_fold(cand)].add(cand)
        # The deletion index, built per folded length on first need: a query of length
        # n only meets names of length n-1, n or n+1 there, and most runs ask about
        # few lengths (building it whole for GHC's notes cost a warm run 0.1 s).
        self._by_length: dict[int, list[str]] = defaultdict(list)
        for key in self._by_fold:
            self._by_length[len(key)].append(key)
        self._indexed: set[int] = set()
        # deletion -> the folded name it comes from, or a list of them when several do:
        # most deletions come from one name, and a list for each (86k for GHC's notes)
        # cost twice the time of the rest of the index, more with a big heap for the
        # collector to walk.
        self._by_deletion: dict[str, str | list[str]] = {}
        self._memo: dict[tuple[str, int], list[str]] = {}

    def _index_length(self, n: int) -> None:
        if n in self._indexed:
            return
        self._indexed.add(n)
        index = self._by_deletion
        get = index.get
        for key in self._by_length.get(n, ()):
            for deletion in _deletions(key):
                found = get(deletion)
                if found is None:
                    index[deletion] = key
                elif isinstance(found, str):
                    index[deletion] = [found, key]
                else:
                    found.append(key)

    def suggest(self, name: str, n: int = 3) -> list[str]:
        """Same words in another case or spacing first, then one- or two-edit typos."""
        if (name, n) in self._memo:
            return self._memo[name, n]
        key = _fold(name)
        same = sorted(c for c in self._by_fold.get(key, ()) if c != name)
        if same:
            out = same[:n]
        else:
            for length in (len(key) - 1, len(key), len(key) + 1):
                self._index_length(length)
            by_fold = self._by_fold
            found = {c for d in _deletions(key) for k in _names(self._by_deletion.get(d)) for c in by_fold[k]}
            scored = sorted((edit_distance(key, _fold(c), 2), c) for c in found if c != name)
            out = [c for dist, c in scored if dist <= 2][:n]
        self._memo[name, n] = out
        return out


def _names(found: str | list[str] | None) -> Sequence[str]:
    return () if found is None else (found,) if isinstance(found, str) else found


def suggest(name: str, candidates: Iterable[str]) -> list[str]:
    return Suggester(candidates).suggest(name)


def edit_distance(a: str, b: str, limit: int) -> int:
    """Optimal-string-alignment distance, giving up (limit + 1) once past `limit`."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        if min(cur) > limit:
            return limit + 1
        prev2, prev = prev, cur
    return prev[-1]
