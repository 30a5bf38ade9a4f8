"""Comment families: the patterns scanners.py reads a file with, one family per comment
syntax (the family names languages.py gives files).

Each family's pattern is a list of alternatives (a comment, kept; a string, a heredoc
or a template action, skipped whole), compiled when first used, with the characters a
match of it can start at; the commonest families also have a pattern from a position
to their next comment, which skips code and strings inside the regex engine. Their own
room: what a comment looks like in each syntax is written once here, apart from the
walk that finds the comments (scanners.py) and the Comments built from what it finds
(comment_lines.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from anchorcheck.patterns import compiled_on_use

# Strings, unrolled so that no two branches of a repetition can match the same text.
_DQ = r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"?'
_SQ = r"'[^'\\\n]*(?:\\.[^'\\\n]*)*'?"
_DQ_ML = r'"[^"\\]*(?:\\.[^"\\]*)*"?'  # may span lines (shell)
_SQ_RAW_ML = r"'[^']*'?"  # shell single quotes: no escapes, may span lines
_TRIPLE_DQ = r'"""[^"\\]*(?:(?:\\.|"(?!""))[^"\\]*)*(?:"""|\Z)'
_TRIPLE_SQ = r"'''[^'\\]*(?:(?:\\.|'(?!''))[^'\\]*)*(?:'''|\Z)"
_CHAR = r"'(?:\\[^'\n]{1,10}|[^\\'\n])'"  # a C-like character literal, exactly
_BLOCK_C = r"/\*.*?(?:\*/|\Z)"
_BACKTICK = r"`[^`]*`?"


@dataclass(frozen=True, slots=True)
class Family:
    """A comment family's compiled pattern and its opener rule."""

    pattern: re.Pattern[str]
    # Dockerfile/INI rule: the opener opens a comment only as the first non-blank
    # character of its line. Every other family's opener rule is a lookbehind inside its
    # pattern, so that a rejected opener is never matched to the end of its line and
    # retried one character later (quadratic on a long line of `a#a#a#...`).
    line_start_only: bool = False


_V = TypeVar("_V")


@dataclass(frozen=True, slots=True)
class _Source:
    """A comment family's pattern, as alternatives not yet compiled."""

    alternatives: tuple[str, ...]
    line_start_only: bool = False


class _OnFirstUse(Mapping[str, _V]):
    """A mapping whose values are made on first use, from its keys."""

    def __init__(self, keys: Iterable[str], make: Callable[[str], _V]) -> None:
        self._keys = tuple(keys)
        self._make = make
        self._made: dict[str, _V] = {}

    def __getitem__(self, key: str) -> _V:
        if key in self._made:
            return self._made[key]
        if key not in self._keys:
            raise KeyError(key)
        value = self._made[key] = self._make(key)
        return value

    def __contains__(self, key: object) -> bool:
        return key in self._keys

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)


# `#` opens a comment at the start of the text or after one of these (shell, YAML, HCL).
_HASH = r"(?<![^ \t\n\r;|&()])#"


def _compile(*alternatives: str) -> re.Pattern[str]:
    return re.compile("|".join(alternatives), re.DOTALL)


def _first_chars(pattern: re.Pattern[str]) -> re.Pattern[str] | None:
    """A character class of every character a match of `pattern` can start with, or
    None when that cannot be told.

    Why: `pattern.search` tries every alternative at every position of the file, and
    the alternatives start inside named groups, which hides their first characters from
    the regex engine's own prefix scan; most of a source file cannot start a string or
    a comment. Scanning for these characters first and matching only there finds the
    same matches (every match starts at such a character), 2-3 times faster. Read from
    the parsed pattern (the `re` parser is private API: where it is missing or changes,
    this returns None and the scanner simply searches as before)."""
    try:
        from re import _constants as c  # type: ignore[attr-defined]
        from re import _parser  # type: ignore[attr-defined]

        chars = _first_of(_parser.parse(pattern.pattern, pattern.flags).data, c)
    except (ImportError, AttributeError, TypeError, ValueError, re.error):
        return None
    if not chars:
        return None
    return re.compile("[" + "".join(re.escape(ch) for ch in sorted(chars)) + "]")


def _first_of(items: list[tuple[Any, Any]], c: Any) -> set[str] | None:
    """First characters of a parsed sequence; None for "could be anything"."""
    for op, av in items:
        if op in (c.ASSERT, c.ASSERT_NOT, c.AT):
            continue  # zero width: the next item starts the match
        if op is c.LITERAL:
            return {chr(av)}
        if op is c.IN:
            out: set[str] = set()
            for kind, value in av:
                if kind is c.LITERAL:
                    out.add(chr(value))
                elif kind is c.RANGE and value[1] - value[0] < 256:
                    out.update(chr(x) for x in range(value[0], value[1] + 1))
                else:
                    return None  # a negated set, a category: too wide to help
            return out
        if op is c.SUBPATTERN:
            return _first_of(list(av[3]), c)
        if op is c.BRANCH:
            union: set[str] = set()
            for alternative in av[1]:
                first = _first_of(list(alternative), c)
                if first is None:
                    return None
                union |= first
            return union
        if op in (c.MAX_REPEAT, c.MIN_REPEAT) and av[0] >= 1:
            return _first_of(list(av[2]), c)
        return None
    return None  # an empty pattern matches anywhere


# A Haskell line comment: dashes that are not part of an operator (`-->`, `|--`).
_HS_LC = r"(?<![!#$%&*+./<=>?@\\^|~:])--+(?![!#$%&*+./<=>?@\\^|~:])[^\n]*"

_SOURCES: dict[str, _Source] = {
    "python": _Source((
        rf"(?P<str>{_TRIPLE_DQ}|{_TRIPLE_SQ}|{_DQ}|{_SQ})",
        r"(?P<lc>#[^\n]*)",
    )),
    "hash": _Source((
        rf"(?P<str>{_DQ}|{_SQ})", rf"(?P<lc>{_HASH}[^\n]*)",
    )),
    "yaml": _Source((
        r"(?P<bc>\{\{-?\s*/\*.*?(?:\*/\s*-?\}\}|\Z))",
        r"(?P<skip>\{\{.*?(?:\}\}|\Z))",
        rf"(?P<str>{_DQ}|'(?:[^'\n]|'')*'?)",
        rf"(?P<lc>{_HASH}[^\n]*)",
    )),
    "shell": _Source((
        r"(?P<heredoc><<-?[ \t]*(?P<q>['\"]?)(?P<tag>[A-Za-z_][A-Za-z0-9_]*)(?P=q))",
        rf"(?P<str>\$'[^'\\]*(?:\\.[^'\\]*)*'?|{_DQ_ML}|{_SQ_RAW_ML}|{_BACKTICK})",
        rf"(?P<lc>{_HASH}[^\n]*)",
    )),
    "dockerfile": _Source((r"(?P<lc>#[^\n]*)",), line_start_only=True),
    "toml": _Source((
        rf"(?P<str>{_TRIPLE_DQ}|{_TRIPLE_SQ}|{_DQ}|'[^'\n]*'?)", r"(?P<lc>#[^\n]*)",
    )),
    "ini": _Source((r"(?P<lc>[#;][^\n]*)",), line_start_only=True),
    "make": _Source((r"(?P<lc>(?<!\\)#[^\n]*)",)),
    "c": _Source((
        rf"(?P<str>{_DQ}|{_CHAR}|{_BACKTICK})",
        r"(?P<lc>//[^\n]*)",
        rf"(?P<bc>{_BLOCK_C})",
    )),
    "js": _Source((
        rf"(?P<str>{_DQ}|{_SQ}|{_BACKTICK})",
        r"(?P<lc>//[^\n]*)",
        rf"(?P<bc>{_BLOCK_C})",
    )),
    "rust": _Source((
        r"(?P<raw>r(?P<hashes>#+)\")",
        rf"(?P<str>{_DQ_ML}|{_CHAR})",
        r"(?P<lc>//[^\n]*)",
        rf"(?P<bc>{_BLOCK_C})",
    )),
    "css": _Source((rf"(?P<str>{_DQ}|{_SQ})", rf"(?P<bc>{_BLOCK_C})")),
    "hcl": _Source((
        rf"(?P<str>{_DQ})", r"(?P<lc>(?:#|//)[^\n]*)", rf"(?P<bc>{_BLOCK_C})",
    )),
    "haskell": _Source((
        r"(?P<nbc>\{-)",
        # A quote after a name character is a prime (x', foldl'), never a character
        # literal: x'a' is one name.
        rf"(?P<str>{_DQ}|(?<![\w']){_CHAR})",
        rf"(?P<lc>{_HS_LC})",
    )),
    # m4 and autoconf: `dnl` to the end of the line, and `#` (kept in m4's output, but a
    # comment to its reader). No strings: m4 quotes with brackets, and English
    # apostrophes stand in its text.
    "m4": _Source((rf"(?P<lc>(?:{_HASH}|(?<![\w$])dnl\b)[^\n]*)",)),
    "sql": _Source((
        r"(?P<str>'[^']*'?|\"[^\"\n]*\"?)",
        r"(?P<lc>--[^\n]*)",
        rf"(?P<bc>{_BLOCK_C})",
    )),
    "html": _Source((r"(?P<bc><!--.*?(?:-->|\Z))",)),
}

# Each family compiled when first used: a run compiles the patterns of the languages
# it reads (a PR run touching Python files: Python's), not all of them at every start.
FAMILIES: Mapping[str, Family] = _OnFirstUse(
    _SOURCES, lambda name: Family(_compile(*_SOURCES[name].alternatives), _SOURCES[name].line_start_only))
# The characters a match of each family's pattern can start at (see _first_chars).
FIRST: Mapping[str, re.Pattern[str] | None] = _OnFirstUse(
    _SOURCES, lambda name: _first_chars(FAMILIES[name].pattern))


# YAML (and Helm's templates), from a position to its next comment: code, strings and
# `{{ ... }}` actions are skipped inside the regex engine, where the family pattern's
# search loop stopped at each quote and each action and went back to Python for it (a
# chart's values.yaml quotes most of its values: 39% of YAML extraction was that
# loop). Each match ends at one comment: a `{{/* */}}` (bc) or a `#` line (lc), as the
# family pattern finds them (a hypothesis test compares the spans).
_YAML_BC_OPEN = r"\{\{-?\s*/\*"
_YAML_NEXT = (
    rf"""(?:[^#"'{{]++|{_DQ}|'(?:[^'\n]|'')*'?|(?!{_YAML_BC_OPEN})(?:\{{\{{.*?(?:\}}\}}|\Z)|\{{)"""
    # A `#` that opens no comment (`a#b`): _HASH's look-behind, the other way round.
    r"|(?<=[^ \t\n\r;|&()])#)*+"
    rf"(?:(?P<bc>{_YAML_BC_OPEN}.*?(?:\*/\s*-?\}}\}}|\Z))|(?P<lc>#[^\n]*))"
)

YAML_NEXT_RE = compiled_on_use(_YAML_NEXT, re.DOTALL)


# Python, from a position to its next comment or triple-quoted string: code and
# one-line strings are skipped inside the regex engine (possessively: what is skipped
# is never tried again), where the family pattern stopped at every string and went
# back to Python for it (a third of Python extraction). Same spans as the family
# pattern's search loop (a hypothesis test compares them).
_PY_NEXT = (
    rf"""(?:[^#"']++|"(?!""){_DQ[1:]}|'(?!''){_SQ[1:]})*+"""
    # (A one-line string here only where a triple quote cannot open one: `"""\` at
    # the end of the text.)
    # A run of line comments, each on the line after the last with only blanks before
    # it, is one match (the block _blocks makes of them; a hypothesis test compares).
    rf"(?:(?P<lc>#[^\n]*(?:\n[^\S\n]*#[^\n]*)*)|(?P<str>{_TRIPLE_DQ}|{_TRIPLE_SQ}|{_DQ}|{_SQ}))"
)


# Haskell, from a position to its next `{-` or run of line comments: code, strings,
# character literals and lone -, { and ' are skipped inside the regex engine, and a
# run of line comments, each on the line after the last with only blanks between (a
# block, as _blocks groups them), is one match. GHC has 1.2M dashes and a comment
# line for every four lines of code: the family pattern stopped at each and went back
# to Python. Same blocks as the family pattern's search loop and _blocks (a hypothesis
# test compares them, for each family with such a pattern).
_HS_NEXT = (
    rf"""(?:[^-{{"']++|{_DQ}|(?<![\w']){_CHAR}|'|\{{(?!-)|(?!{_HS_LC})-)*+"""
    rf"(?:(?P<nbc>\{{-)|(?P<lc>{_HS_LC}(?:\n[^\S\n]*{_HS_LC})*))"
)


def _slashes_next(strings: str) -> str:
    """The same for a family with `//` and `/* */` comments and these `strings` (the
    family pattern's, plus whatever consumes a quote that opens none)."""
    return (
        rf"""(?:[^"'`/]++|{strings}|/(?![/*]))*+"""
        r"(?:(?P<lc>//[^\n]*(?:\n[^\S\n]*//[^\n]*)*)" rf"|(?P<bc>{_BLOCK_C}))"
    )


# Compiled when first used, as the families are. Python's is read by _python_blocks
# (its blocks need Python's docstring rules); the others by _matched_blocks.
_NEXT_SOURCES = {
    "python": _PY_NEXT,
    "haskell": _HS_NEXT,
    "c": _slashes_next(f"{_DQ}|{_CHAR}|{_BACKTICK}|'"),  # a quote that opens no character literal
    "js": _slashes_next(f"{_DQ}|{_SQ}|{_BACKTICK}"),
}
NEXT: Mapping[str, re.Pattern[str]] = _OnFirstUse(
    _NEXT_SOURCES, lambda name: re.compile(_NEXT_SOURCES[name], re.DOTALL))
