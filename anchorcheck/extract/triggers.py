"""Triggers: the cheap tests that say a comment may hold an anchor or a reference.

Every reference form contains one of the reference triggers (REFERENCE_PATTERN is
their alternation, kept as the definition the tests compare with); a comment block is
only built and read when it holds a reference trigger, `Note [`, an `anchorcheck:`
directive, or a line that may be a caps heading (headings.has_caps_line).
"""

from __future__ import annotations

import dataclasses
import functools
import re
from dataclasses import dataclass

from anchorcheck.extract import claims
from anchorcheck.extract.headings import HeadingOptions, has_caps_line
from anchorcheck.extract.onepass import blocks_matching
from anchorcheck.patterns import compiled_on_use


class LazyPattern:
    """A regex compiled only once it has been wanted `after` times (`ready`), for an
    alternative to a slower test that pays only over many calls; then its `search` is
    the compiled pattern's own, so later calls cost what a compiled pattern's do."""

    def __init__(self, source: str, after: int = 0) -> None:
        self.source = source
        self._left = after  # calls still to answer without it

    def ready(self) -> bool:
        """Whether to search with it now: False for the first `after` calls."""
        if self._left > 0:
            self._left -= 1
            return False
        self.ready = _always  # type: ignore[method-assign]
        return True

    def search(self, text: str, pos: int, endpos: int) -> re.Match[str] | None:
        compiled = re.compile(self.source)
        self.search = compiled.search  # type: ignore[method-assign,assignment]
        return compiled.search(text, pos, endpos)


def _always() -> bool:
    return True


# Calls of a trigger test on a short range before its one alternation is compiled:
# compiling costs ~4.5 ms each, and the alternation saves ~5 us a call, so it pays
# after ~900; a PR's ten files make a few hundred calls, a cold run a hundred thousand.
_WHOLE_AFTER = 1000


# A word counted in a few of its cases: (the word in lower case, the cases that count,
# what must follow it or None).
FoldedWord = tuple[str, frozenset[str], re.Pattern[str] | None]


@dataclass(frozen=True, slots=True)
class AnyOf:
    """Whether an alternation of triggers matches in text[start:end], found faster than
    by its search: the regex engine tries all ~20 alternatives at every position of
    every comment (a quarter of Python extraction time). Here plain substrings are
    found by `str.find`, a word that must be followed by something is found by
    `str.find` and what follows matched there, and each other alternative is searched
    on its own, written to start with a literal so that the engine scans for that
    literal. Same answer as the alternation (hypothesis tests compare them)."""

    literals: tuple[str, ...]
    patterns: tuple[re.Pattern[str], ...]
    # (word, what must follow it): e.g. `see` followed by a heading's first character.
    followed: tuple[tuple[str, re.Pattern[str]], ...] = ()
    # Words counted in a few cases (`see`, `See`, `SEE`; FoldedWord). In ASCII text
    # each is found once in the lower-cased text, where each case was a scan of its own
    # (GHC's Haskell: 18 scans of every comment became 6, and one to lower-case it).
    folded: tuple[FoldedWord, ...] = ()
    # Alternatives that cannot match without a digit (`at line 3`, `:12`), searched
    # only in a range holding one: the engine tries `at|on` at every a and o of the
    # text, and one search for a digit (few in prose) spares that in most blocks.
    numeric: tuple[re.Pattern[str], ...] = ()
    # The same test as one alternation, for short ranges: below ~64 characters its one
    # call beats the ~20 calls above (measured: 3.6 vs 8.7 µs at 16 characters, 53 vs
    # 26 µs at 256). Compiled once it has been wanted _WHOLE_AFTER times.
    whole: LazyPattern | None = None

    def __call__(self, text: str, start: int, end: int) -> bool:
        if self.whole is not None and end - start < 64 and self.whole.ready():
            return self.whole.search(text, start, end) is not None
        # Plain loops, not any(): most blocks hold nothing, so every test runs, and a
        # generator per test costs as much as the test.
        find = text.find
        # The followed words first: `Note [` is what most of GHC's comments that hold
        # a reference hold, and each literal looked for before it was a scan of the
        # whole comment (every 10th GHC Haskell file: 2,510M -> 2,491M instructions;
        # mypy's Python: 782.5M -> 783.5M).
        for word, then in self.followed:
            i = find(word, start, end)
            while i >= 0:
                if then.match(text, i + len(word), end):
                    return True
                i = find(word, i + 1, end)
        for lit in self.literals:
            if find(lit, start, end) >= 0:
                return True
        if self.folded and _any_folded(self.folded, text[start:end]):
            return True
        for p in self.patterns:
            if p.search(text, start, end):
                return True
        if self.numeric and _DIGIT.search(text, start, end):
            for p in self.numeric:  # a loop, as above
                if p.search(text, start, end):
                    return True
        return False


_DIGIT = compiled_on_use(r"\d")  # what every `numeric` alternative holds (the same \d)


def _any_folded(folded: tuple[FoldedWord, ...], text: str) -> bool:
    """Whether one of the folded words stands in `text` in a case that counts, followed
    by what it must be. Only ASCII text is lower-cased: elsewhere a character may
    change length with its case (`İ`), so each case is searched."""
    if text.isascii():
        low = text.lower()
        for word, forms, then in folded:
            n = len(word)
            i = low.find(word)
            while i >= 0:
                if text[i:i + n] in forms and (then is None or then.match(text, i + n)):
                    return True
                i = low.find(word, i + 1)
        return False
    for _, forms, then in folded:
        for form in forms:
            i = text.find(form)
            while i >= 0:
                if then is None or then.match(text, i + len(form)):
                    return True
                i = text.find(form, i + 1)
    return False


_AT_ON_LINE = r"(?:at|on)(?<=\bat|\bon)[ \t\n]+(?:(?i:lines?)[ \t]+)?:?\d"  # \b(?:at|on)[ \t\n]+...

# What may stand between a lead word and the heading it cites, in a comment's text as
# the file has it (the keep test reads that, before the leaders are taken off): blanks,
# line breaks and the leaders of the next line (`-- `, `# `, ` * `, `//`, `;`, `>`).
_GAP = r"[\s#*/;>!|-]*"
# After `see`, `per` or `under`: what citations._SEE reads next, a quote or a caps
# heading's first two characters (a capital or digit, then another, a caps word's
# punctuation or the blank that ends a one-letter word), perhaps after "the". "see
# that", "seems", "per second" and "under the hood" are no reference (before: half of
# the comment blocks built for references or mentions gave none, GHC's and the
# bench's Python alike), nor is numpydoc's "See Also" section (440 in networkx's
# docstrings, each of which was built and read for nothing).
_HEADING_NEXT = rf"{_GAP}(?:[Tt][Hh][Ee]{_GAP})?(?:[\"'`“]|[A-Z0-9][A-Z0-9'&/\s-])"
_LEADS = ("see", "See", "SEE", "per", "Per", "PER", "under", "Under", "UNDER")
# After `Note`: its `[` (Note [Title]), perhaps on the next line.
_NOTE_NEXT = rf"{_GAP}\["
_WORD_END = compiled_on_use(r"\b")  # after `cf`: cf. and cf, but not cfg

# Every reference form contains one of these; most comments contain none. The
# alternations are the definitions; REFERENCE and INTEREST below answer the same
# faster (tests keep them equal), so a new form is added to both. The lead words of
# citations._SEE are matched in lower, title and upper case (it reads them in any
# case).
REFERENCE_PATTERN = (
    "|".join(f"{word}{_HEADING_NEXT}" for word in _LEADS) + f"|Note{_NOTE_NEXT}"
    + r"|[Cc]f\b|CF\b|[Dd]escribed|DESCRIBED|[Ee]xplained|EXPLAINED|§|\]\(|github\.com/"
    + r"|\([ \t\n]*in[ \t\n]|\.[A-Za-z0-9]{1,10}#|\]:|/issues/|/pull/|/-/merge_requests/|#[0-9]"
    + r"|githubusercontent\.com/|/-/blob/|/-/tree/|"
    + claims.TRIGGER
)
INTEREST_PATTERN = f"{REFERENCE_PATTERN}|anchorcheck:"
HADDOCK_PATTERN = INTEREST_PATTERN + r"|#[A-Za-z][\w-]*#"

_HEADING_NEXT_RE = re.compile(_HEADING_NEXT)
REFERENCE = AnyOf(
    literals=("§", "](", "]:", "github.com/", "()", "restates", ":`", "/issues/", "/pull/",
              "/-/merge_requests/", "githubusercontent.com/", "/-/blob/", "/-/tree/"),
    followed=(("Note", re.compile(_NOTE_NEXT)), ("`", re.compile(r"[~!]?[A-Za-z_]\w*\.[A-Za-z_]"))),
    # `cf` as a word: found by its letters, not by `[Cc]f\b` tried at every c and C.
    folded=(*((word, frozenset(w for w in _LEADS if w.lower() == word), _HEADING_NEXT_RE)
              for word in ("see", "per", "under")),
            *((word, frozenset((word, word.title(), word.upper())), None)
              for word in ("described", "explained")),
            ("cf", frozenset(("cf", "Cf", "CF")), _WORD_END)),
    patterns=tuple(re.compile(p) for p in (r"\([ \t\n]*in[ \t\n]", r"\.[A-Za-z0-9]{1,10}#")),
    numeric=(re.compile(r":\d"), re.compile(_AT_ON_LINE), re.compile(r"#[0-9]")),
    whole=LazyPattern(REFERENCE_PATTERN, _WHOLE_AFTER),
)
INTEREST = dataclasses.replace(
    REFERENCE, literals=(*REFERENCE.literals, "anchorcheck:"),
    whole=LazyPattern(INTEREST_PATTERN, _WHOLE_AFTER))
# In Markdown, an HTML tag's `href` or `src` is a link too.
# (Its one-alternation form, for short blocks, must hold them too: it is the same test.)
MARKDOWN_INTEREST = dataclasses.replace(
    INTEREST, literals=(*INTEREST.literals, "href", "src"),
    whole=LazyPattern(INTEREST_PATTERN + "|href|src", _WHOLE_AFTER))
# Haddock anchors (`-- #name#`) are of interest in Haskell too.
HADDOCK_INTEREST = dataclasses.replace(
    INTEREST, patterns=(*INTEREST.patterns, re.compile(r"#[A-Za-z][\w-]*#")),
    whole=LazyPattern(HADDOCK_PATTERN, _WHOLE_AFTER))


# A line that may be a caps heading (headings.has_caps_line: no lower-case ASCII letter,
# at least n capitals), as one more alternative of the one-pass scan.
_CAPS_LINE = "(?m:^[^a-z\\n]*(?:[A-Z][^a-z\\n]*){{{n}}}$)"


@dataclass(frozen=True, slots=True)
class KeepTest:
    """Whether a comment block (text[start:end]) is worth building: it holds a trigger,
    or, when caps headings are looked for (`caps_letters`), a line that may be one."""

    interest: AnyOf
    caps_letters: int | None = None

    def __call__(self, text: str, start: int, end: int) -> bool:
        return self.interest(text, start, end) or (
            self.caps_letters is not None and has_caps_line(text, start, end, self.caps_letters))

    def select(self, text: str, ranges: list[tuple[int, int]]) -> list[bool]:
        """[self(text, s, e) for s, e in ranges], for all the blocks of a file at once:
        one RE2 scan of the blocks joined (onepass.blocks_matching), for the whole
        alternation and the caps line together. (Asked block by block in Python, the
        test was ~30 searches per block; then, joined, ~30 searches per file.)"""
        return [bool(k) for k in blocks_matching(self.one_pass_source(), text, ranges, self)]

    def one_pass_source(self) -> str:
        """The test as one pattern: the interest's alternation, or a caps line."""
        assert self.interest.whole is not None, "a keep test's interest has its alternation"
        return _one_pass_source(self.interest.whole.source, self.caps_letters)


@functools.cache
def _one_pass_source(interest: str, caps_letters: int | None) -> str:
    # (Cached: the same string each time, whose hash is kept, for onepass.compiled's cache.)
    if caps_letters is None:
        return interest
    return f"{interest}|{_CAPS_LINE.format(n=max(2, caps_letters))}"


@functools.cache
def keep_test(headings: HeadingOptions, haddock: bool = False) -> KeepTest:
    """The keep test for these heading options (and Haskell's haddock anchors)."""
    interest = HADDOCK_INTEREST if haddock else INTEREST
    return KeepTest(interest, headings.min_letters if headings.caps else None)


# Markdown's blocks are tested all at once (KeepTest.select), as code comments are: one
# by one, kubernetes/community's 109k blocks made 134k trigger tests, a fifth of its
# Markdown extraction.
MARKDOWN_KEEP = KeepTest(MARKDOWN_INTEREST)
