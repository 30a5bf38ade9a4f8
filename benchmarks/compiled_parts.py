"""What compiled libraries would save in extraction's hot loops (issue 41), measured
on the same real Markdown, each beside the Python code it would replace.

    python benchmarks/compiled_parts.py GITDIR... [--repeat N]

For every Markdown file at HEAD of each GITDIR (as extract_rate.py reads them), in this
process, CPU time, the fastest of --repeat passes:

- blocks: anchorcheck's block reader (`read_blocks`) against pulldown-cmark's whole
  parse with byte ranges (`pyromark.events_with_range`), which would give the blocks
  and the links, headings and code spans in one pass;
- triggers: the keep test asked of each block in Python (`MARKDOWN_KEEP(text, start,
  end)`: the hand-written literal finds and regexes of triggers.AnyOf) against the one
  RE2 scan of a file's blocks that anchorcheck uses since the twenty-sixth session
  (`MARKDOWN_KEEP.select`, extract/onepass.py). The blocks each keeps are compared: any
  difference is printed;
- whole extraction, for scale (`extract`, as extract_rate.py times it).

pyromark is imported here only: `pip install pyromark` to run it (see also
cmark_blocks.py, pulldown-cmark's events made into anchorcheck's blocks).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from extract_rate import texts_of

from anchorcheck.extract.blob import ExtractOptions, extract
from anchorcheck.extract.markdown_blocks import document_lines, read_blocks
from anchorcheck.extract.triggers import MARKDOWN_KEEP


def fastest(step: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        step()
        best = min(best, time.process_time() - start)
    return best


def spans_of(text: str) -> list[tuple[int, int]]:
    lines = text.split("\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    last = len(lines)
    return [(starts[b.start], starts[min(b.end, last)] - 1) for b in read_blocks(document_lines(lines))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("gitdirs", nargs="+", type=Path)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    import pyromark

    texts = [t for g in args.gitdirs for t in texts_of(g, "markdown")]
    mb = sum(len(t.encode()) for t in texts) / 1e6
    print(f"{len(texts)} Markdown files, {mb:.1f} MB")
    rate = {}
    # (Each file's result dropped before the next: kept, the millions of objects all the
    # files make would cost the garbage collector more than the parse.)
    rate["blocks: read_blocks"] = fastest(
        lambda: [len(read_blocks(document_lines(t.split("\n")))) for t in texts], args.repeat)
    rate["blocks: pyromark events_with_range"] = fastest(
        lambda: [sum(1 for _ in pyromark.events_with_range(t)) for t in texts], args.repeat)
    spans = [spans_of(t) for t in texts]
    rate["triggers: asked block by block (Python)"] = fastest(
        lambda: [by_block(t, s) for t, s in zip(texts, spans, strict=True)], args.repeat)
    rate["triggers: one RE2 scan (select)"] = fastest(
        lambda: [MARKDOWN_KEEP.select(t, s) for t, s in zip(texts, spans, strict=True)], args.repeat)
    options = ExtractOptions()
    rate["whole extraction"] = fastest(lambda: [extract(t, "markdown", options) for t in texts], 1)
    for name, seconds in rate.items():
        print(f"{name:40} {seconds:7.2f} CPU-s  {mb / seconds:6.1f} MB/s")
    differ = []
    for t, s in zip(texts, spans, strict=True):
        a, b = by_block(t, s), MARKDOWN_KEEP.select(t, s)
        differ += [(x, t[lo:hi]) for x, y, (lo, hi) in zip(a, b, s, strict=True) if x != y]
    print(f"blocks kept differently by the two trigger tests: {len(differ)} of {sum(map(len, spans))}")
    for kept_by_python, block in differ[:10]:
        print(f"  kept by {'Python' if kept_by_python else 'RE2'} only: {block[:200]!r}")


def by_block(text: str, spans: list[tuple[int, int]]) -> list[bool]:
    return [MARKDOWN_KEEP(text, a, b) for a, b in spans]


if __name__ == "__main__":
    main()
