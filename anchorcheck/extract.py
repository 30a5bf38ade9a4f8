"""Extraction: one blob's text in, its anchors and references out.

The output depends only on the blob's content, its language and the options, never
on its path or repo, so it can be cached by blob id.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from anchorcheck.anchor import Anchor
from anchorcheck.citations import TRIGGER, find_references
from anchorcheck.claims import find_mentions
from anchorcheck.comment import JoinedText
from anchorcheck.headings import ANCHOR_HINT, HeadingOptions, find_anchors, haddock_anchors
from anchorcheck.reference import Reference
from anchorcheck.scanners import scan
from anchorcheck.suppression import Suppression, find_suppressions

EXTRACTOR_VERSION = 6

# A comment block is only built when it may hold an anchor or a reference.
_INTEREST = re.compile(f"{ANCHOR_HINT.pattern}|{TRIGGER.pattern}|anchorcheck:")


@dataclass(frozen=True, slots=True)
class AnyOf:
    """Whether `_INTEREST` (or a wider alternation) matches in text[start:end], found
    faster than by its search: the regex engine tries all ~20 alternatives at every
    position of every comment (a quarter of Python extraction time). Here plain
    substrings are found by `str.find`, and each other alternative is searched on its
    own, written to start with a literal so that the engine scans for that literal.
    Same answer as the alternation (a hypothesis test compares them)."""

    literals: tuple[str, ...]
    patterns: tuple[re.Pattern[str], ...]
    # Patterns whose first character is matched by a lookbehind: searched from start+1,
    # so that the character the lookbehind reads lies inside the range too.
    lookbehind: tuple[re.Pattern[str], ...] = ()

    def __call__(self, text: str, start: int, end: int) -> bool:
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


_INTEREST_PARTS = AnyOf(
    literals=("Note", "See", "see", "Under", "under", "Described", "described", "Explained",
              "explained", "§", "](", "github.com/", "]:", "()", "restates", "anchorcheck:"),
    patterns=tuple(re.compile(p) for p in (
        r"[A-Z]{3}", r"[Pp]er\b", r"[Cc]f\b", r"\([ \t\n]*in[ \t\n]", r":\d", r"`[~!]?[A-Za-z_]",
        # \b(?:at|on)...: the word boundary moved into a lookbehind after the literal.
        r"(?:at|on)(?<=\bat|\bon)[ \t\n]+(?:lines?[ \t]+)?:?\d",
    )),
    lookbehind=(re.compile(r"#(?<=[A-Za-z0-9]#)"),),  # [A-Za-z0-9]#
)
_HADDOCK_KEEP = AnyOf(_INTEREST_PARTS.literals,
                      (*_INTEREST_PARTS.patterns, re.compile(r"#[A-Za-z][\w-]*#")),
                      _INTEREST_PARTS.lookbehind)


@dataclass(frozen=True, slots=True)
class ExtractOptions:
    headings: HeadingOptions = field(default_factory=HeadingOptions)
    markdown: bool = True


@dataclass(frozen=True, slots=True)
class BlobIndex:
    anchors: tuple[Anchor, ...]
    references: tuple[Reference, ...]
    comments: int
    line_count: int
    # Code-shaped mentions (`name`, name()), first place of each name in the blob.
    mentions: tuple[tuple[str, int, int], ...] = ()
    suppressions: tuple[Suppression, ...] = ()


def extract(text: str, language: str, options: ExtractOptions) -> BlobIndex:
    if language == "markdown":
        # Imported here: markdown-it costs every run its import time, and most runs
        # (warm ones, PRs that touch no Markdown) parse no Markdown at all.
        from anchorcheck.markdown import read_markdown

        comments, md_anchors = read_markdown(text, keep=_INTEREST_PARTS)
        anchors = md_anchors if options.markdown else []
    else:
        comments = scan(text, language, keep=_HADDOCK_KEEP if language == "haskell" else _INTEREST_PARTS)
        anchors = list(find_anchors(comments, options.headings))
        if language == "haskell":
            anchors.extend(haddock_anchors(comments))
    refs: list[Reference] = []
    mentions: dict[str, tuple[str, int, int]] = {}
    for comment in comments:
        joined = JoinedText.of(comment)
        refs.extend(find_references(comment, joined))
        for name, line, col in find_mentions(joined):
            mentions.setdefault(name, (name, line, col))
    suppressions = tuple(s for comment in comments for s in find_suppressions(comment))
    return BlobIndex(
        tuple(anchors), tuple(refs), len(comments), text.count("\n") + (not text.endswith("\n")),
        tuple(mentions.values()), suppressions,
    )
