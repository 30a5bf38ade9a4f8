"""History mining for AC203: code-shaped mentions of names that nothing defines any
more, but that the repos' git history shows were defined, and removed when.

Both questions go to git in bulk, never per name. One `git log -p` per repo (over at
most `history-depth` commits, newest first, roots left out) shows the diffs, in which
the lines adding or removing a definition are found here. A name is removed when, in
every file where history saw it defined or removed, the newest such event is a removal
(a commit that both removes and adds it in one file rewrote it there); its mentions
are then candidates. Only when there are candidates, one `git grep` per repo finds
the lines naming them, and the definition shapes are matched on those lines
(names_defined_in); candidates defined nowhere are findings. Both look only at files
anchorcheck reads (languages.py): a test's expected output or a document that shows
`data Foo` neither removes nor defines Foo. Both answers are cached by commit (the
second with the names asked), and each commit's definition events by its sha, so a
repo that moved has only its new commits logged.
"""

from __future__ import annotations

import itertools
import re
import sys
from bisect import bisect_right
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from operator import itemgetter

from anchorcheck.config.workspace import Workspace
from anchorcheck.extract.languages import READ_PATHSPECS, in_tests, language_of
from anchorcheck.extract.locations import copied_path
from anchorcheck.extract.scanners import scan
from anchorcheck.git.output import PATH_ERRORS
from anchorcheck.git.process import Background
from anchorcheck.git.repo import GitRepo, NameSearch
from anchorcheck.index.cache import BlobCache
from anchorcheck.model.snapshot import Mention
from anchorcheck.patterns import compiled_on_use
from anchorcheck.resolve.moved import SEARCHED, last_entry, search_changed
from anchorcheck.resolve.workspace_index import WorkspaceIndex
from anchorcheck.threads import InThread

_KEYWORDS = r"(def|class|func|fn|function|struct|enum|trait|interface|type|data|newtype|macro|module)"
_KEYWORD_LIST = tuple(_KEYWORDS[1:-1].split("|"))
_IDENT = compiled_on_use(r"[A-Za-z_$][A-Za-z0-9_$]*")


@dataclass(frozen=True, slots=True)
class Removal:
    """The commit that removed a name's last definition."""

    repo: str
    commit: str
    subject: str
    path: str


def _names(text: str, removal: Removal) -> bool:
    """Whether the text around a mention names the repo or the file a removal was in."""
    base = removal.path.rpartition("/")[2]
    return any(re.search(rf"(?<![\w.-]){re.escape(word)}(?![\w-])", text)
               for word in (removal.repo, base) if word)


@dataclass(frozen=True, slots=True)
class RemovedMention:
    """A mention of a name that a commit removed and nothing defines now (AC203)."""

    mention: Mention
    removal: Removal


# name -> [repo, sha, subject, path] of the commit that removed its last definition
RemovalTable = dict[str, list[str]]


class RemovedMentions:
    """AC203's search, started: made as soon as the crawl is done, it reads the removal
    tables and starts git's searches for today's definitions of the candidates, which
    then run while this process resolves and verifies; result() collects them.

    History first: one `git log -p` per repo (cached by commit) says which names lost a
    definition lately; only mentions of those names are candidates. Only when there are
    some is git asked which of them are still defined (_DefinedAmong). Removal tables
    and definitions may come with index files instead, and a repo's `git log` may have
    been started already (start_history; `started`, by repo)."""

    def __init__(
        self, workspace: Workspace, index: WorkspaceIndex, depth: int, cache: BlobCache | None = None,
        known: Mapping[str, RemovalTable] | None = None,
        known_defined: Mapping[str, frozenset[str]] | None = None,
        started: Mapping[str, ParsedLog] | None = None,
        search: NameSearch | None = None,
    ) -> None:
        """`search`, when given, is asked for the candidates (and started by the
        caller, who may have asked it for more names); else one of its own is."""
        # name -> repo -> the removal its history shows: a mention is matched with its
        # own repo's, or with another repo's that its line names (by the repo's name or
        # the file's): GHC's `// for memmove()` is no finding for bytestring's history;
        # "submit_ingestion_run.py:_healthz_report()" in a chart is one for the runtime's.
        # (anchorcheck: ignore[AC105]: examples, not citations)
        self._removals: dict[str, dict[str, Removal]] = defaultdict(dict)
        self._mentions: dict[str, list[Mention]] = defaultdict(list)
        self._defined: _DefinedAmong | None = None
        self._own: NameSearch | None = None  # a search this one started, to cancel
        self._workspace, self._index = workspace, index
        if depth <= 0:
            return
        known = known or {}  # removal tables that came with an index file, by repo
        for snap in index.snapshots.values():
            for mention in snap.mentions:
                self._mentions[mention.name].append(mention)
        if not self._mentions:
            return
        gits = {r.name: GitRepo(r.path) for r in workspace.repos if r.name in index.snapshots}
        for name, git in gits.items():
            found = known.get(name)
            if found is None:
                found = repo_removals(git, name, index.snapshots[name].commit, depth, cache,
                                      (started or {}).get(name))
            for key_name in self._mentions.keys() & found.keys():
                repo, sha, subject, path = found[key_name]
                self._removals[key_name][name] = Removal(str(repo), str(sha), str(subject), str(path))
        if self._removals:
            commits = {name: index.snapshots[name].commit for name in gits}
            if search is None:
                search = self._own = NameSearch(READ_PATHSPECS)
            self._defined = _DefinedAmong(gits, commits, sorted(self._removals), known_defined or {}, cache,
                                          search)
            if self._own is not None:
                self._own.start()

    def result(self) -> list[RemovedMention]:
        if self._defined is None:
            return []
        defined = self._defined.result()
        found: list[RemovedMention] = []
        elsewhere: list[tuple[Mention, list[Removal]]] = []
        for name in sorted(self._removals):
            if name in defined:
                continue
            by_repo = self._removals[name]
            for m in self._mentions[name]:
                if m.repo in by_repo:
                    found.append(RemovedMention(m, by_repo[m.repo]))
                else:
                    elsewhere.append((m, sorted(by_repo.values(), key=lambda r: r.repo)))
        from anchorcheck.resolve.verify import read_files

        if elsewhere:
            files = read_files(self._workspace, self._index, {(m.repo, m.path) for m, _ in elsewhere})
            for m, removals in elsewhere:
                held = files.get((m.repo, m.path))
                text = "\n".join(held.lines[max(0, m.line - 2):m.line + 1] if held is not None else [])
                named = next((r for r in removals if _names(text, r)), None)
                if named is not None:
                    found.append(RemovedMention(m, named))
        # A test's own helper (starlight's `renderMarkdown` in one test file) is no name
        # a comment elsewhere means: theirs is the framework's API of that name. Nor is
        # a vendored copy's (libgit2's deps/pcre took `longjmp` with it): the workspace's
        # own code names the library's.
        found = [f for f in found if not (in_tests(f.removal.path) or copied_path(f.removal.path))
                 or (f.mention.repo, f.mention.path) == (f.removal.repo, f.removal.path)]
        # A name its old home still spells in quotes is still served by that name:
        # a module's `__getattr__` (PEP 562: click's deprecated `get_text_stream`), an
        # `__all__`, a registry or a deprecation shim.
        homes = read_files(self._workspace, self._index, {(f.removal.repo, f.removal.path) for f in found})
        found = [f for f in found if (home := homes.get((f.removal.repo, f.removal.path))) is None
                 or not any(f"{q}{f.mention.name}{q}" in home.text for q in "\"'")]
        # A name its own file still calls is defined, where no pattern saw it: by a
        # library (libzmq's `int rc = sodium_init ();` under the comment naming it, a
        # removed copy's name) or a bundle (`.show()`, jQuery's, in a Doxygen page's
        # script); so is a name the standard library qualifies (`os.path.isfile()` in
        # sphinx's ruff config). (Only the mentioning files are read: a search of every
        # file for each run's reported names would undo what _DefinedAmong saves.)
        texts = read_files(self._workspace, self._index, {(f.mention.repo, f.mention.path) for f in found})
        found = [f for f in found if (held := texts.get((f.mention.repo, f.mention.path))) is None
                 or not _still_called(held.text, f.mention)]
        return sorted(found, key=lambda f: (f.mention.name, f.mention.repo, f.mention.path, f.mention.line))

    def cancel(self) -> None:
        if self._own is not None:
            self._own.cancel()


# Files whose lines are no code: a call shape there is prose.
_PROSE = frozenset({"markdown", "yaml", "toml", "ini"})
# A mention's qualifier: a dotted name it starts with (`os.path.isfile()`), or one
# written before it.
_QUALIFIED = re.compile(r"([A-Za-z_][\w.]*)\.([A-Za-z_]\w*)")
_QUALIFIER = re.compile(r"([A-Za-z_][\w.]*)\.$")


def _still_called(text: str, mention: Mention) -> bool:
    """Whether the file mentioning a removed name still calls it in its code (`name(`
    outside its comments and docstrings, as the scanner reads them, on another line than
    the mention's), or its mention is
    qualified by a standard library module's name (`os.path.isfile()`)."""
    lines = text.split("\n")
    said = lines[mention.line - 1] if 0 < mention.line <= len(lines) else ""
    at = mention.col  # (0-based: the mention's start, its qualifier's where it has one)
    qualified = _QUALIFIED.match(said, at + (said[at:at + 1] == "`"))
    if qualified is None or qualified.group(2) != mention.name:
        qualified = _QUALIFIER.search(said[:at].rstrip("`"))
    if qualified is not None and qualified.group(1).partition(".")[0] in sys.stdlib_module_names:
        return True
    language = language_of(mention.path)
    if language is None or language in _PROSE:
        return False  # (a page's `WithReportFocus()` is prose: an upgrade guide's record)
    call = re.compile(rf"(?<![\w$]){re.escape(mention.name)}\s*\(")
    commented: dict[int, list[tuple[int, int]]] | None = None  # line -> comment text's columns
    for number, line in enumerate(lines, 1):
        if mention.name in line and number != mention.line:
            for m in call.finditer(line):
                if commented is None:
                    commented = defaultdict(list)
                    for comment in scan(text, language):
                        for cl in comment.lines:
                            commented[cl.line].append((cl.col, cl.col + len(cl.text)))
                if not any(a <= m.start() < b for a, b in commented.get(number, ())):
                    return True
    return False


class _DefinedAmong:
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


def repo_removals(
    git: GitRepo, repo: str, commit: str, depth: int, cache: BlobCache | None = None,
    started: ParsedLog | None = None,
) -> RemovalTable:
    """The removal table of one repo at one commit, cached by commit (from the log
    `started` earlier, if given)."""
    key = _removals_key(commit, depth)
    found = cache.get_result(key) if cache is not None else None
    if isinstance(found, dict) and all(isinstance(v, list) and len(v) == 4 for v in found.values()):
        return {str(k): [str(x) for x in v] for k, v in found.items()}
    log = started if started is not None else start_parsed_log(git, repo, commit, depth, cache)
    table = {k: [r.repo, r.commit, r.subject, r.path] for k, r in log.result().items()}
    if cache is not None:
        cache.put_results([*((_EVENTS_KEY + sha, [subject, [list(e) for e in events]])
                             for sha, (subject, events) in log.fresh().items()), (key, table)])
    return table


def _removals_key(commit: str, depth: int) -> str:
    # v2: code files only; v3: the commits as history_commits lists them; v4: by file;
    # v5: no keyword in a comment line, C-style functions defined; v6: C-style removals
    return f"removals:v6:{commit}:{depth}"


class ParsedLog:
    """A repo's `git log` for AC203, started in the background and parsed in a thread
    as soon as git is done. It is done early in the crawl, whose main thread mostly
    waits for its workers; parsed after the crawl (0.2-0.25 s for GHC's 250 commits),
    it stood between the crawl and the name searches, which need the removal tables.
    (The extraction pool forks while this thread runs: it waits for git or parses text,
    holding no lock a worker takes; a forked worker runs no thread of this one.)

    With `order` (the commits whose events decide, newest first) and `known` (the
    events of some of them, from the cache), `log` holds only the others'."""

    def __init__(
        self, repo: str, log: Background | None,
        order: Sequence[str] | None = None, known: Mapping[str, CommitEvents] | None = None,
    ) -> None:
        """`log` is None when there is nothing (more) to read (start_commits_log): the
        table comes from `known`, and nothing asks git again."""
        self._repo = repo
        self._log = log
        self._order = order
        self._known = dict(known or {})
        self._parse = InThread(_parse_log, log) if log is not None else None

    def fresh(self) -> dict[str, CommitEvents]:
        """The events read from git (not known before), by sha: for the cache."""
        return self._parse.result() if self._parse is not None else {}

    def result(self) -> dict[str, Removal]:
        events = {**self._known, **self.fresh()}
        order = self._order if self._order is not None else list(events)
        # (A commit git could not show, its log having failed, has no events.)
        return fold_removals([sha for sha in order if sha in events], events, self._repo)

    def cancel(self) -> None:
        if self._log is None or self._parse is None:
            return
        self._log.kill()  # git stops, the thread's wait returns and it finishes
        self._parse.join()
        self._log.cancel()


def _parse_log(log: Background) -> dict[str, CommitEvents]:
    out = log.output()
    return commit_events("" if out is None else out.decode(errors=PATH_ERRORS))


# + a commit's sha: its CommitEvents, stored as [subject, [[name, sign, path], ...]]
_EVENTS_KEY = "history-events:v4:"  # v2: one event per name and file; v3: no comment lines; v4: C functions


def _cached_events(cache: BlobCache | None, shas: Sequence[str]) -> dict[str, CommitEvents]:
    """The events of these commits the cache holds (well formed), by sha."""
    if cache is None or not shas:
        return {}
    out: dict[str, CommitEvents] = {}
    for key, value in cache.get_results(_EVENTS_KEY + sha for sha in shas).items():
        if (isinstance(value, list) and len(value) == 2 and isinstance(value[0], str)
                and isinstance(value[1], list)
                and all(isinstance(e, list) and len(e) == 3 and all(isinstance(x, str) for x in e)
                        and e[1] in ("+", "-") for e in value[1])):
            out[key.removeprefix(_EVENTS_KEY)] = (value[0], [(e[0], e[1], e[2]) for e in value[1]])
    return out


def start_parsed_log(
    git: GitRepo, repo: str, commit: str, depth: int, cache: BlobCache | None,
    listed: Background | None = None,
) -> ParsedLog:
    """The log of the history's commits whose events the cache does not hold, started
    (from the commit list `listed` earlier, if given)."""
    order = git.history_commits(commit, depth, listed)
    known = _cached_events(cache, order)
    log = git.start_commits_log([sha for sha in order if sha not in known])
    return ParsedLog(repo, log, order, known)


def start_history(
    workspace: Workspace, commits: Mapping[str, str], depth: int, cache: BlobCache | None,
) -> dict[str, ParsedLog]:
    """Start, in the background, the `git log` of every repo (of `commits`: name ->
    commit) whose removal table is not cached yet and which has history to search. It
    needs only the commit, so it is started as soon as the refs are resolved, before
    the crawl reads anything: one single-threaded process per repo, it runs on the core
    the crawl leaves idle while it lists trees and beside the scanning, and is done by
    the time the candidates are known (RemovedMentions), whose searches then run while
    this process resolves and verifies. A commit whose events are cached is not logged
    again."""
    started: dict[str, ParsedLog] = {}
    if depth <= 0:
        return started
    # Every repo's commit list first, all at once (one after the other they kept the
    # crawl from starting for ~5 ms each); then each log, as its list says.
    listing: dict[str, tuple[GitRepo, str, Background]] = {}
    for spec in workspace.repos:
        commit = commits.get(spec.name)
        # Only whether it is there: repo_removals reads it (GHC's: 85 KB of JSON).
        cached = cache is not None and commit is not None and cache.has_result(_removals_key(commit, depth))
        if commit is None or cached:
            continue
        git = GitRepo(spec.path)
        listing[spec.name] = (git, commit, git.start_commit_list(commit, depth))
    for name, (git, commit, listed) in listing.items():
        started[name] = start_parsed_log(git, name, commit, depth, cache, listed)
    return started


def _defined_key(commit: str) -> str:
    return f"defined-names:v6:{commit}"  # v5: Go methods; v6: indented C functions


def defined_names(git: GitRepo, commit: str, cache: BlobCache | None = None) -> frozenset[str]:
    """Every name something defines at `commit` (names_defined_in over every line git
    finds of that shape), for an index file: the job that combines index files has no
    git to ask about its candidates. Cached by commit."""
    key = _defined_key(commit)
    stored = cache.get_result(key) if cache is not None else None
    if isinstance(stored, list) and all(isinstance(n, str) for n in stored):
        return frozenset(stored)
    found = frozenset(names_defined_in(git.grep_parts(_DEFINITION_PERL, _DEFINITION_POSIX, commit,
                                                      READ_PATHSPECS)))
    if cache is not None:
        cache.put_result(key, sorted(found))
    return found


def names_defined_in(lines: str) -> set[str]:
    """Every name the lines define, generously: any name after a definition keyword,
    any top-level assignment or signature, every name of an import line; so that only
    names truly gone count as removed. The one definition of "defined": git only picks
    the lines (by a pattern matching at least these), this matches on them."""
    return {name for m in _DEFINITION.finditer(lines) for name in _IDENT.findall(m.group())}


# The words names_defined_in's keywords are (a name that is one is always matched), and
# the blanks `[^\S\n]` stands for in ASCII.
_DEFINITION_KEYWORDS = (*_KEYWORD_LIST, "const", "let", "var")
_DEFINING_WORDS = frozenset((*_DEFINITION_KEYWORDS, "import", "from"))
_BLANKS = " \t\r\x0b\x0c"
_IDENT_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")

# What names_defined_in matches, on each line by itself (`[^\S\n]`: space but not a
# line break) and in ASCII, as git's PCRE reads it.
# The fourth alternative is a Go method (`func (c *Client) StandardClient()`: go-
# retryablehttp's was reported removed, as a struct of that name was), tried before the
# fifth, a C-style function at the start of a line, its types before it (`void
# hashTypeSetExDone(HashTypeSetEx *ex) {`, a prototype, `gnu_style (x)`): no keyword says
# so, and redis's hashTypeSetExDone, defined so, was reported removed; the sixth the same
# indented, its types then required (miniz's API in `extern "C" {`, indented by
# clang-format; a call, `    helper(x);`, has none). The last is a C macro (`#define
# RMATCH(ra, rb)`: libgit2's pcre2 was reported removed).
_DEFINITION = compiled_on_use(
    rf"\b(?:{_KEYWORDS[1:-1]}|const|let|var)[^\S\n]+[A-Za-z_$][\w$]*"
    r"|^[A-Za-z_][A-Za-z0-9_]*[^\S\n]*(?:=(?!=)|::)"
    r"|^[^\S\n]*(?:from[^\S\n]+[\w.]+[^\S\n]+)?import[^\S\n]+[\w., ]+"
    r"|^func[^\S\n]*\([^)\n]*\)[^\S\n]*[A-Za-z_]\w*"
    r"|^(?:[A-Za-z_][\w \t*&:<>,]*?[ \t*&])?[A-Za-z_]\w*(?=[^\S\n]*\()"
    r"|^[ \t]+(?!(?:return|else|case|goto|typedef|do|await|yield|new|throw)\b)"
    r"[A-Za-z_][\w \t*&:<>,]*?[ \t*&][A-Za-z_]\w*(?=[^\S\n]*\()"
    r"|^[^\S\n]*#[^\S\n]*define[^\S\n]+[A-Za-z_]\w*",
    re.MULTILINE | re.ASCII,
)
# The lines git picks for it: every line it matches, with PCRE, or where git lacks it
# with any of the POSIX patterns (which match more lines: no word boundaries).
_DEFINITION_PERL = (
    rf"\b(?:{_KEYWORDS[1:-1]}|const|let|var)\s+[A-Za-z_$][\w$]*"
    r"|^[A-Za-z_][A-Za-z0-9_]*\s*(?:=(?!=)|::)"
    r"|^\s*(?:from\s+[\w.]+\s+)?import\s+[\w., ]+"
    r"|^func\s*\([^)\n]*\)\s*[A-Za-z_]\w*"
    r"|^(?:[A-Za-z_][\w \t*&:<>,]*?[ \t*&])?[A-Za-z_]\w*(?=\s*\()"
    r"|^[ \t]+(?!(?:return|else|case|goto|typedef|do|await|yield|new|throw)\b)"
    r"[A-Za-z_][\w \t*&:<>,]*?[ \t*&][A-Za-z_]\w*(?=\s*\()"
    r"|^\s*#\s*define\s+[A-Za-z_]\w*"
)
_DEFINITION_POSIX = (
    rf"{_KEYWORDS}[[:space:]]+[A-Za-z_$][A-Za-z0-9_$]*",
    r"(const|let|var)[[:space:]]+[A-Za-z_$][A-Za-z0-9_$]*",
    r"^[A-Za-z_][A-Za-z0-9_]*[[:space:]]*(::|=)",
    r"^[[:space:]]*(from[[:space:]]+[A-Za-z0-9_.]+[[:space:]]+)?import[[:space:]]+[A-Za-z0-9_., ]+",
    r"^([A-Za-z_][A-Za-z0-9_*&:<>,[:blank:]]*[*&[:blank:]])?[A-Za-z_][A-Za-z0-9_]*[[:space:]]*\(",
    r"^[[:blank:]]+[A-Za-z_][A-Za-z0-9_*&:<>,[:blank:]]*[*&[:blank:]][A-Za-z_][A-Za-z0-9_]*[[:space:]]*\(",
    r"^[[:space:]]*#[[:space:]]*define[[:space:]]+[A-Za-z_][A-Za-z0-9_]*",
    r"^func[[:space:]]*\([^)]*\)[[:space:]]*[A-Za-z_][A-Za-z0-9_]*",
)


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
    for word in _KEYWORD_LIST:
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
    rf"\b{_KEYWORDS.replace('(', '(?:', 1)}[^\S\n]+(?P<a>[A-Za-z_$][\w$]*)(?![\w$])")
_ASSIGNED_LINE = r"(?!\+\+\+|---)(?P<sign>[-+])(?P<b>[A-Za-z_][A-Za-z0-9_]*)[^\S\n]*(?:=[^=\n]|::)"
_ASSIGNED = compiled_on_use(rf"\n{_ASSIGNED_LINE}")
_ASSIGNED_FIRST = compiled_on_use(_ASSIGNED_LINE)
# A line that is a comment: its keywords are prose ("done by function
# hashTypeSetExDone()" in a C comment removed by a redis commit was a removal).
_COMMENT_LEADERS = r"[^\S\n]*(?:#|//|/\*|\*|--|;|\{-)"
_COMMENT_LINE = compiled_on_use(_COMMENT_LEADERS)
_EVENT = compiled_on_use(
    rf"^(?!\+\+\+|---)(?P<sign>[-+])(?:(?!{_COMMENT_LEADERS}).*?\b{_KEYWORDS.replace('(', '(?:', 1)}[^\S\n]+"
    r"(?P<a>[A-Za-z_$][\w$]*)(?![\w$])|(?P<b>[A-Za-z_][A-Za-z0-9_]*)[^\S\n]*(?:=[^=\n]|::))",
    re.MULTILINE,
)
