"""Path look-ups of the resolver."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from anchorcheck.resolve.snapshot_files import _FilesByName

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


_ANCHOR = st.tuples(st.sampled_from(["A", "B", "C"]), st.booleans(), st.sampled_from(["x.py", "y.hs"]),
                    st.integers(1, 3))


def _snap(repo: str, anchors: list[tuple[str, bool, str, int]]) -> Any:
    from anchorcheck.model.anchor import Anchor, AnchorKind
    from anchorcheck.model.snapshot import SnapshotIndex

    made = tuple(Anchor(name, AnchorKind.NOTE if note else AnchorKind.CAPS, line, 0, name.lower(), repo, path)
                 for name, note, path, line in anchors)
    return SnapshotIndex(repo, "main", repo * 40, frozenset({"x.py", "y.hs"}), made, (), {}, {})


@settings(max_examples=200, deadline=None)
@given(base=st.lists(st.lists(_ANCHOR, max_size=5), min_size=3, max_size=3),
       changed=st.dictionaries(st.sampled_from(["a", "b", "c"]), st.lists(_ANCHOR, max_size=5), max_size=2))
def test_an_index_built_on_another_has_the_tables_of_one_built_afresh(
    base: list[list[tuple[str, bool, str, int]]], changed: dict[str, list[tuple[str, bool, str, int]]],
) -> None:
    """Merge order builds an index per set of changes on the base's (`share`): the
    same anchor tables, lists in the same order, as an index built from scratch."""
    from anchorcheck.config.workspace import RepoSpec
    from anchorcheck.resolve.workspace_index import WorkspaceIndex

    repos = [RepoSpec.make(name, Path("."), "main") for name in "abc"]
    snaps = [_snap(name, anchors) for name, anchors in zip("abc", base, strict=True)]
    first = WorkspaceIndex(snaps, repos)
    now = [_snap(s.repo, changed[s.repo]) if s.repo in changed else s for s in snaps]
    shared, fresh = WorkspaceIndex(now, repos, share=first), WorkspaceIndex(now, repos)
    for table in ("by_name", "notes", "by_file"):
        assert dict(getattr(shared, table)) == dict(getattr(fresh, table)), table
    # The first index is left as it was.
    assert dict(first.by_name) == dict(WorkspaceIndex(snaps, repos).by_name)


def test_a_files_lines_are_split_once_for_all_the_claims_on_it() -> None:
    # Each line claim asks for its file's lines: split for each, a 200 KB file with
    # 9,000 claims on itself took 27 s of a check.
    from anchorcheck.resolve.verify import _File

    target = _File("a\nb\n\nc\n", "python")
    assert target.lines == ["a", "b", "", "c"]
    assert target.lines is target.lines
    assert _File("", None).lines == [] and _File("x", None).lines == ["x"]


@settings(max_examples=300, deadline=None)
@given(lines=st.lists(st.lists(st.sampled_from(["a", "b", "c", "x"]), max_size=3).map(" ".join), max_size=12),
       tokens=st.lists(st.sampled_from(["a", "b", "c"]), min_size=1, max_size=3), size=st.integers(1, 3))
def test_places_found_elsewhere_drop_those_inside_another_as_before(
        lines: list[str], tokens: list[str], size: int) -> None:
    import re

    from anchorcheck.resolve.verify import _find_elsewhere, _in_order

    found = []  # the search as it was, with its test of every pair
    first = re.compile(rf"(?<![\w-]){re.escape(tokens[0])}(?![\w-])")
    for i, line in enumerate(lines):
        if first.search(line):
            for j in range(i, min(len(lines), i + size + 2)):
                if _in_order(tokens, "\n".join(lines[i:j + 1])):
                    found.append((i + 1, j + 1))
                    break
    before = [r for r in found if not any(o != r and o[0] <= r[0] and r[1] <= o[1] for o in found)]
    assert _find_elsewhere(lines, tokens, size) == before


def test_a_files_stale_claims_of_one_text_search_it_once() -> None:
    from anchorcheck.resolve.verify import _File

    target = _File("x = 1\n" + "# zzz\n" * 5, "python")
    assert target.elsewhere(["zzz"], 1) == [(2, 2), (3, 3), (4, 4), (5, 5), (6, 6)]
    assert target.elsewhere(["zzz"], 1) is target.elsewhere(["zzz"], 1)


def test_page_texts_are_read_through_one_git_process_that_ends_with_the_index(ws: Any) -> None:
    """Pages read one at a time on need (a fragment not found on them) share one `git
    cat-file --batch` per repo for the index's life (a process each cost 0.42 s of
    kubernetes/community's Markdown check), and it ends when the index goes."""
    import gc

    from anchorcheck.check.pipeline import index_workspace
    from anchorcheck.config.workspace import load_workspace

    ws.repo("docs", {f"p{i}.md": f"# Page {i}\n\nText {i}.\n" for i in range(5)})
    index = index_workspace(load_workspace(ws.config()))
    texts = [index.text("docs", f"p{i}.md") for i in range(5)]
    assert texts == [f"# Page {i}\n\nText {i}.\n" for i in range(5)]
    assert index.text("docs", "missing.md") is None
    readers = list(index._readers.values())
    assert len(readers) == 1  # one process for all six reads
    process = readers[0]._proc
    assert process.poll() is None
    del index, readers
    gc.collect()
    assert process.wait(timeout=10) == 0  # closed with the index
