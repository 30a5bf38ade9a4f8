"""One pass of RE2 over many blocks: which of them hold a match of one pattern.

Python's `re` tries an alternation's branches one after the other at each position, so
the trigger test was some thirty searches per file (literal finds and small regexes,
triggers.AnyOf). RE2 compiles the whole alternation into one automaton that reads each
byte once, in C, and cannot backtrack: the blocks of a file are tested in one scan
(every block of the history corpus's Python, C, YAML and Markdown: 0.68 -> 0.21 CPU-s,
the same blocks kept; benchmarks/README.md, issue 41).

RE2 reads `\\s`, `\\w`, `\\d` and `\\b` as ASCII classes, Python's `re` (on str) as Unicode
ones, and RE2 has no look-behind. So the pattern is translated (`re2_source`) to one
that matches exactly where Python's does on ASCII text, and only ASCII blocks are
scanned; a block holding any other character is asked of the Python test instead. The
answers are the same either way (a hypothesis test compares them).
"""

from __future__ import annotations

import functools
from bisect import bisect_right
from collections.abc import Callable

import re2

# What Python's `\s` matches in ASCII (str patterns): RE2's `\s` lacks \v and \x1c-\x1f.
_ASCII_SPACE = r"\t\n\x0b\x0c\r \x1c-\x1f"
# RE2 has no look-behind; the trigger patterns use one, for `\b(?:at|on)` written so
# that Python's engine scans for its literal first (claims.TRIGGER's `at line 3`).
_LOOK_BEHINDS = {r"(?:at|on)(?<=\bat|\bon)": r"\b(?:at|on)"}
# Between the joined blocks: no pattern here matches a NUL, and the line break ends any
# line-anchored (`^...$`) alternative, so every match lies within one block.
_SEPARATOR = "\x00\n"
# Python's `\b` at a range's start looks at the character before it, in the text; in
# the joined blocks that is the separator. A range that starts inside a word (never a
# comment or a Markdown block, which start at an opener or a line) is asked one by one.
_WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")


def _in_word(char: str) -> bool:
    r"""Whether Python's `\w` (on str) matches `char`."""
    return char == "_" or char.isalnum()


def re2_source(pattern: str) -> str:
    """`pattern` (Python `re` syntax) as an RE2 pattern that matches where it does on ASCII
    text: `\\s` and `\\S` spelled out, the known look-behinds rewritten. Any other
    look-behind is an error (re2 rejects it when compiling)."""
    for python, rewritten in _LOOK_BEHINDS.items():
        pattern = pattern.replace(python, rewritten)
    out: list[str] = []
    in_class = False
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            escape = pattern[i:i + 2]
            if escape == r"\s":
                out.append(_ASCII_SPACE if in_class else f"[{_ASCII_SPACE}]")
            elif escape == r"\S":
                if in_class:  # (no way to spell "not these" among a class's members)
                    raise ValueError(f"re2_source: \\S in a character class: {pattern}")
                out.append(f"[^{_ASCII_SPACE}]")
            else:
                out.append(escape)
            i += 2
            continue
        if c == "[" and not in_class:
            in_class = True
            if pattern[i + 1:i + 2] == "]":  # `[]...]`: a leading `]` is a member
                out.append("[]")
                i += 2
                continue
        elif c == "]" and in_class:
            in_class = False
        out.append(c)
        i += 1
    return "".join(out)


@functools.cache
def compiled(source: str) -> re2._Regexp:
    """The RE2 automaton for a Python pattern (re2_source), on UTF-8 bytes."""
    return re2.compile(re2_source(source).encode())


def blocks_matching(
    source: str, text: str, ranges: list[tuple[int, int]], slow: Callable[[str, int, int], bool],
) -> bytearray:
    """For each range of `text`, 1 where `source` (a Python pattern) matches in it, else 0.
    ASCII ranges are scanned by RE2 in one pass over them joined; any other range is
    answered by `slow(text, start, end)`, which must be the same test in Python."""
    keep = bytearray(len(ranges))
    parts = [text[s:e] for s, e in ranges]
    scanned = []
    ascii_text = text.isascii()
    for i, part in enumerate(parts):
        start = ranges[i][0]
        if (ascii_text or part.isascii()) and not (
                start and part and part[0] in _WORD and _in_word(text[start - 1])):
            scanned.append(i)
        elif slow(text, *ranges[i]):
            keep[i] = 1
    if not scanned:
        return keep
    joined = _SEPARATOR.join([parts[i] for i in scanned]).encode("ascii")
    starts = [0]
    for i in scanned:
        starts.append(starts[-1] + len(parts[i]) + len(_SEPARATOR))
    search = compiled(source).search
    m = search(joined, 0)
    while m is not None:
        block = bisect_right(starts, m.start()) - 1
        keep[scanned[block]] = 1
        m = search(joined, starts[block + 1])
    return keep
