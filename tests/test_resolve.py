"""Path look-ups of the resolver."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from anchorcheck.resolve import _FilesByName

_PARTS = st.sampled_from(["a", "b", "a.py", "ba.py", "x.y", "Makefile", "a\nb", "", "é.md", "py"])
_PATHS = st.lists(st.lists(_PARTS, min_size=1, max_size=4).map("/".join), max_size=12).map(
    lambda ps: frozenset(p for p in ps if p and not p.endswith("/") and "//" not in p and not p.startswith("/")))


@settings(max_examples=300, deadline=None)
@given(paths=_PATHS, asked=st.lists(_PARTS, min_size=1, max_size=40))
def test_searching_the_joined_paths_answers_as_the_table(paths: frozenset[str], asked: list[str]) -> None:
    """The first questions are searched in the joined paths, later ones read a table:
    both give every path of that base name, and only those."""
    names = _FilesByName(paths)
    # The same after two different names (the table then), and with names asked again
    # answered from what the first search found.
    soon = _FilesByName(paths)
    soon._SEARCHES = 2
    for base in asked:
        expected = sorted(p for p in paths if p.rpartition("/")[2] == base)
        assert sorted(names.named(base)) == expected
        assert sorted(soon.named(base)) == expected
