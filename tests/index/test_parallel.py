"""Extraction across processes gives what one process gives."""

from __future__ import annotations

import json
import multiprocessing
import os
import subprocess
import sys
from pathlib import Path

import pytest

from anchorcheck.config.workspace import load_workspace
from anchorcheck.extract.blob import ExtractOptions, extract
from anchorcheck.git.blobtext import UNREADABLE
from anchorcheck.git.repo import GitRepo
from anchorcheck.index.cache import BlobCache
from anchorcheck.index.crawl import crawl_many
from anchorcheck.index.plan import extract_options
from anchorcheck.index.pool import extract_blobs, pack, unpack
from tests.conftest import WorkspaceBuilder, git


def _module(i: int) -> str:
    """About 75 KB: mostly code, a heading, a few citations, one dangling."""
    body = "".join(f"value_{i}_{k} = {k} * 2\n" for k in range(4000))
    cites = "".join(f"# see F{i} SECTION in m{i}.py ({k})\nx{k} = 1\n" for k in range(5))
    return f"# F{i} SECTION\n# What this module is for.\n{body}{cites}# see MISSING {i} HEADING in m{i}.py\n"


def test_workers_read_and_give_the_same_results_in_the_same_order(ws: WorkspaceBuilder) -> None:
    texts = {f"m{i}.py": _module(i) for i in range(60)}
    texts["gone.py"] = "# see GONE SECTION in m1.py\n"
    total = sum(len(t) for t in texts.values())
    assert total > 4_000_000  # above the size where a pool starts
    git = GitRepo(ws.repo("r", texts))
    entries = sorted(git.list_tree(git.resolve("main")), key=lambda e: e.path)
    jobs = [(git.git_dir, e.oid, e.size, ("python",)) for e in entries]
    # A blob git cannot read (an id of no object here) comes back unread, in its place.
    jobs.insert(5, (git.git_dir, "0" * 40, 10, ("python",)))
    options = ExtractOptions()
    results = []
    children = 0
    for item in extract_blobs(jobs, options, workers=2, encode=True):
        children = max(children, len(multiprocessing.active_children()))
        results.append(item)
    assert children == 2  # the pool really ran
    assert len(results) == len(jobs)
    read, values, encoded = results.pop(5)
    assert not read and values == (UNREADABLE,) and encoded is None
    for (read, values, encoded), entry in zip(results, entries, strict=True):
        assert read
        # Packed (rows of plain values: cheap to send), unpacked where they arrive.
        assert all(type(row) is tuple for part in values[0][:2] for row in part)
        assert unpack(values[0], "", "") == extract(texts[entry.path], "python", options)
        assert encoded is not None and json.loads(encoded[0])["r"]  # every file cites
    # One process, the same answers; and jobs handed over one by one as the pool asks
    # (a crawl gives each repo's blobs as its tree is read), the same again.
    everything = [*results[:5], (False, (UNREADABLE,), None), *results[5:]]
    assert list(extract_blobs(jobs, options, workers=1, encode=True)) == everything
    assert list(extract_blobs(iter(jobs), options, workers=2, encode=True)) == everything
    assert list(extract_blobs(iter(jobs[:3]), options, workers=2, encode=True)) == everything[:3]


def test_jobs_1_and_2_find_the_same(ws: WorkspaceBuilder) -> None:
    ws.repo("r", {f"m{i}.py": _module(i) for i in range(60)})
    one = ws.check("--jobs", "1", "--no-cache", "--format", "json")
    two = ws.check("--jobs", "2", "--no-cache", "--format", "json")
    assert one.code == two.code == 1, (one.err, two.err)
    assert json.loads(one.out)["findings"] == json.loads(two.out)["findings"]
    assert len(json.loads(one.out)["findings"]) == 60


def test_a_call_in_a_thread_gives_its_value_or_raises_its_error_where_asked() -> None:
    from anchorcheck.errors import GitError
    from anchorcheck.threads import InThread

    assert InThread(sum, [1, 2, 3]).result() == 6

    def fails() -> None:
        raise GitError("no such ref")

    failed = InThread(fails)
    failed.join()  # joining does not raise: asking for the result does
    with pytest.raises(GitError, match="no such ref"):
        failed.result()


def test_what_workers_send_back_pickles_to_equal_values() -> None:
    """Anchors, references, suppressions and blob indexes pickle as constructor calls
    (pickling.by_constructor): every field comes back, in its place."""
    import pickle

    from anchorcheck.extract.blob import BlobIndex
    from anchorcheck.model.anchor import Anchor, AnchorKind
    from anchorcheck.model.reference import Reference, RefKind
    from anchorcheck.model.suppression import Suppression

    index = BlobIndex(
        (Anchor("ROLLBACK PATH", AnchorKind.CAPS, 3, 2, "rollback-path", "r", "a.py"),),
        (Reference(RefKind.LINES, 4, 5, "see a.py:3-4", None, "r", "a.py", False, (3, 4), False, "x", "s", "b.py"),),
        7, 12, (("name", 1, 2),), (Suppression(1, 2, ("AC101",), 3, 4, "r", "a.py"),),
    )
    back = pickle.loads(pickle.dumps(index))
    assert back == index and back.references[0].lines == (3, 4) and back.references[0].path == "b.py"
    assert type(back.anchors[0].kind) is AnchorKind


def test_an_index_packed_and_unpacked_is_itself_placed_where_asked(ws: WorkspaceBuilder) -> None:
    """pack/unpack carry every field of anchors, references and suppressions (a field
    added to one of them reaches the rows by itself, or the import fails), and unpack
    places them; a crawl then takes them as they are for that place."""
    import dataclasses

    from anchorcheck.index.plan import _located

    text = ("# F1 SECTION\n# see OTHER SECTION in b.py:3-4 and `thing()` in b.py\n"
            "# anchorcheck: ignore[AC101]\nx = 1  # restates `b.py::limit` = 3\n")
    index = extract(text, "python", ExtractOptions())
    assert index.anchors and len(index.references) >= 2 and index.suppressions and index.mentions
    packed = pack(index)
    assert unpack(packed, "", "") == index
    placed = unpack(packed, "r", "a.py")
    for before, after in zip([*index.anchors, *index.references, *index.suppressions],
                             [*placed.anchors, *placed.references, *placed.suppressions], strict=True):
        assert dataclasses.replace(before, repo="r", path="a.py") == after
    here = _located(placed, "r", "a.py")
    assert here[1][0] is placed.references[0]  # placed already: not built again
    assert here == _located(index, "r", "a.py")
    elsewhere = _located(placed, "r", "c.py")  # the same blob at another path
    assert [r.path for r in elsewhere[1]] == ["c.py"] * len(index.references)
    assert elsewhere == _located(index, "r", "c.py")


@pytest.mark.parametrize("language", ["python", "haskell", "c", "js", "yaml", "shell", "markdown", "html", "sql"])
def test_scanning_a_blob_makes_no_reference_cycle(language: str) -> None:
    """Workers scan without the cyclic collector (extract_pool._worker_batch): that is
    only safe while everything a scan makes is freed by reference counting. A cycle
    made per blob would grow a worker's memory with every blob it reads."""
    sample = {
        "python": "# SECTION HEADING HERE\n# Its body.\n# see OTHER HEADING in b.py\ndef f():\n"
                  "    '''Doc: see `helper()`.'''\n    return 1  # see b.py:3\n",
        "haskell": "{- Note [The thing]\n   ~~~~~~~~~~~~~~~\nSee Note [Other] -}\nf = 1 -- see `g` in B.hs:2\n-- #anchor#\n",
        "c": "/* SECTION HEADING HERE\n * see `x()` in a.c:1-2 */\nint x; // anchorcheck: ignore[AC101]\n",
        "js": "// see SOME HEADING in a.js\nconst s = `t`; /* https://github.com/o/r/blob/main/a.js#L1 */\n",
        "yaml": "# ROLLBACK ON THE DEGRADED PATH\n# see [a](b.md#c)\nkey: |\n  # not a comment\n",
        "shell": "# see BUILD STEPS in build.sh\ncat <<EOF\n# no\nEOF\n",
        "markdown": "# Title\n\nSee [x](a.md#b), `code`.\n\n## SUB SECTION\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```py\nx = 1\n```\n",
        "html": "<!-- see THE HEADING in a.html -->\n<p>x</p>\n",
        "sql": "-- see SCHEMA NOTES in a.sql:1\nselect 1; /* b */\n",
    }[language]
    # In a process of its own: in the suite's worker, a thread an earlier test left
    # running (a test server's, a reader's) may make cyclic garbage while this runs,
    # and the count below is of the whole process (seen once under pytest -n 2: 57).
    code = (
        "import gc, sys\n"
        "from anchorcheck.extract.blob import ExtractOptions, extract\n"
        "sample, language = sys.argv[1], sys.argv[2]\n"
        "options = ExtractOptions()\n"
        "extract(sample, language, options)  # imports and compiles first: those cycles are made once\n"
        "gc.collect()\n"
        "gc.disable()\n"
        "for i in range(50):\n"
        "    found = extract(sample + f'\\n{i}\\n', language, options)\n"
        "assert found.references or found.anchors or found.mentions, 'the sample holds nothing'\n"
        "print(gc.collect())\n"
    )
    done = subprocess.run([sys.executable, "-c", code, sample, language], capture_output=True, text=True,
                          check=False, env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])})
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "0"  # no object a scan made needed the cyclic collector


def test_work_on_the_commits_starts_with_the_first_results_even_of_one_repo(
    ws: WorkspaceBuilder, tmp_path: Path,
) -> None:
    """The crawl tells `resolved` the commits right after its first blob's results:
    not before anything is scanned (what it starts, AC203's history, held the first
    scans back), nor once the second repo's blobs are asked for (in a workspace of one
    large repo that was once every blob was handed out: the history then ran after the
    crawl instead of beside it). When nothing is to be read (a stored snapshot), it is
    told all the same."""
    path = ws.repo("r", {f"m{i}.py": f"# F{i} SECTION\nx = {i}\n" for i in range(40)})
    workspace = load_workspace(ws.config())
    cache = BlobCache(tmp_path / "c", extract_options(workspace.settings))
    commit = GitRepo(path).resolve("main")
    done: list[int] = []
    told: list[tuple[int, dict[str, str]]] = []

    def crawl() -> None:
        done.clear()
        told.clear()
        crawl_many(list(workspace.repos), workspace.settings, cache=cache,
                   progress=lambda _repo, p: done.append(p.files),
                   resolved=lambda commits: told.append((len(done), dict(commits))))

    crawl()
    assert len(done) == 40
    assert told == [(1, {"r": commit})]  # right after the first result
    crawl()  # from the stored snapshot: nothing read
    assert done == []
    # Told all the same, but without this repo: its stored snapshot mentions no name,
    # so no history is needed for it, and a warm run starts no git for it.
    assert told == [(0, {})]
    # A stored snapshot that mentions names is told: its history is still searched.
    (path / "m0.py").write_text("# F0 SECTION: calls `helper_one()`\nx = 0\n")
    git(path, "commit", "-qam", "a mention")
    commit = GitRepo(path).resolve("main")
    crawl()
    crawl()
    assert done == []
    assert told == [(0, {"r": commit})]
    cache.close()
