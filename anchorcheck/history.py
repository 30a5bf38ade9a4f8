"""History mining for AC203: code-shaped mentions of names that nothing defines any
more, but that the repos' git history shows were defined, and removed when.

Both questions go to git in bulk, never per name. One `git log -G` per repo (over at
most `history-depth` commits, newest first) finds the diffs that add or remove a
definition; for each name the newest such event decides, and a removal makes the
name's mentions candidates. Only when there are candidates, one `git grep -o` per
repo lists every name defined at the checked commit; candidates defined nowhere are
findings. Both look only at files anchorcheck reads (languages.py): a test's expected
output or a document that shows `data Foo` neither removes nor defines Foo. Both
answers depend on the commit alone, so both are cached by commit.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass

from anchorcheck.cache import BlobCache
from anchorcheck.crawl import Mention
from anchorcheck.gitio import Background, GitRepo
from anchorcheck.languages import READ_PATHSPECS, language_of
from anchorcheck.resolve import WorkspaceIndex
from anchorcheck.workspace import Workspace

_KEYWORDS = r"(def|class|func|fn|function|struct|enum|trait|interface|type|data|newtype|macro|module)"
_IDENT = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")


@dataclass(frozen=True, slots=True)
class Removal:
    repo: str
    commit: str
    subject: str
    path: str


@dataclass(frozen=True, slots=True)
class RemovedMention:
    mention: Mention
    removal: Removal


# name -> [repo, sha, subject, path] of the commit that removed its last definition
RemovalTable = dict[str, list[str]]


def removed_mentions(
    workspace: Workspace, index: WorkspaceIndex, depth: int, cache: BlobCache | None = None,
    known: dict[str, RemovalTable] | None = None,
    known_defined: dict[str, frozenset[str]] | None = None,
    started: Mapping[str, Background] | None = None,
) -> list[RemovedMention]:
    """History first: one `git log -G` per repo (cached by commit) says which names
    lost a definition lately; only mentions of those names are candidates. Only when
    there are some are today's definitions listed (one `git grep` per repo, cached by
    commit). Removal tables and definitions may come with index files instead, and a
    repo's `git log` may have been started already (start_history; `started`, by repo)."""
    if depth <= 0:
        return []
    known = known or {}  # removal tables that came with an index file, by repo
    known_defined = known_defined or {}
    mentions: dict[str, list[Mention]] = defaultdict(list)
    for snap in index.snapshots.values():
        for mention in snap.mentions:
            mentions[mention.name].append(mention)
    if not mentions:
        return []
    gits = {r.name: GitRepo(r.path) for r in workspace.repos if r.name in index.snapshots}
    removals: dict[str, Removal] = {}
    for name, git in gits.items():
        found = known.get(name)
        if found is None:
            found = repo_removals(git, name, index.snapshots[name].commit, depth, cache,
                                  (started or {}).get(name))
        for key_name in mentions.keys() & found.keys():
            if key_name not in removals:
                repo, sha, subject, path = found[key_name]
                removals[key_name] = Removal(str(repo), str(sha), str(subject), str(path))
    candidates = sorted(removals)
    if not candidates:
        return []
    defined: set[str] = set()
    for name, git in gits.items():
        names = known_defined.get(name)
        if names is None:
            names = defined_names(git, index.snapshots[name].commit, cache)
        defined.update(names)
    return [
        RemovedMention(m, removals[name])
        for name in candidates if name not in defined
        for m in mentions[name]
    ]


def repo_removals(
    git: GitRepo, repo: str, commit: str, depth: int, cache: BlobCache | None = None,
    started: Background | None = None,
) -> RemovalTable:
    """The removal table of one repo at one commit, cached by commit."""
    key = _removals_key(commit, depth)
    found = cache.get_result(key) if cache is not None else None
    if isinstance(found, dict) and all(isinstance(v, list) and len(v) == 4 for v in found.values()):
        return {str(k): [str(x) for x in v] for k, v in found.items()}
    table = {k: [r.repo, r.commit, r.subject, r.path]
             for k, r in _removals(git, repo, commit, depth, started).items()}
    if cache is not None:
        cache.put_result(key, table)
    return table


def _removals_key(commit: str, depth: int) -> str:
    return f"removals:v2:{commit}:{depth}"  # v2: code files only


def start_history(
    workspace: Workspace, commits: Mapping[str, str], depth: int, cache: BlobCache | None,
) -> dict[str, Background]:
    """Start, in the background, the `git log` of every repo (of `commits`: name ->
    commit, the commits of the index removed_mentions will be given) whose removal
    table is not cached yet and which has history to search. It needs only the commit, and it is
    one single-threaded process per repo: started before resolving and verifying, it
    runs on a core that is otherwise idle (bench workspace: the history step 2.5-3.2 ->
    1.8-2.2 s). The definitions' `git grep` is not started early: it is only needed
    when some mention names a removed definition, and, being multi-threaded, it only
    slowed resolving and verifying down (measured: no gain)."""
    started: dict[str, Background] = {}
    if depth <= 0:
        return started
    for spec in workspace.repos:
        commit = commits.get(spec.name)
        cached = cache is not None and commit is not None and \
            cache.get_result(_removals_key(commit, depth)) is not None
        if commit is None or cached:
            continue
        log = GitRepo(spec.path).start_definition_log(commit, _DEFINITION_EVENTS, depth)
        if log is not None:
            started[spec.name] = log
    return started


def _defined_key(commit: str) -> str:
    return f"defined-names:v2:{commit}"  # v2: code files only


def defined_names(git: GitRepo, commit: str, cache: BlobCache | None = None) -> frozenset[str]:
    """Every name something defines at `commit`, generously (any name after a
    definition keyword, any top-level assignment or signature, every name of an import
    line), so that only names truly gone count as removed. git prints just the
    definition-shaped parts of lines (`-o`), read whole; cached by commit, and carried
    by index files."""
    key = _defined_key(commit)
    stored = cache.get_result(key) if cache is not None else None
    if isinstance(stored, list) and all(isinstance(n, str) for n in stored):
        return frozenset(stored)
    # A name never spans lines: the whole output in one call.
    found = frozenset(_IDENT.findall(git.grep_parts(_DEFINITION_PERL, _DEFINITION_POSIX, commit,
                                                    READ_PATHSPECS)))
    if cache is not None:
        cache.put_result(key, sorted(found))
    return found


_DEFINITION_PERL = (
    rf"\b(?:{_KEYWORDS[1:-1]}|const|let|var)\s+[A-Za-z_$][\w$]*"
    r"|^[A-Za-z_][A-Za-z0-9_]*\s*(?:=(?!=)|::)"
    r"|^\s*(?:from\s+[\w.]+\s+)?import\s+[\w., ]+"
)
_DEFINITION_POSIX = (
    rf"{_KEYWORDS}[[:space:]]+[A-Za-z_$][A-Za-z0-9_$]*",
    r"(const|let|var)[[:space:]]+[A-Za-z_$][A-Za-z0-9_$]*",
    r"^[A-Za-z_][A-Za-z0-9_]*[[:space:]]*(::|=)",
    r"^[[:space:]]*(from[[:space:]]+[A-Za-z0-9_.]+[[:space:]]+)?import[[:space:]]+[A-Za-z0-9_., ]+",
)


def _removals(
    git: GitRepo, repo: str, commit: str, depth: int, started: Background | None = None
) -> dict[str, Removal]:
    """Every name whose newest definition event in the last `depth` commits is a
    removal. The search does not depend on the names asked about: one `git log -G`
    of the definition shapes per repo (a pattern with hundreds of names as
    alternatives costs git far more than the diffs), filtered here; so its answer is
    cached by commit alone, and holds for any later set of mentions."""
    found: dict[str, Removal | None] = {}
    readable: dict[str, bool] = {}  # by path: a diff has many lines per file
    for sha, subject, path, line in git.log_definition_changes(commit, _DEFINITION_EVENTS, depth, started):
        # Only files anchorcheck reads: a test's expected output losing `data Foo` is no
        # removal. (Filtered here: 100 pathspecs made git's log 1.7x slower.)
        ok = readable.get(path)
        if ok is None:
            ok = readable[path] = language_of(path) is not None
        if not ok:
            continue
        m = _EVENT.match(line)
        if m is None:
            continue
        name = m.group("a") or m.group("b")
        # A removed `name = ...` only counts for a constant (NAME = ...): lower-case
        # module-level bindings (`numpy = importorskip(...)`) come and go.
        if m.group("b") and not (name.isupper() or "::" in line):
            continue
        if name in found:
            continue  # newest first: the first event for a name decides
        found[name] = Removal(repo, sha, subject, path) if m.group("sign") == "-" else None
    return {k: v for k, v in found.items() if v is not None}


# The diffs git's log shows: those adding or removing a definition-shaped line.
_DEFINITION_EVENTS = rf"{_KEYWORDS}[[:space:]]+[A-Za-z_$]|^[A-Za-z_][A-Za-z0-9_]*[[:space:]]*(=[^=]|::)"
# A diff line that adds (+) or removes (-) a definition: `def name`, `NAME = `, `name ::`.
_EVENT = re.compile(
    rf"^(?P<sign>[-+])(?:.*?\b{_KEYWORDS.replace('(', '(?:', 1)}\s+(?P<a>[A-Za-z_$][\w$]*)(?![\w$])"
    r"|(?P<b>[A-Za-z_][A-Za-z0-9_]*)\s*(?:=[^=]|::))"
)
