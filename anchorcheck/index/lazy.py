"""Parts of a stored snapshot that are decoded on first use.

A merge-order run loads every repo's stored snapshot (resolving a change's references
needs every repo's anchors and paths) but reads the references, blob ids and line
counts only of the repos its changes touch, and the paths of the others only by name:
decoding GHC's 10k references and 25k blob ids for a networkx PR was a fifth of the
run. These containers hold the encoded text and decode it when first asked; they
compare and hash as the plain values do.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import Any, TypeVar, overload

from anchorcheck.errors import CacheError
from anchorcheck.model.reference import Reference, RefKind

_K = TypeVar("_K")
_V = TypeVar("_V")


class LazyMapping(Mapping[_K, _V]):
    """A dict built by `build` when first read."""

    __slots__ = ("_build", "_made")

    def __init__(self, build: Callable[[], dict[_K, _V]]) -> None:
        self._build: Callable[[], dict[_K, _V]] | None = build
        self._made: dict[_K, _V] | None = None

    def _dict(self) -> dict[_K, _V]:
        if self._made is None:
            assert self._build is not None
            self._made, self._build = self._build(), None
        return self._made

    def __getitem__(self, key: _K) -> _V:
        return self._dict()[key]

    def __contains__(self, key: object) -> bool:
        return key in self._dict()

    def __iter__(self) -> Iterator[_K]:
        return iter(self._dict())

    def __len__(self) -> int:
        return len(self._dict())

    def __repr__(self) -> str:
        return f"LazyMapping({self._dict()!r})"


class _Built(Sequence[_V]):
    """The tuple `_all()` builds when first asked, as a sequence: it compares and hashes
    as that tuple, and adds to a tuple as one."""

    __slots__ = ()

    def _all(self) -> tuple[_V, ...]:
        raise NotImplementedError

    @overload
    def __getitem__(self, i: int) -> _V: ...

    @overload
    def __getitem__(self, i: slice) -> tuple[_V, ...]: ...

    def __getitem__(self, i: int | slice) -> _V | tuple[_V, ...]:
        return self._all()[i]

    def __len__(self) -> int:
        return len(self._all())

    def __iter__(self) -> Iterator[_V]:
        return iter(self._all())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, _Built):
            other = other._all()
        return isinstance(other, tuple) and self._all() == other

    def __hash__(self) -> int:
        return hash(self._all())

    def __add__(self, other: Sequence[_V]) -> tuple[_V, ...]:
        return self._all() + tuple(other)

    def __radd__(self, other: Sequence[_V]) -> tuple[_V, ...]:
        return tuple(other) + self._all()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._all()!r})"


class LazyTuple(_Built[_V]):
    """A tuple built by `build` when first read: a stored snapshot's anchors, mentions
    and suppressions, which a run answered by its stored result never reads (building
    them was ~80 ms of the history corpus's 0.45 s warm run). `build` raises CacheError
    on a damaged part, as the others here do."""

    __slots__ = ("_build", "_items", "_length")

    def __init__(self, build: Callable[[], tuple[_V, ...]], length: int) -> None:
        """`length`: how many items `build` gives (the stored document says), so that
        whether there are any is known without building them (a warm run asks whether
        a repo mentions any name: AC203's history is read only for one that does)."""
        self._build: Callable[[], tuple[_V, ...]] | None = build
        self._items: tuple[_V, ...] | None = None
        self._length = length

    def _all(self) -> tuple[_V, ...]:
        if self._items is None:
            assert self._build is not None
            self._items, self._build = self._build(), None
        return self._items

    def __len__(self) -> int:
        return self._length


class LazyPaths(AbstractSet[str]):
    """A snapshot's paths, from the text the snapshot cache stores them in (joined by
    NUL, which no git path holds), made a set when first asked as one. Looking a base
    name up (resolve._FilesByName) reads `nul_joined` itself: a merge order asks the
    repos its change does not touch only that way."""

    __slots__ = ("_set", "nul_joined")

    def __init__(self, nul_joined: str) -> None:
        self.nul_joined = nul_joined
        self._set: frozenset[str] | None = None

    def _all(self) -> frozenset[str]:
        if self._set is None:
            self._set = frozenset(self.nul_joined.split("\0")) if self.nul_joined else frozenset()
        return self._set

    @classmethod
    def _from_iterable(cls, it: Iterable[Any]) -> frozenset[Any]:
        return frozenset(it)  # what `|`, `&` and `-` give: a plain set

    def __contains__(self, path: object) -> bool:
        return path in self._all()

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    def __eq__(self, other: object) -> bool:
        return self._all() == (other._all() if isinstance(other, LazyPaths) else other)

    def __hash__(self) -> int:
        return hash(self._all())

    def __repr__(self) -> str:
        return f"LazyPaths({set(self._all())!r})"


class LazyReferences(_Built[Reference]):
    """A repo's references, from `encoded` (JSON: [paths, references], each reference
    as cache.encode_reference writes it) when first read. `decode` is
    cache.decode_reference (passed in: the cache module imports this one's users)."""

    __slots__ = ("_decode", "_encoded", "_items", "_repo")

    def __init__(self, encoded: str, repo: str, decode: Callable[[list[Any], str, str], Reference]) -> None:
        self._encoded = encoded
        self._repo = repo
        self._decode = decode
        self._items: tuple[Reference, ...] | None = None

    def _all(self) -> tuple[Reference, ...]:
        if self._items is None:
            try:
                paths, refs = json.loads(self._encoded)
                decode, repo = self._decode, self._repo
                self._items = tuple(decode(r, repo, str(p)) for r, p in zip(refs, paths, strict=True))
            except (ValueError, TypeError, KeyError, IndexError) as exc:
                # The value around it was read and checked; this part only now.
                raise CacheError.damaged_snapshot(self._repo, exc) from None
            self._encoded = ""
        return self._items

    def of_kind(self, kind: RefKind) -> list[Reference]:
        """The references of one kind. Restated values (FACT), which every merge-order
        run looks for in every repo, are rare: when the encoded text has no reference
        of the kind (each starts `["<kind>",`), nothing is decoded."""
        if self._items is None and f'["{kind.value}",' not in self._encoded:
            return []
        return [r for r in self._all() if r.kind is kind]


def of_kind(refs: Sequence[Reference], kind: RefKind) -> list[Reference]:
    """The references of one kind, decoding no more than needed (LazyReferences)."""
    if isinstance(refs, LazyReferences):
        return refs.of_kind(kind)
    return [r for r in refs if r.kind is kind]
