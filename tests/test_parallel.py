"""Extraction across processes gives what one process gives."""

from __future__ import annotations

import json
import multiprocessing

from anchorcheck.extract import ExtractOptions, extract
from anchorcheck.extract_pool import extract_blobs, extract_one
from tests.conftest import WorkspaceBuilder


def _module(i: int) -> str:
    """About 75 KB: mostly code, a heading, a few citations, one dangling."""
    body = "".join(f"value_{i}_{k} = {k} * 2\n" for k in range(4000))
    cites = "".join(f"# see F{i} SECTION in m{i}.py ({k})\nx{k} = 1\n" for k in range(5))
    return f"# F{i} SECTION\n# What this module is for.\n{body}{cites}# see MISSING {i} HEADING in m{i}.py\n"


def test_workers_give_the_same_results_in_the_same_order() -> None:
    texts = [_module(i) for i in range(60)]
    total = sum(len(t) for t in texts)
    assert total > 4_000_000  # above the size where a pool starts
    jobs = [(f"oid{i}", t.encode(), ("python",)) for i, t in enumerate(texts)]
    options = ExtractOptions()
    results = []
    children = 0
    for item in extract_blobs(iter(jobs), options, workers=2, total_bytes=total, encode=True):
        children = max(children, len(multiprocessing.active_children()))
        results.append(item)
    assert children == 2  # the pool really ran
    assert [r[0] for r in results] == [j[0] for j in jobs]
    for (_, size, values, encoded), (_, data, langs) in zip(results, jobs, strict=True):
        assert size == len(data)
        assert values == extract_one(data, langs, options)
        assert values[0] == extract(data.decode(), "python", options)
        assert encoded is not None and json.loads(encoded[0])["a"]


def test_jobs_1_and_2_find_the_same(ws: WorkspaceBuilder) -> None:
    ws.repo("r", {f"m{i}.py": _module(i) for i in range(60)})
    one = ws.check("--jobs", "1", "--no-cache", "--format", "json")
    two = ws.check("--jobs", "2", "--no-cache", "--format", "json")
    assert one.code == two.code == 1, (one.err, two.err)
    assert json.loads(one.out)["findings"] == json.loads(two.out)["findings"]
    assert len(json.loads(one.out)["findings"]) == 60
