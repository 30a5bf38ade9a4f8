"""History mining for AC203: code-shaped mentions of names that nothing defines any
more, but that the repos' git history shows were defined, and removed when.

Both questions go to git in bulk, never per name: one `git grep -o` per repo lists
every definition at the checked commit, and one `git log -G` per repo (over at most
`history-depth` commits, newest first) finds the commits whose diffs add or remove a
definition; the missing names are looked up in what it found. The newest such event decides: a removal
is a finding, an addition is not.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass

from anchorcheck.cache import BlobCache
from anchorcheck.crawl import Mention
from anchorcheck.gitio import GitRepo
from anchorcheck.resolve import WorkspaceIndex
from anchorcheck.workspace import Workspace

_KEYWORDS = r"(def|class|func|fn|function|struct|enum|trait|interface|type|data|newtype|macro|module)"
# What counts as defined now is generous (any top-level assignment, any import), so
# that only names truly gone become candidates. One PCRE search where git has PCRE
# (a third of the time of the POSIX patterns run one by one).
_DEFINITION_PERL = (
    r"(?:\b(?:def|class|func|fn|function|struct|enum|trait|interface|type|data|newtype|macro"
    r"|module|const|let|var)\s+[A-Za-z_$][\w$]*|^[A-Za-z_]\w*\s*(?:=[^=]|::)"
    r"|^\s*(?:from\s+[\w.]+\s+)?import\s+[\w., ]+)"
)
_DEFINITION_ANY = (
    _KEYWORDS + r"[[:space:]]+[A-Za-z_][A-Za-z0-9_]*",
    r"^[A-Za-z_][A-Za-z0-9_]*[[:space:]]*(=[^=]|::)",
    r"(const|let|var)[[:space:]]+[A-Za-z_$][A-Za-z0-9_$]*",
    r"^[[:space:]]*(from[[:space:]]+[A-Za-z0-9_.]+[[:space:]]+)?import[[:space:]]+[A-Za-z0-9_., ]+",
)
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


def removed_mentions(
    workspace: Workspace, index: WorkspaceIndex, depth: int, cache: BlobCache | None = None
) -> list[RemovedMention]:
    """Both git searches are cached by commit (and, for removals, by the names asked
    about), so a run over unchanged repos asks git nothing."""
    if depth <= 0:
        return []
    mentions: dict[str, list[Mention]] = defaultdict(list)
    for snap in index.snapshots.values():
        for mention in snap.mentions:
            mentions[mention.name].append(mention)
    if not mentions:
        return []
    gits = {r.name: GitRepo(r.path) for r in workspace.repos if r.name in index.snapshots}
    defined: set[str] = set()
    for name, git in gits.items():
        commit = index.snapshots[name].commit
        key = f"defs:{commit}"
        names = cache.get_result(key) if cache is not None else None
        if not isinstance(names, list):
            names = sorted(_defined_names(git, commit))
            if cache is not None:
                cache.put_result(key, names)
        defined.update(str(n) for n in names)
    missing = sorted(set(mentions) - defined)
    if not missing:
        return []
    removals: dict[str, Removal] = {}
    for name, git in gits.items():
        commit = index.snapshots[name].commit
        key = f"removals:{commit}:{depth}"
        found = cache.get_result(key) if cache is not None else None
        if not isinstance(found, dict):
            found = {k: [r.repo, r.commit, r.subject, r.path]
                     for k, r in _removals(git, name, commit, depth).items()}
            if cache is not None:
                cache.put_result(key, found)
        for key_name in missing:
            if key_name in found and key_name not in removals:
                repo, sha, subject, path = found[key_name]
                removals[key_name] = Removal(str(repo), str(sha), str(subject), str(path))
    return [
        RemovedMention(m, removals[name])
        for name in missing if name in removals
        for m in mentions[name]
    ]


def _defined_names(git: GitRepo, commit: str) -> set[str]:
    names: set[str] = set()
    lines = git.grep_matches([_DEFINITION_PERL], commit, perl=True)
    if lines is None:  # git without PCRE: the POSIX patterns one by one
        lines = [m for p in _DEFINITION_ANY for m in (git.grep_matches([p], commit) or [])]
    for line in lines:
        found = _IDENT.findall(line)
        if not found:
            continue
        # `def name`, `const name`: the last identifier; `name = ...`: the first.
        if re.match(r"[ \t]*(from|import)\b", line):
            names.update(found)  # every imported name (and module) is available
        else:
            names.add(found[0] if re.match(r"[A-Za-z_][A-Za-z0-9_]*[ \t]*(=|::)", line) else found[-1])
    return names


def _removals(git: GitRepo, repo: str, commit: str, depth: int) -> dict[str, Removal]:
    """Every name whose newest definition event in the last `depth` commits is a
    removal. The search does not depend on the names asked about: one `git log -G`
    of the definition shapes per repo (a pattern with hundreds of names as
    alternatives costs git far more than the diffs), filtered here; so its answer is
    cached by commit alone, and holds for any later set of mentions."""
    regex = rf"{_KEYWORDS}[[:space:]]+[A-Za-z_$]|^[A-Za-z_][A-Za-z0-9_]*[[:space:]]*(=[^=]|::)"
    found: dict[str, Removal | None] = {}
    for sha, subject, path, line in git.log_definition_changes(commit, regex, depth):
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


# A diff line that adds (+) or removes (-) a definition: `def name`, `NAME = `, `name ::`.
_EVENT = re.compile(
    rf"^(?P<sign>[-+])(?:.*?\b{_KEYWORDS.replace('(', '(?:', 1)}\s+(?P<a>[A-Za-z_$][\w$]*)(?![\w$])"
    r"|(?P<b>[A-Za-z_][A-Za-z0-9_]*)\s*(?:=[^=]|::))"
)
