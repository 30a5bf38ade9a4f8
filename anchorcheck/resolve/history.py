"""History mining for AC203: code-shaped mentions of names that nothing defines any
more, but that the repos' git history shows were defined, and removed when.

Both questions go to git in bulk, never per name. One `git log -p` per repo (over at
most `history-depth` commits, newest first, roots left out) shows the diffs, in which
the lines adding or removing a definition are found. A name is removed when, in
every file where history saw it defined or removed, the newest such event is a removal
(a commit that both removes and adds it in one file rewrote it there); its mentions
are then candidates. Only when there are candidates, one `git grep` per repo finds
the lines naming them, and the definition shapes are matched on those lines
(names_defined_in); candidates defined nowhere are findings. Both look only at files
anchorcheck reads (languages.py): a test's expected output or a document that shows
`data Foo` neither removes nor defines Foo. Both answers are cached by commit (the
second with the names asked), and each commit's definition events by its sha, so a
repo that moved has only its new commits logged.

Here are the search (RemovedMentions) and the logs it reads (start_history,
ParsedLog, repo_removals); definition_events.py reads a log's diffs into each commit's
definition events and folds them into removals; definition_shapes.py is what a
definition looks like (names_defined_in, the patterns git picks lines by);
defined_among.py asks git which candidates are still defined.
"""

from __future__ import annotations

import re
import sys
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from anchorcheck.config.workspace import Workspace
from anchorcheck.extract.languages import READ_PATHSPECS, in_tests, language_of
from anchorcheck.extract.locations import copied_path
from anchorcheck.extract.scanners import scan
from anchorcheck.git.output import PATH_ERRORS
from anchorcheck.git.process import Background
from anchorcheck.git.repo import GitRepo, NameSearch
from anchorcheck.index.cache import BlobCache
from anchorcheck.model.snapshot import Mention
from anchorcheck.resolve.defined_among import DefinedAmong
from anchorcheck.resolve.definition_events import CommitEvents, Removal, commit_events, fold_removals
from anchorcheck.resolve.workspace_index import WorkspaceIndex
from anchorcheck.threads import InThread


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
    some is git asked which of them are still defined (DefinedAmong). Removal tables
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
        self._defined: DefinedAmong | None = None
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
            self._defined = DefinedAmong(gits, commits, sorted(self._removals), known_defined or {}, cache,
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
        # file for each run's reported names would undo what DefinedAmong saves.)
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
