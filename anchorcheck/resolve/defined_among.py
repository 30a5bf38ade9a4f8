"""Which of AC203's candidates something still defines (DefinedAmong): one `git grep`
per repo for the lines naming them, the definition shapes (definition_shapes.py)
matched on those lines here, each commit's answers cached, and a repo that moved asked
only about the files changed since. Its own room: the cache entries, the joined lines
and the name-by-name matching are a search of today's trees, apart from the history
(history.py) that makes the candidates."""

from __future__ import annotations

import itertools
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from operator import itemgetter

from anchorcheck.extract.languages import READ_PATHSPECS
from anchorcheck.git.repo import GitRepo, NameSearch
from anchorcheck.index.cache import BlobCache
from anchorcheck.resolve.definition_shapes import KEYWORD_LIST, names_defined_in
from anchorcheck.resolve.moved import SEARCHED, last_entry, search_changed


class DefinedAmong:
    """Which of `names` something defines in some repo. Only lines holding one of the
    names are asked of git (through `search`, a NameSearch its owner starts: one `git
    grep` per repo, all at once, in the background), and the definition shapes are
    matched on them here: listing every name defined in GHC took git 1-1.2 s, the few
    lines naming a handful of candidates 0.5-0.6 s. What each commit was asked and
    what it defines is cached, so a later run asks git only for names new to that
    commit.

    A name is asked of the repos in turn until one defines it, so a repo's entry also
    keeps the names it was spared because an earlier repo defined them ("settled").
    After one repo moved, those are asked of the unchanged repos only if the moved
    repo no longer defines them (a second round of searches, in result()): asked of
    them at once, as new names are, every unchanged repo was searched again (the bench
    workspace with networkx moved by a commit: eight greps, GHC's 0.8 s of CPU).

    A repo that moved is not searched whole for the names asked at its last commit
    (_moved_entry): each entry keeps a few files that define each name it defines
    (all of them, when they are few), and the files changed since are all that can
    change an answer. A name still defined by one that did not change is defined; the
    others are asked of the changed files only. Only a name more files defined than
    were kept, whose kept files all changed and no longer define it, is searched for
    in every file, in the second round (git/git moved by ten files: its 0.4 s search
    of every file, the longest step of a nightly run, went)."""

    def __init__(
        self, gits: Mapping[str, GitRepo], commits: Mapping[str, str], names: list[str],
        known_defined: Mapping[str, frozenset[str]], cache: BlobCache | None, search: NameSearch,
    ) -> None:
        self._gits, self._commits, self._cache, self._search = gits, commits, cache, search
        self._wanted = wanted = set(names)
        self._defined: set[str] = set()
        self._stored: dict[str, _Entry] = {}  # repo -> its entry, as read (or derived)
        self._new: dict[str, list[str]] = {}  # repo -> names asked of it now
        self._later: dict[str, list[str]] = {}  # repo -> settled names, asked only if still needed
        # repo -> the names asked of the files changed since its last entry only, those
        # of them more files defined than were kept (searched for in every file if the
        # changed files no longer define them), and the search of those files
        self._changed: dict[str, tuple[list[str], set[str], NameSearch | None]] = {}
        self._derived: set[str] = set()  # repos whose entry was derived: stored even if nothing is asked
        for repo, git in gits.items():
            known = known_defined.get(repo)
            if known is not None:  # came with an index file
                self._defined |= known & wanted
                continue
            stored = _asked(cache, commits[repo])
            in_changed: list[str] = []
            if stored is None:
                moved = _moved_entry(cache, repo, git, commits[repo])
                if moved is not None:
                    stored, asked_again, recheck, changed = moved
                    self._derived.add(repo)
                    in_changed = sorted(wanted & asked_again)
                    self._changed[repo] = (in_changed, recheck, search_changed(
                        repo, git, commits[repo], in_changed, changed) if in_changed and changed else None)
            stored = self._stored[repo] = stored or _Entry()
            self._defined |= wanted & set(stored.defined)
            unknown = wanted - set(stored.asked) - set(in_changed)
            new = sorted(unknown - set(stored.settled))
            self._later[repo] = sorted(unknown & set(stored.settled))
            if new:
                search.want(repo, git, commits[repo], new)
                self._new[repo] = new

    def result(self) -> set[str]:
        asked: dict[str, set[str]] = {repo: set() for repo in self._stored}
        # repo -> name -> the files found defining it, and whether they are all
        found: dict[str, dict[str, tuple[list[str], bool]]] = {repo: {} for repo in self._stored}
        try:
            changed = {repo: (names, search.lines(repo) if search is not None else [], recheck)
                       for repo, (names, recheck, search) in self._changed.items()}
        finally:
            for _, _, search in self._changed.values():
                if search is not None:
                    search.cancel()
        self._round({repo: (names, self._search.lines(repo), set()) for repo, names in self._new.items()},
                    asked, found, changed)
        # The settled names no repo defines any more, asked of the repos that were spared
        # them; and the names more of a moved repo's files defined than were kept, those
        # no longer defining them, nor the changed files, nor any repo: asked of its
        # every file.
        again = {repo: [n for n in later if n not in self._defined] for repo, later in self._later.items()}
        for repo, (_, recheck, _) in self._changed.items():
            again[repo] = sorted({*again.get(repo, ()), *(n for n in recheck & self._wanted
                                                         if n not in self._defined)})
        again = {repo: names for repo, names in again.items() if names}
        if again:
            search = NameSearch(READ_PATHSPECS)
            try:
                for repo, names in again.items():
                    search.want(repo, self._gits[repo], self._commits[repo], names)
                search.start()
                self._round({repo: (names, search.lines(repo), set()) for repo, names in again.items()},
                            asked, found)
            finally:
                search.cancel()
        for repo, stored in self._stored.items():
            if self._cache is None or not (asked[repo] or self._wanted - set(stored.asked)
                                           or repo in self._derived):
                continue
            done = {*stored.asked, *asked[repo]}
            self._cache.put_results([
                (_asked_key(self._commits[repo]), {
                    "asked": sorted(done),
                    "defined": sorted({*stored.defined, *found[repo]}),
                    # Every candidate not asked of it was defined by another repo.
                    "settled": sorted({*stored.settled, *self._wanted} - done),
                    "files": {**stored.files, **{n: paths for n, (paths, _) in found[repo].items()}},
                    "all-files": sorted({*(n for n in stored.complete if n not in found[repo]),
                                         *(n for n, (_, every) in found[repo].items() if every)}),
                }),
                (_last_asked_key(repo), self._commits[repo]),
            ])
        self._new, self._later, self._changed = {}, {}, {}
        return self._defined

    def _round(
        self, searched: Mapping[str, tuple[list[str], list[tuple[str, int, str]], set[str]]],
        asked: dict[str, set[str]], found: dict[str, dict[str, tuple[list[str], bool]]],
        changed: Mapping[str, tuple[list[str], list[tuple[str, int, str]], set[str]]] | None = None,
    ) -> None:
        """Name by name, repo by repo (in the workspace's order), stopping at the first
        repo defining it: a name is asked of the other repos only while none defines
        it. A repo is asked the names `searched` (its lines from a search of every
        file) or `changed` (from a search of the files changed since its last entry)
        holds for it, each with the names of those that are not asked of it unless
        its lines define them (`partly`: the files that did not change may). Each
        repo's lines joined (none holds a line break): a name is looked for by
        str.find through them all, not line by line in Python."""
        asking = [(repo, names, _Lines(lines), partly) for ask in (searched, changed or {})
                  for repo, (names, lines, partly) in ask.items() if names]
        order = list(self._gits)
        asking.sort(key=lambda a: order.index(a[0]))  # (a moved repo may be in both, other names in each)
        for name in sorted({name for _, names, _, _ in asking for name in names} - self._defined):
            for repo, names, lines, partly in asking:
                if name not in names:
                    continue
                paths, every = lines.defining(name)
                if paths or name not in partly:
                    asked[repo].add(name)
                if paths:
                    found[repo][name] = (paths, every and name not in partly)
                    self._defined.add(name)
                    break


@dataclass(frozen=True, slots=True)
class _Entry:
    """What one commit of a repo was asked (AC203), as cached: the names, those it
    defines, each with the first few files that do (_FILES_KEPT), the names for which
    those are every file that does, and those it was spared because another repo
    defined them."""

    asked: tuple[str, ...] = ()
    defined: tuple[str, ...] = ()
    settled: tuple[str, ...] = ()
    files: dict[str, list[str]] = field(default_factory=dict)  # defined name -> files defining it
    complete: frozenset[str] = frozenset()  # names whose files are every one defining them


class _Lines:
    """A search's lines joined, asked which files define a name."""

    def __init__(self, lines: Sequence[tuple[str, int, str]]) -> None:
        self._long_names: dict[int, frozenset[str]] = {}  # by line start (_LONG_LINE)
        texts = list(map(itemgetter(2), lines))
        at = 0
        for k, text in enumerate(texts):
            if len(text) > _LONG_LINE:
                names = frozenset(names_defined_in(text))
                texts[k] = text = " ".join(sorted(names))
                self._long_names[at] = names
            at += len(text) + 1
        self._lines = lines
        self._texts = texts
        self._text = "\n".join(texts)
        self._starts: list[int] | None = None

    def defining(self, name: str) -> tuple[list[str], bool]:
        """The first few files (_FILES_KEPT) with a line defining `name`, in the lines'
        order (none when no line does), and whether they are all that have one."""
        out: list[str] = []
        at = _defining_line(name, self._text, long_names=self._long_names)
        while at >= 0:
            if self._starts is None:
                self._starts = [0, *itertools.accumulate(len(text) + 1 for text in self._texts)]
            k = bisect_right(self._starts, at) - 1
            path = self._lines[k][0]
            out.append(path)
            while k < len(self._lines) and self._lines[k][0] == path:
                k += 1  # on from the next file's first line
            # (The first file is found however far it is: the answer. The others, only
            # as far as a few lines more: a name such as `main` is on thousands, and
            # reading them all, twice the time of finding the first, was ~0.1 s more
            # at the end of a cold run of the history corpus.)
            at = -1 if k == len(self._lines) else _defining_line(name, self._text, self._starts[k],
                                                                  _LINES_FURTHER, self._long_names)
            if at == -2 or (at >= 0 and len(out) == _FILES_KEPT):
                return out, False
        return out, True


# Files kept for each name a commit defines: a moved repo need not search for a name
# again while one of them did not change (on git/git, the bench's commit touching ten
# files changed the first file found defining `path`).
_FILES_KEPT = 4
# Lines holding a name read past the first file defining it, to find the others.
_LINES_FURTHER = 64


def _moved_entry(
    cache: BlobCache | None, repo: str, git: GitRepo, commit: str,
) -> tuple[_Entry, set[str], set[str], list[str]] | None:
    """What the entry of the commit this repo was last asked at tells of `commit`: the
    names defined by a file that did not change since (known: defined); the names
    asked there that no file defined, or only files that changed (to be asked of the
    changed files); those of them more files defined than were kept (the files that
    did not change may define them); and the changed files (as git grep names them).
    None when there is no such entry, or git cannot tell what changed."""
    found = last_entry(cache, _last_asked_key(repo), lambda last: _asked(cache, last), git, commit)
    if found is None:
        return None
    before, changed = found
    gone = set(changed)
    kept = {name: still for name, paths in before.files.items()
            if (still := [p for p in paths if p not in gone])}
    names = tuple(sorted(kept))
    again = set(before.asked) - set(kept)
    # (The files kept for a name still defined are not all once others may define it.)
    return (_Entry(names, names, before.settled, kept), again, again & set(before.defined) - before.complete,
            changed)


def _defining_line(name: str, lines: str, pos: int = 0, lines_read: int = -1,
                   long_names: dict[int, frozenset[str]] | None = None) -> int:
    """Where the first of the lines (joined by line breaks) from `pos` on that defines
    `name` starts (names_defined_in; -1: none does; its matches never span a line); with
    `lines_read`, -2 when that many lines holding the name were read first; a line
    starting at a key of `long_names` defines the names there.
    Name by name, stopping at the first definition:
    candidates are often common words with thousands of lines ("nodes", "error"),
    defined on an early one; matching every line, which no literal of the pattern
    starts, cost a cold run 0.2 s. Only the lines holding the name are matched, found
    by str.find (testing each line for it in Python was 0.08 s of a cold run's end)."""
    i = lines.find(name, pos)
    keyword = name in _DEFINING_WORDS
    while i >= 0:
        if lines_read == 0:
            return -2
        lines_read -= 1
        start = lines.rfind("\n", 0, i) + 1
        end = lines.find("\n", i)
        if end < 0:
            end = len(lines)
        line = lines[start:end]
        names = long_names.get(start) if long_names else None
        if names is not None:
            if name in names:
                return start
        elif (keyword or _may_define(line, name, i - start)) and name in names_defined_in(line):
            return start
        i = lines.find(name, end)
    return -1


# A line this long is minified code (1.7 MB MathJax bundles in metallb's vendored
# theme, 41 MB of lines in all): it holds hundreds of the names asked, and matching it
# whole again for each of them made a cold run of set 20 take 213 s, 184 of them here;
# finding each name in its text, 8 s more. Its names are matched once, and it is read
# as the names it defines (_Lines: long_names, by the line's start).
_LONG_LINE = 4096


# The words names_defined_in's keywords are (a name that is one is always matched), and
# the blanks `[^\S\n]` stands for in ASCII.
_DEFINITION_KEYWORDS = (*KEYWORD_LIST, "const", "let", "var")
_DEFINING_WORDS = frozenset((*_DEFINITION_KEYWORDS, "import", "from"))
_BLANKS = " \t\r\x0b\x0c"
_IDENT_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")


def _may_define(line: str, name: str, at: int) -> bool:
    """Whether `line` may define `name` (not a keyword), its first occurrence at `at`:
    a test names_defined_in's every match passes, so that it runs only on the few lines
    that may. Most lines naming a candidate only use it (GHC's hold "error" 4,839 times,
    "args" 5,321); matching the pattern on each of them was ~40 ms after git's search
    of GHC, when nothing else is left to run. A definition of `name` opens the line
    (`name =`, `name ::`), follows a keyword and blanks (`data name`), or is an import
    line's; a hypothesis test compares the answers with names_defined_in's alone."""
    if at == 0 or "import" in line or "define" in line or (line[:1] in _IDENT_START and "(" in line):
        return True  # (the last: a C-style function may start the line; matched whole)
    indented = line[:1] in _BLANKS
    while at >= 0:
        before = line[:at]
        gap = before.rstrip(_BLANKS)
        if len(gap) < len(before) and gap.endswith(_DEFINITION_KEYWORDS):
            return True
        if indented and line[at + len(name):].lstrip(_BLANKS).startswith("("):
            return True  # an indented C-style function (matched whole)
        at = line.find(name, at + 1)
    return False


def _asked_key(commit: str) -> str:
    # v2: with the names settled by other repos; v3: with the files defining each name;
    # v4: C macros (`#define RMATCH(...)`) define their names; v5: Go methods; v6:
    # indented C functions
    return f"defined-among:v6:{SEARCHED}:{commit}"


def _last_asked_key(repo: str) -> str:
    """The commit `repo` was last asked at (its entry is where a moved repo starts)."""
    return f"defined-among-last:{SEARCHED}:{repo}"


_ENTRY_KEYS = {"asked", "defined", "settled", "files", "all-files"}


def _asked(cache: BlobCache | None, commit: str) -> _Entry | None:
    """The names asked of this commit so far, those of them it defines (each with the
    files found defining it), and those it was spared because another repo defined them;
    None when it was asked nothing (or its entry is not what this version writes)."""
    stored = cache.get_result(_asked_key(commit)) if cache is not None else None
    if not (isinstance(stored, dict) and set(stored) == _ENTRY_KEYS):
        return None
    lists = [stored["asked"], stored["defined"], stored["settled"], stored["all-files"]]
    files = stored["files"]
    if not (all(isinstance(v, list) and all(isinstance(n, str) for n in v) for v in lists)
            and isinstance(files, dict) and set(files) == set(stored["defined"])
            and all(isinstance(v, list) and v and all(isinstance(p, str) for p in v)
                    for v in files.values())):
        return None
    return _Entry(tuple(stored["asked"]), tuple(stored["defined"]), tuple(stored["settled"]),
                  {name: list(paths) for name, paths in files.items()}, frozenset(stored["all-files"]))
