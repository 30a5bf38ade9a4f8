"""YAML block scalars (`key: |`, `- >-`): the lines where `#` is content, not a comment.

Its own room: the YAML scanner drops the comments it found inside them
(scanners.py), and the facts of a YAML file are read around them (facts.py).
"""

from __future__ import annotations

import functools
import re

from anchorcheck.patterns import compiled_on_use

_YAML_BLOCK_SCALAR = compiled_on_use(r"(?:^|[:\-]\s+|^\s*)(?P<indicator>[|>])[-+0-9]*\s*(?:#.*)?$")
_YAML_ENTRY_LEAD = compiled_on_use(r" *(?:- +)*")  # indentation and sequence dashes before a key


def yaml_block_scalar_lines(text: str) -> frozenset[int]:
    """Line numbers (from 1) inside YAML block scalars (`key: |`, `- >-`), where `#` is
    content. A line belongs to the scalar while it is blank or indented past the
    scalar's owner: the key's column (`- run: |` owns from the column of `run`, so a
    sibling key or comment under it ends the scalar), or for `- |` the dash's."""
    hidden: set[int] = set()
    for first, last in yaml_block_scalars(text):
        hidden.update(range(first, last + 1))
    return frozenset(hidden)


# Where a line may open a block scalar: an indicator, then only its modifiers, blanks and
# a comment to the line's end (`| quote }}`, Helm's pipe, is none: a chart template has
# one on most lines).
_YAML_INDICATOR = compiled_on_use(r"[|>][-+0-9]*[^\S\n]*(?:#|\n|\Z)")


@functools.cache
def _yaml_scalar_body(owner: int) -> re.Pattern[str]:
    """The lines of a block scalar owned at column `owner`: blank, or indented past it."""
    return re.compile(rf"(?:[^\S\n]*(?:\n|\Z)| {{{owner + 1},}}[^\n]*(?:\n|\Z))*")


def yaml_block_scalars(text: str) -> list[tuple[int, int]]:
    """(first, last) line numbers (from 1) of each YAML block scalar's content lines.
    Only the lines where an indicator ends the code can open one, so only those are
    read in Python, and the lines of a scalar are skipped by one match (a chart of 4,448
    files: reading every line was a fifth of YAML extraction). Same lines as reading each in turn (a
    hypothesis test compares)."""
    out: list[tuple[int, int]] = []
    search = _YAML_INDICATOR.search
    count = text.count
    size = len(text)
    pos = 0
    number = 1  # the number of the line that starts at `counted`
    counted = 0
    while True:
        m = search(text, pos)
        if m is None:
            return out
        start = text.rfind("\n", 0, m.start()) + 1
        end = text.find("\n", m.start())
        if end < 0:
            end = size
        owner = _yaml_scalar_owner(text[start:end])
        if owner < 0:
            pos = end + 1
            continue
        number += count("\n", counted, start)
        counted = start
        if end == size:  # the last line opens a scalar with no lines
            return out
        body = _yaml_scalar_body(owner).match(text, end + 1)
        assert body is not None  # (the pattern matches the empty string)
        lines = count("\n", end + 1, body.end()) + (body.end() == size)
        if lines:
            out.append((number + 1, number + lines))
        pos = body.end()
        if pos >= size:
            return out


def _yaml_scalar_owner(line: str) -> int:
    """The owner column of the block scalar `line` opens, or -1 when it opens none."""
    code = line.split(" #", 1)[0].rstrip()
    m = _YAML_BLOCK_SCALAR.search(code)
    if m is None or code.lstrip().startswith("#"):
        return -1
    before = code[:m.start("indicator")].rstrip()
    lead = _YAML_ENTRY_LEAD.match(code)
    if before.endswith(":") and lead is not None:
        return lead.end()
    if before.endswith("-"):
        return len(before) - 1
    return len(line) - len(line.lstrip(" "))
