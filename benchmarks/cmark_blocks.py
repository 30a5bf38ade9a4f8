"""Markdown's blocks as pulldown-cmark reads them (through pyromark), measured against
anchorcheck's own block reader (`extract/markdown_blocks.py`'s read_blocks): issue 41, item 1.

    pip install pyromark && python benchmarks/cmark_blocks.py GITDIR... [--repeat N]

Prints the CPU seconds, fastest of --repeat passes, of: pulldown-cmark's parse and HTML
render (no Python objects per event), its events with ranges iterated in Python,
`cmark_blocks` below (the events made into anchorcheck's Blocks), and read_blocks; then
how many files' blocks differ between the two readers. Not used by anchorcheck: it was
slower than read_blocks (benchmarks/README.md, twenty-sixth session), the Python loop over
pulldown-cmark's events costing more than the hand-written reader's whole work.

pulldown-cmark is the CommonMark parser that lychee and mdBook use, in Rust. Its events
carry byte ranges, from which each heading, paragraph, HTML block and table becomes a
Block of whole source lines: what `markdown.read_markdown` turns into anchors and
comments. Tables (GitHub's) are read as one prose block, as GitHub renders their cells'
links; link reference definitions make no events, so the lines no block covers that
hold a `]:` are prose too, joined to the paragraph they open (as CommonMark reads them).
"""

from __future__ import annotations

import itertools
from bisect import bisect_right
from collections.abc import Callable, Iterator
from typing import Any

import pyromark

from anchorcheck.extract.markdown_blocks import Block

# GitHub's Markdown: CommonMark with tables, strikethrough and task lists. (Footnotes
# stay off: `[^1]: text` is then a link reference definition, read as prose, as before.)
_OPTIONS = (pyromark.Options.ENABLE_TABLES | pyromark.Options.ENABLE_STRIKETHROUGH
            | pyromark.Options.ENABLE_TASKLISTS)


# Leaf blocks, read to their end in one inner loop each (none nests in another).
_LEAVES = frozenset(("Paragraph", "HtmlBlock", "Table", "CodeBlock", "Heading"))
_PROSE = frozenset(("Paragraph", "HtmlBlock", "Table"))
# What ends a tight list item's text (which has no Paragraph event): a block opening,
# or its container closing.
_BLOCK_STARTS = _LEAVES | {"Item", "List", "BlockQuote", "FootnoteDefinition"}
_CONTAINER_ENDS = frozenset(("Item", "List", "BlockQuote", "FootnoteDefinition"))

Event = tuple[Any, dict[str, int]]


def _name(tag: str | dict[str, Any]) -> str:
    """A Start or End event's tag name: `"Paragraph"`, or `{"Heading": {...}}`'s key."""
    return tag if tag.__class__ is str else next(iter(tag))  # type: ignore[arg-type]


def cmark_blocks(text: str, lines: list[str]) -> list[Block]:
    """The heading and prose blocks of a Markdown document (`lines`: its lines as
    `document_lines` gives them), in order. The events inside a leaf block or a tight
    item's text are passed over in an inner loop each, with one test per event: most
    events are inline, and the Python loop over them, not the parse, is the cost."""
    ascii_text = text.isascii()
    # Where each line starts, in UTF-8 bytes (pulldown-cmark's ranges are byte offsets).
    sizes = (len(line) + 1 for line in lines) if ascii_text else (len(line.encode()) + 1 for line in lines)
    starts = [0, *itertools.accumulate(sizes)]

    def line_of(offset: int) -> int:
        return bisect_right(starts, offset) - 1

    out: list[Block] = []
    covered = bytearray(len(lines) + 1)  # lines inside a block of any kind
    data = text if ascii_text else text.encode()
    events: Iterator[Event] = iter(pyromark.events_with_range(text, options=_OPTIONS))
    pending: Event | None = None
    while True:
        if pending is not None:
            event, span = pending
            pending = None
        else:
            found = next(events, None)
            if found is None:
                break
            event, span = found
        first = span["start"]
        if event.__class__ is dict:
            start = event.get("Start")
            if start is not None:
                name = _name(start)
                if name in _LEAVES:
                    parts = _read_leaf(events, name)
                    a, b = line_of(first), line_of(max(span["end"] - 1, first))
                    _cover(covered, a, b)
                    if name in _PROSE:
                        out.append(Block("prose", a, b + 1))
                    elif name == "Heading":
                        out.append(Block("heading", a, b + 1, _title(data, parts, starts, line_of)))
                    continue
                if name in _BLOCK_STARTS:
                    continue
            elif event.get("End") is not None:
                continue
        elif event == "Rule":
            _cover(covered, line_of(first), line_of(first))
            continue
        # A tight list item's text: inline events outside any paragraph, to its end.
        last, pending = _read_tight_text(events, span["end"])
        a, b = line_of(first), line_of(max(last - 1, first))
        _cover(covered, a, b)
        out.append(Block("prose", a, b + 1))
    if "]:" in text:
        out = _with_definitions(out, lines, covered)
    return out


def _read_leaf(events: Iterator[Event], name: str) -> list[tuple[int, int]]:
    """Pass over the events of the leaf block `name` up to its End; a heading's inline
    events' byte ranges are returned (its title is read from them)."""
    if name != "Heading":
        for event, _ in events:
            if event.__class__ is dict and event.get("End") == name:
                break
        return []
    parts = []
    for event, span in events:
        if event.__class__ is dict and (end := event.get("End")) is not None and _name(end) == "Heading":
            break
        parts.append((span["start"], span["end"]))
    return parts


def _read_tight_text(events: Iterator[Event], last: int) -> tuple[int, Event | None]:
    """Pass over a tight item's inline events: where they end, and the event that ended
    them (a block opening or a container closing; None at the document's end)."""
    for event, span in events:
        if event.__class__ is dict:
            start = event.get("Start")
            if start is not None:
                if _name(start) in _BLOCK_STARTS:
                    return last, (event, span)
            else:
                end = event.get("End")
                if end is not None and _name(end) in _CONTAINER_ENDS:
                    return last, (event, span)
        elif event == "Rule":
            return last, (event, span)
        last = max(last, span["end"])
    return last, None


def _cover(covered: bytearray, first: int, last: int) -> None:
    covered[first:last + 1] = b"\x01" * (last + 1 - first)


def _title(
    data: str | bytes, parts: list[tuple[int, int]], starts: list[int], line_of: Callable[[int], int],
) -> str:
    """A heading's source text: from its first inline element to its last, each line of
    it from its first inline element (container markers left out), blanks trimmed."""
    if not parts:
        return ""
    first = min(s for s, _ in parts)
    last = max(e for _, e in parts)
    source = data[first:last]
    text = source if isinstance(source, str) else source.decode(errors="replace")
    if "\n" not in text:
        return text.strip(" ")
    # Each continuation line from its first inline element on.
    by_line: dict[int, int] = {}
    for s, _ in parts:
        n = line_of(s)
        if n not in by_line or s < by_line[n]:
            by_line[n] = s
    pieces = []
    for n in sorted(by_line):
        s = by_line[n]
        e = min(last, starts[n + 1] - 1)
        piece = data[s:e]
        pieces.append((piece if isinstance(piece, str) else piece.decode(errors="replace")).strip(" "))
    return "\n".join(pieces).strip()


def _with_definitions(blocks: list[Block], lines: list[str], covered: bytearray) -> list[Block]:
    """The blocks with the lines no block covers that hold `]:` (link reference
    definitions, which make no events) as prose, with the lines no block covers right
    after them (a definition's destination or title on a line of its own): a run of
    them is one block, joined to a paragraph that starts right after it."""
    runs: list[tuple[int, int]] = []
    for n, line in enumerate(lines):
        if covered[n]:
            continue
        if runs and runs[-1][1] == n and line.strip():  # (a destination or title on a line of its own)
            runs[-1] = (runs[-1][0], n + 1)
        elif "]:" in line:
            runs.append((n, n + 1))
    if not runs:
        return blocks
    by_start = {b.start: i for i, b in enumerate(blocks) if b.kind == "prose"}
    added: list[Block] = []
    for first, end in runs:
        i = by_start.get(end)
        if i is not None:
            blocks[i] = blocks[i]._replace(start=first)
        else:
            added.append(Block("prose", first, end))
    if added:
        blocks = sorted([*blocks, *added], key=lambda b: (b.start, b.end))
    return blocks


def main() -> None:
    import argparse
    import sys
    import time
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent))
    from extract_rate import texts_of

    from anchorcheck.extract.markdown_blocks import document_lines, read_blocks

    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("gitdirs", nargs="+", type=Path)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    texts = [t for g in args.gitdirs for t in texts_of(g, "markdown")]

    def fastest(work: Callable[[], object]) -> float:
        took = []
        for _ in range(args.repeat):
            start = time.process_time()
            work()
            took.append(time.process_time() - start)
        return min(took)

    size = sum(len(t.encode()) for t in texts) / 1e6
    events = sum(1 for t in texts for _ in pyromark.events_with_range(t, options=_OPTIONS))
    print(f"{len(texts)} files, {size:.1f} MB, {events} pulldown-cmark events")
    steps: dict[str, Callable[[], object]] = {
        "pulldown-cmark parse and HTML render": lambda: [pyromark.html(t, options=_OPTIONS) for t in texts],
        "pulldown-cmark events with ranges, iterated": lambda: [
            None for t in texts for _ in pyromark.events_with_range(t, options=_OPTIONS)],
        "cmark_blocks (events to Blocks)": lambda: [
            cmark_blocks(t, document_lines(t.split("\n"))) for t in texts],
        "read_blocks (anchorcheck's reader)": lambda: [
            read_blocks(document_lines(t.split("\n"))) for t in texts],
    }
    for name, work in steps.items():
        took = fastest(work)
        print(f"{name}: {took:.3f} CPU-s, {size / took:.1f} MB/s")
    differ = sum(
        [tuple(b[:3]) for b in cmark_blocks(t, lines)] != [tuple(b[:3]) for b in read_blocks(lines)]
        for t in texts for lines in [document_lines(t.split("\n"))])
    print(f"files whose blocks differ (kind and lines): {differ} of {len(texts)}")


if __name__ == "__main__":
    main()
