"""The definition events in a git log, for AC203 (history.py): in each commit's diff,
the lines adding or removing a definition (a keyword's, an assignment or signature
opening a line, a C-style function), one event per name and file; folded, newest
commit first, into the names whose newest event in every file is a removal. Text in,
tables out: git's log is started, and its events cached, in history.py."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from anchorcheck.extract.languages import language_of
from anchorcheck.patterns import compiled_on_use
from anchorcheck.resolve.definition_shapes import KEYWORD_LIST, KEYWORDS


@dataclass(frozen=True, slots=True)
class Removal:
    """The commit that removed a name's last definition."""

    repo: str
    commit: str
    subject: str
    path: str


def removals_in_log(log: str, repo: str) -> dict[str, Removal]:
    """The names whose newest definition event in each file, in `log` (a log of
    GitRepo's start_commits_log, newest commit first), is a removal (fold_removals)."""
    events = commit_events(log)
    return fold_removals(events, events, repo)


# A commit's definition events: its subject, and (name, "+" or "-", path) in the order
# of its diff, one for each name and file: "+" when the commit adds a definition of the
# name there, whatever it removes (a signature rewritten is - then +), else "-".
CommitEvents = tuple[str, list[tuple[str, str, str]]]


def commit_events(log: str) -> dict[str, CommitEvents]:
    """Each commit's definition events in `log` (a `git log -p -U0` of GitRepo's
    start_commits_log), by sha, in the log's order. They depend on that commit alone,
    so they are cached by sha (_EVENTS_KEY): a repo that moved by a few commits has
    only those logged again."""
    out: dict[str, CommitEvents] = {}
    readable: dict[str, bool] = {}  # by path: many commits touch the same files
    # A commit's record is its sha and subject, then a section per file pair (a NUL,
    # or a line starting "diff --git ", occurs nowhere else: diff lines start with +,
    # -, @ or a backslash).
    for record in log.split("\0")[1:]:
        header, _, body = record.partition("\n")
        sha, _, subject = header.partition(" ")
        signs: dict[tuple[str, str], str] = {}  # (name, path) -> sign, in the diff's order
        for section in body.split("\ndiff --git ")[1:]:
            first, _, diff = section.partition("\n")
            path = first.rsplit(" b/", 1)[-1]
            # Only files anchorcheck reads: a test's expected output losing `data Foo`
            # is no removal. (Filtered here: 100 pathspecs made git's log 1.7x slower.)
            ok = readable.get(path)
            if ok is None:
                ok = readable[path] = language_of(path) is not None
            if not ok:
                continue
            found = _events(diff)
            if path.endswith(_C_SOURCES):
                found = _with_c_functions(diff, found)
            for start, name, assigned in found:
                # A removed `name = ...` only counts for a constant (NAME = ...): lower-
                # case module-level bindings (`numpy = importorskip(...)`) come and go.
                if assigned and not (name.isupper() or "::" in _line_at(diff, start)):
                    continue
                if signs.get((name, path)) != "+":
                    signs[(name, path)] = diff[start]
        out[sha] = (subject, [(name, sign, path) for (name, path), sign in signs.items()])
    return out


def fold_removals(order: Iterable[str], events: Mapping[str, CommitEvents], repo: str) -> dict[str, Removal]:
    """The names whose newest event in every file is a removal, over these commits'
    events, newest commit first, each with the newest of those removals.

    By file, not by name: a function moved to another file (added there, removed here
    later), or one of several files' definitions removed, is still defined. Judged by
    name alone, GHC's 250 commits made 17 candidates of the bench's mentions, every
    one still defined, and each cost a search of every repo; by file, 2."""
    removed: dict[str, Removal] = {}
    alive: set[str] = set()  # names some file's newest event defines
    decided: set[tuple[str, str]] = set()  # (name, path): newest first, the first event decides
    for sha in order:
        subject, happened = events[sha]
        for name, sign, path in happened:
            if (name, path) in decided:
                continue
            decided.add((name, path))
            if sign == "+":
                alive.add(name)
            elif name not in removed:
                removed[name] = Removal(repo, sha, subject, path)
    return {k: v for k, v in removed.items() if k not in alive}


def _events(diff: str) -> list[tuple[int, str, bool]]:
    """What _EVENT.finditer(diff) finds, in order, as (where its line starts: at its
    sign, the name, whether it is assigned): on each +/- line but the file headers, a
    keyword's definition (the first on the line), or else an assignment or signature
    opening the line. _EVENT tried its keywords at every character of every such line
    (0.15 s of GHC's 250 commits); here each keyword is found by str.find and the
    definition matched only there, and the assignments by a search that starts with a
    line break. (A hypothesis test compares the two.)"""
    firsts: dict[int, tuple[int, str]] = {}  # line start -> (the keyword's offset, name)
    for word in KEYWORD_LIST:
        i = diff.find(word)
        while i >= 0:
            m = _KEYWORD_DEFINITION.match(diff, i)
            if m is not None:
                start = diff.rfind("\n", 0, i) + 1
                if diff[start] in "+-" and not diff.startswith(("+++", "---"), start) \
                        and _COMMENT_LINE.match(diff, start + 1) is None:
                    first = firsts.get(start)
                    if first is None or i < first[0]:
                        firsts[start] = (i, m.group("a"))
            i = diff.find(word, i + 1)
    events = [(start, name, False) for start, (_, name) in firsts.items()]
    at_start = _ASSIGNED_FIRST.match(diff)
    for m in itertools.chain((at_start,) if at_start is not None else (), _ASSIGNED.finditer(diff)):
        start = m.start("sign")
        if start not in firsts:
            events.append((start, m.group("b"), True))
    events.sort()
    return events


# C and C++ sources, where a function is defined with no keyword: its types, then its
# name at the start of a line (`void hashTypeSetExDone(HashTypeSetEx *ex) {`, a
# prototype). At least one type word must come first: a call at the start of a line
# (`TEST(Suite, Case) {`, `module_init(f);`) defines nothing here. Java's and C#'s
# methods stand indented in their class, so only these extensions. Indented too: a
# function in an `extern "C" {` or a namespace block clang-format indents (miniz's
# whole API was reported removed by its "Format code with clang-format" commit).
_C_SOURCES = (".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx")
_C_FUNCTION = compiled_on_use(
    r"^(?!\+\+\+|---)(?P<sign>[-+])[ \t]*(?!(?:return|else|case|goto|typedef|do|new|throw)\b)"
    r"[A-Za-z_][\w \t*&:<>,]*?[ \t*&](?P<name>[A-Za-z_]\w*)[^\S\n]*\(",
    re.MULTILINE | re.ASCII,
)
_C_NOT_NAMES = frozenset({"if", "for", "while", "switch", "return", "sizeof", "defined", "case"})


def _with_c_functions(diff: str, found: list[tuple[int, str, bool]]) -> list[tuple[int, str, bool]]:
    """`found` (_events' answer) with the C-style functions: redis's removed functions
    were no removal events (its comments still naming them could not be AC203). On a
    line with both, the function is what it defines (`struct s *mk(int a)` is mk)."""
    functions = {m.start(): m.group("name") for m in _C_FUNCTION.finditer(diff)
                 if m.group("name") not in _C_NOT_NAMES}
    if not functions:
        return found
    by_line = {start: (start, name, assigned) for start, name, assigned in found}
    by_line.update((start, (start, name, False)) for start, name in functions.items())
    return sorted(by_line.values())


def _line_at(text: str, start: int) -> str:
    """The line starting at `start`, without its line break."""
    end = text.find("\n", start)
    return text[start:] if end < 0 else text[start:end]


# A diff line that adds (+) or removes (-) a definition: `def name`, `NAME = `,
# `name ::`; the file headers (+++, ---) are not. The first match on a line decides,
# and none spans lines (`[^\S\n]`).
# _EVENT's parts, as _events finds them: its keywords one by one, the definition
# where one stands, and an assignment or signature opening a +/- line (after a line
# break; or at the very start, _ASSIGNED_FIRST, searched only there).
_KEYWORD_DEFINITION = compiled_on_use(
    rf"\b{KEYWORDS.replace('(', '(?:', 1)}[^\S\n]+(?P<a>[A-Za-z_$][\w$]*)(?![\w$])")
_ASSIGNED_LINE = r"(?!\+\+\+|---)(?P<sign>[-+])(?P<b>[A-Za-z_][A-Za-z0-9_]*)[^\S\n]*(?:=[^=\n]|::)"
_ASSIGNED = compiled_on_use(rf"\n{_ASSIGNED_LINE}")
_ASSIGNED_FIRST = compiled_on_use(_ASSIGNED_LINE)
# A line that is a comment: its keywords are prose ("done by function
# hashTypeSetExDone()" in a C comment removed by a redis commit was a removal).
_COMMENT_LEADERS = r"[^\S\n]*(?:#|//|/\*|\*|--|;|\{-)"
_COMMENT_LINE = compiled_on_use(_COMMENT_LEADERS)
_EVENT = compiled_on_use(
    rf"^(?!\+\+\+|---)(?P<sign>[-+])(?:(?!{_COMMENT_LEADERS}).*?\b{KEYWORDS.replace('(', '(?:', 1)}[^\S\n]+"
    r"(?P<a>[A-Za-z_$][\w$]*)(?![\w$])|(?P<b>[A-Za-z_][A-Za-z0-9_]*)[^\S\n]*(?:=[^=\n]|::))",
    re.MULTILINE,
)
