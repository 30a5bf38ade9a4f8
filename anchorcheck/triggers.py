"""Triggers: the cheap tests that say a comment may hold an anchor or a reference.

Every reference form contains one of the reference triggers (REFERENCE_PATTERN is
their alternation, kept as the definition the tests compare with); a comment block is
only built and read when it holds a reference trigger, `Note [`, an `anchorcheck:`
directive, or a line that may be a caps heading (headings.has_caps_line).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass

from anchorcheck import claims
from anchorcheck.headings import HeadingOptions, has_caps_line


@dataclass(frozen=True, slots=True)
class AnyOf:
    """Whether an alternation of triggers matches in text[start:end], found faster than
    by its search: the regex engine tries all ~20 alternatives at every position of
    every comment (a quarter of Python extraction time). Here plain substrings are
    found by `str.find`, and each other alternative is searched on its own, written to
    start with a literal so that the engine scans for that literal. Same answer as the
    alternation (hypothesis tests compare them)."""

    literals: tuple[str, ...]
    patterns: tuple[re.Pattern[str], ...]
    # Patterns whose first character is matched by a lookbehind: searched from start+1,
    # so that the character the lookbehind reads lies inside the range too.
    lookbehind: tuple[re.Pattern[str], ...] = ()
    # The same test as one alternation, for short ranges: below ~64 characters its one
    # call beats the ~20 calls above (measured: 3.6 vs 8.7 µs at 16 characters, 53 vs
    # 26 µs at 256).
    whole: re.Pattern[str] | None = None

    def __call__(self, text: str, start: int, end: int) -> bool:
        if self.whole is not None and end - start < 64:
            return self.whole.search(text, start, end) is not None
        # Plain loops, not any(): most blocks hold nothing, so every test runs, and a
        # generator per test costs as much as the test.
        find = text.find
        for lit in self.literals:
            if find(lit, start, end) >= 0:
                return True
        for p in self.patterns:
            if p.search(text, start, end):
                return True
        return any(p.search(text, start + 1, end) for p in self.lookbehind)


_AT_ON_LINE = r"(?:at|on)(?<=\bat|\bon)[ \t\n]+(?:lines?[ \t]+)?:?\d"  # \b(?:at|on)[ \t\n]+...

# Every reference form contains one of these; most comments contain none. The
# alternations are the definitions; REFERENCE and INTEREST below answer the same
# faster (tests keep them equal), so a new form is added to both.
REFERENCE_PATTERN = (
    r"Note|[Ss]ee|[Pp]er\b|[Uu]nder|[Cc]f\b|[Dd]escribed|[Ee]xplained|§|\]\(|github\.com/"
    r"|\([ \t\n]*in[ \t\n]|[A-Za-z0-9]#|\]:|" + claims.TRIGGER
)
INTEREST_PATTERN = f"{REFERENCE_PATTERN}|anchorcheck:"  # a Note's `Note [` is within "Note"
HADDOCK_PATTERN = INTEREST_PATTERN + r"|#[A-Za-z][\w-]*#"

REFERENCE = AnyOf(
    literals=("Note", "See", "see", "Under", "under", "Described", "described", "Explained",
              "explained", "§", "](", "github.com/", "]:", "()", "restates"),
    patterns=tuple(re.compile(p) for p in (
        r"[Pp]er\b", r"[Cc]f\b", r"\([ \t\n]*in[ \t\n]", r":\d", r"`[~!]?[A-Za-z_]", _AT_ON_LINE,
    )),
    lookbehind=(re.compile(r"#(?<=[A-Za-z0-9]#)"),),  # [A-Za-z0-9]#
    whole=re.compile(REFERENCE_PATTERN),
)
INTEREST = AnyOf(
    (*REFERENCE.literals, "anchorcheck:"),  # `Note [` is within "Note"
    REFERENCE.patterns,
    REFERENCE.lookbehind,
    re.compile(INTEREST_PATTERN),
)
# Haddock anchors (`-- #name#`) are of interest in Haskell too.
HADDOCK_INTEREST = AnyOf(INTEREST.literals, (*INTEREST.patterns, re.compile(r"#[A-Za-z][\w-]*#")),
                         INTEREST.lookbehind, re.compile(HADDOCK_PATTERN))


@functools.cache
def keep_test(headings: HeadingOptions, haddock: bool = False) -> Callable[[str, int, int], bool]:
    """Whether a comment block (text[start:end]) is worth building: it holds a trigger,
    or, when caps headings are looked for, a line that may be one."""
    interest = HADDOCK_INTEREST if haddock else INTEREST
    if not headings.caps:
        return interest
    letters = headings.min_letters

    def keep(text: str, start: int, end: int) -> bool:
        return interest(text, start, end) or has_caps_line(text, start, end, letters)

    return keep
