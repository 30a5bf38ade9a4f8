"""The pipeline: crawl -> extract -> index -> resolve (graph) -> check -> filter."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from anchorcheck.check.kinds import in_kinds, needs, read_kinds, word_files
from anchorcheck.check.result_cache import decode_result, encode_result, result_key
from anchorcheck.config.selection import Selection
from anchorcheck.config.workspace import Settings, Workspace
from anchorcheck.extract.languages import READ_PATHSPECS
from anchorcheck.git.repo import NameSearch
from anchorcheck.index.cache import BlobCache
from anchorcheck.index.crawl import Progress, crawl_many, paused_gc
from anchorcheck.index.plan import BlobMemo
from anchorcheck.model import suppression
from anchorcheck.model.finding import Finding, FingerprintedFinding, fingerprint
from anchorcheck.model.reference import Reference, RefKind
from anchorcheck.model.snapshot import SnapshotIndex
from anchorcheck.resolve.graph import build_graph
from anchorcheck.resolve.resolution import Resolution
from anchorcheck.resolve.resolver import Resolver
from anchorcheck.resolve.workspace_index import WorkspaceIndex
from anchorcheck.rules import REGISTRY, CheckContext, Rule

if TYPE_CHECKING:
    import networkx as nx

    from anchorcheck.check.index_file import IndexedRepo
    from anchorcheck.resolve.history import ParsedLog, RemovedMention, RemovedMentions
    from anchorcheck.resolve.linehistory import LineWalk
    from anchorcheck.resolve.restated import Restatement
    from anchorcheck.resolve.verify import ClaimCheck, ContractBreach


@dataclass(frozen=True, slots=True)
class ForgeAccess:
    """A check may ask the forges (AC106, AC107): the environment holding the tokens
    and API bases, whether a failure is an error, and each request's time-out."""

    env: Mapping[str, str]
    require: bool = False
    timeout: float = 10.0


class CheckResult:
    """What a check found. The resolutions and the graph are computed on first use when
    the findings came from the result cache (most commands do not need them)."""

    def __init__(
        self, workspace: Workspace, index: WorkspaceIndex, findings: tuple[FingerprintedFinding, ...],
        claims: tuple[ClaimCheck, ...] = (), resolutions: tuple[Resolution, ...] | None = None,
        graph: nx.MultiDiGraph | None = None,
    ) -> None:
        self.workspace = workspace
        self.index = index
        self.findings = findings
        self.claims = claims
        self._resolutions = resolutions
        self._graph = graph
        # Why issue references went unchecked (a forge that failed), for a warning.
        self.forge_warnings: tuple[str, ...] = ()

    @property
    def resolutions(self) -> tuple[Resolution, ...]:
        if self._resolutions is None:
            settings = self.workspace.settings
            resolver = Resolver(self.index, settings.headings, settings.ignore_targets,
                                settings.ignore_evidence)
            self._resolutions = tuple(resolver.resolve(ref) for ref in self.index.references)
        return self._resolutions

    @property
    def graph(self) -> nx.MultiDiGraph:
        if self._graph is None:
            self._graph = build_graph(self.index, self.resolutions)
        return self._graph


def index_workspace(
    workspace: Workspace,
    memo: BlobMemo | None = None,
    progress: Callable[[str, Progress], None] | None = None,
    cache: BlobCache | None = None,
    indexed: Mapping[str, SnapshotIndex] | None = None,
    resolved: Callable[[dict[str, str]], None] | None = None,
    writes: list[Callable[[], None]] | None = None,
) -> WorkspaceIndex:
    """Every repo's snapshot: from an index file when one came (`check --index`),
    else crawled. `resolved` is told the commits of those crawled before the crawl
    reads anything, `writes` receives its cache writes (crawl_many)."""
    indexed = indexed or {}
    to_crawl = [spec for spec in workspace.repos if spec.name not in indexed]
    crawled = dict(zip((s.name for s in to_crawl),
                       crawl_many(to_crawl, workspace.settings, memo, progress, cache, resolved, writes),
                       strict=True))
    snapshots = [indexed[s.name] if s.name in indexed else crawled[s.name] for s in workspace.repos]
    return WorkspaceIndex(snapshots, workspace.repos)


def enabled_rules(settings: Settings, selection: Selection | None = None) -> list[Rule]:
    selection = selection or settings.rules
    selection.validate(REGISTRY)
    return [
        r for r in REGISTRY.values()
        if r.mode in ("workspace", "both") and selection.enabled(r.code, r.enabled_by_default)
    ]


# The cyclic collector is paused throughout, as during the crawl (index.crawl.paused_gc):
# resolving and checking build tens of thousands of objects, none in a cycle, and each
# collection walked the snapshots' millions (a check from cached snapshots: -2.4% of its
# instructions).
@paused_gc()
def run_check(
    workspace: Workspace,
    memo: BlobMemo | None = None,
    selection: Selection | None = None,
    progress: Callable[[str, Progress], None] | None = None,
    cache: BlobCache | None = None,
    indexed: Sequence[IndexedRepo] = (),
    forge: ForgeAccess | None = None,
) -> CheckResult:
    selection = selection or workspace.settings.rules
    rules = enabled_rules(workspace.settings, selection)
    kinds = workspace.settings.kinds
    read = read_kinds(rules, kinds)
    # Crawled for the kinds the rules need (check/kinds.py), or for all of them.
    crawled = workspace if read is None else replace(
        workspace, settings=replace(workspace.settings, read_kinds=read))
    if read is not None and memo is None:
        memo = {}  # what the first crawl read is not read again if every kind must be
    history = any(r.code == "AC203" for r in rules)
    # The forge is asked only for the rules that need it, and then a stored result
    # (keyed by commits) could hold issue states gone stale: not used.
    asks_forge = forge is not None and any(r.code in ("AC106", "AC107") for r in rules)
    from_files = {r.spec.name: r for r in indexed}  # their removal tables came with them;
    # only crawled repos' commits reach `resolved`
    logs: dict[str, ParsedLog] = {}
    resolved, resolved_rest = _history_starts(workspace, cache, history, logs)
    searching: RemovedMentions | None = None
    walk: LineWalk | None = None
    # One search of every repo for the names AC202 and AC203 look up (each searched
    # every repo before: two passes over every blob).
    names = NameSearch(READ_PATHSPECS)
    # The crawl's cache writes, run once git's searches are under way.
    writes: list[Callable[[], None]] = []
    try:
        given = {r.spec.name: r.snapshot for r in indexed}
        index = index_workspace(crawled, memo, progress, cache, given, resolved, writes)
        # (The key holds the commits, known after a crawl of some kinds too: a stored
        # answer is taken before reading what those kinds cite.)
        stores = cache is not None and not indexed and not asks_forge
        key = result_key(workspace, selection, index) if stores else None
        if cache is not None and key is not None:
            stored = decode_result(cache.get_result(key))
            if stored is not None:
                _run(writes)
                return CheckResult(workspace, index, stored[0], stored[1])
        resolutions: tuple[Resolution, ...] | None = None
        if read is not None:
            index, resolutions = _read_what_is_cited(workspace, crawled, index, read, memo, progress, cache,
                                                     given, resolved_rest, writes)
            if key is not None:
                key = result_key(workspace, selection, index)  # (None if a file read since was unreadable)
        # Imported here: commands that load this module without checking (merge-order's
        # report) skip them. (Claim checking is imported only once no stored result
        # answered: a warm run never runs it, and its import was ~2% of one.)
        from anchorcheck.resolve.verify import verify, want_symbols

        resolver = Resolver(index, workspace.settings.headings, workspace.settings.ignore_targets,
                        workspace.settings.ignore_evidence)
        first: dict[int, Resolution] = {}
        if any(r.code in ("AC201", "AC205") for r in rules):
            first, walk = _start_line_walk(workspace, index, resolutions, resolver, cache)
        if history:
            searching = _search_removed(workspace, index, cache, from_files, logs, names)
        want_symbols(workspace, index, names)
        names.start()  # runs while this process stores what the crawl found, and resolves
        _run(writes)
        if resolutions is None:
            resolutions = tuple(first[id(ref)] if id(ref) in first else resolver.resolve(ref)
                                for ref in index.references)
        claims, breaches = verify(workspace, index, resolutions, cache, names)
        removed = searching.result() if searching is not None else []
        if walk is not None:
            claims.extend(walk.result())
    finally:
        _cancel(walk, logs, searching, names)
    return _checked(workspace, index, resolutions, claims, breaches, removed, rules, kinds, selection,
                    forge, asks_forge, cache, key)


def _history_starts(
    workspace: Workspace, cache: BlobCache | None, history: bool, logs: dict[str, ParsedLog],
) -> tuple[Callable[[dict[str, str]], None], Callable[[dict[str, str]], None]]:
    """The crawl's `resolved` callbacks, told the commits before it reads anything: with
    AC203 on, the first starts the git history search of those repos into `logs`; the
    second, for a later crawl, of the ones not started yet."""
    from anchorcheck.resolve.history import start_history

    def resolved(commits: dict[str, str]) -> None:
        # AC203's git history search needs only the commits: started before the crawl
        # reads anything, it runs beside it (on the core the crawl leaves idle while it
        # lists trees, and beside the scanning), and is done when the candidates are
        # known, so their searches can run while this process resolves and verifies.
        if history:
            logs.update(start_history(workspace, commits, workspace.settings.history_depth, cache))

    def resolved_rest(commits: dict[str, str]) -> None:
        # (AC203's history for the repos a first crawl of some kinds did not tell.)
        resolved({name: commit for name, commit in commits.items() if name not in logs})

    return resolved, resolved_rest


def _start_line_walk(
    workspace: Workspace, index: WorkspaceIndex, resolutions: tuple[Resolution, ...] | None,
    resolver: Resolver, cache: BlobCache | None,
) -> tuple[dict[int, Resolution], LineWalk]:
    """AC201's and AC205's walk of the claims' line history, started; and, when no
    resolutions were given, the ones it was started from (by reference id)."""
    from anchorcheck.resolve.linehistory import LineWalk, followable

    first: dict[int, Resolution] = {}
    # Started first, from the resolutions of the claims it may follow: its git
    # commands (on git/git a chain of 1.3 s) run while the crawl's finds are
    # stored, the rest is resolved, claims are verified and AC203's history read.
    if resolutions is None:
        first = {id(ref): resolver.resolve(ref) for ref in index.references if followable(ref)}
    walk = LineWalk(workspace, index, resolutions if resolutions is not None else first.values(),
                    workspace.settings.line_history, cache)
    return first, walk


def _search_removed(
    workspace: Workspace, index: WorkspaceIndex, cache: BlobCache | None,
    from_files: Mapping[str, IndexedRepo], logs: dict[str, ParsedLog], names: NameSearch,
) -> RemovedMentions:
    """AC203's search, started: from the git logs started in `logs`, the removal tables
    the index files brought (`from_files`), and the workspace's name search."""
    from anchorcheck.resolve.history import RemovedMentions

    return RemovedMentions(
        workspace, index, workspace.settings.history_depth, cache,
        known={n: r.removals for n, r in from_files.items()},
        known_defined={n: r.defined for n, r in from_files.items()}, started=logs, search=names)


def _cancel(walk: LineWalk | None, logs: Mapping[str, ParsedLog], searching: RemovedMentions | None,
            names: NameSearch) -> None:
    """The searches a check started, stopped: on its end, or on its failure."""
    if walk is not None:
        walk.cancel()
    for log in logs.values():
        log.cancel()
    if searching is not None:
        searching.cancel()
    names.cancel()


def _checked(
    workspace: Workspace, index: WorkspaceIndex, resolutions: tuple[Resolution, ...],
    claims: list[ClaimCheck], breaches: list[ContractBreach], removed: list[RemovedMention],
    rules: Sequence[Rule], kinds: tuple[str, ...], selection: Selection, forge: ForgeAccess | None,
    asks_forge: bool, cache: BlobCache | None, key: str | None,
) -> CheckResult:
    """The rules applied to what was resolved and verified (and what the forge said,
    when asked), the findings stored under `key`: the check's result."""
    built: list[nx.MultiDiGraph] = []

    def graph() -> nx.MultiDiGraph:
        if not built:
            built.append(build_graph(index, resolutions))
        return built[0]

    answers = None
    if asks_forge:
        from anchorcheck.check.issues import look_up

        assert forge is not None
        answers = look_up(workspace, index.references, forge.env, cache, require=forge.require,
                          ttl=workspace.settings.forge_ttl, timeout=forge.timeout)
    ctx = CheckContext(index, resolutions, graph, tuple(claims), tuple(breaches), tuple(removed),
                       issues=answers.states if answers is not None else {},
                       restated=_restated(workspace, index, rules))
    findings = fingerprint(selection.apply_severity(f) for f in _apply_rules(ctx, rules, kinds))
    if cache is not None and key is not None:
        cache.put_result(key, encode_result(findings, claims))
    result = CheckResult(workspace, index, findings, tuple(claims), resolutions, built[0] if built else None)
    if answers is not None:
        result.forge_warnings = tuple(answers.warnings)
    return result


def _restated(workspace: Workspace, index: WorkspaceIndex, rules: Sequence[Rule]) -> tuple[Restatement, ...]:
    """The literals that restate another repo's fact unmarked, when AC207 runs."""
    if not any(r.code == "AC207" for r in rules):
        return ()
    from anchorcheck.resolve.restated import restated as find_restated

    marked = {(r.repo, r.path, r.line) for r in index.references if r.kind is RefKind.FACT}
    return tuple(find_restated(workspace, marked))


def _apply_rules(ctx: CheckContext, rules: Sequence[Rule], kinds: tuple[str, ...]) -> list[Finding]:
    """Every rule's findings (with `kinds`, only in the files of those kinds), less
    those an inline suppression silences; then AC901 on the suppressions that silenced
    nothing, judged only when a rule they name ran (`--select AC901` alone ran none,
    and called every marker unused)."""
    raw = [f for rule in rules if rule.code != "AC901" for f in rule.check(ctx, rule)
           if in_kinds(f.path, kinds)]
    suppressions = [s for snap in ctx.index.snapshots.values() for s in snap.suppressions]
    kept, unused = suppression.apply(raw, suppressions)
    unused_rule = next((r for r in rules if r.code == "AC901"), None)
    if unused_rule is not None:
        ran = [r.code for r in rules if r.code != "AC901"]
        judged = [s for s in unused
                  if not s.codes or any(code.startswith(c) for c in s.codes for code in ran)]
        ctx = replace(ctx, unused_suppressions=tuple(judged))
        kept.extend(f for f in unused_rule.check(ctx, unused_rule) if in_kinds(f.path, kinds))
    return kept


def _read_what_is_cited(
    workspace: Workspace, crawled: Workspace, index: WorkspaceIndex, read: tuple[str, ...],
    memo: BlobMemo | None, progress: Callable[[str, Progress], None] | None, cache: BlobCache | None,
    given: Mapping[str, SnapshotIndex], resolved: Callable[[dict[str, str]], None],
    writes: list[Callable[[], None]],
) -> tuple[WorkspaceIndex, tuple[Resolution, ...] | None]:
    """After a crawl of some kinds (check/kinds.py): the files of other kinds that its
    references need, read too, until they need no more; or, when a reference needs
    every file (a Note), every file read. The index, and its resolutions when
    computed."""
    also: set[tuple[str, str]] = set()
    # What each crawl read from git (a later crawl reads only what the ones before did not).
    before: Counter[str] = Counter()
    before_bytes: Counter[str] = Counter()
    while True:
        # Whether every file must be read is decided by the Notes and the headings cited
        # by name alone (kinds.needs), and they are few: asked first, so that a check
        # that must read everything does not resolve every reference twice (kubernetes/
        # community's Markdown check: 7,353 references resolved for nothing, ~0.4 s).
        decisive = _resolve(workspace, index, [r for r in index.references if r.kind in _DECISIVE])
        early = needs(index, decisive, read, workspace.settings.headings, also)
        holding = word_files(workspace, index, early.words, read) if early.words and not early.everything \
            else set()
        if early.everything or holding is None:
            _count(index, given, before, before_bytes)
            index = index_workspace(workspace, memo, progress, cache, given, resolved, writes)
            return _counted(workspace, index, given, before, before_bytes), None
        resolutions = _resolve(workspace, index)
        need = needs(index, resolutions, read, workspace.settings.headings, also)
        assert need.words == early.words, "the words come from the same references"
        more = (set(need.files) | holding) - also
        if not more:
            return _counted(workspace, index, given, before, before_bytes), resolutions
        also |= more
        _count(index, given, before, before_bytes)
        settings = replace(crawled.settings, read_also=tuple(sorted(also)))
        index = index_workspace(replace(crawled, settings=settings), memo, progress, cache, given, resolved,
                                writes)


def _count(index: WorkspaceIndex, given: Mapping[str, SnapshotIndex], files: Counter[str],
           size: Counter[str]) -> None:
    for name, snap in index.snapshots.items():
        if name not in given:
            files[name] += snap.files_read
            size[name] += snap.bytes_read


def _counted(workspace: Workspace, index: WorkspaceIndex, given: Mapping[str, SnapshotIndex],
             files: Counter[str], size: Counter[str]) -> WorkspaceIndex:
    """The index, its snapshots telling what every crawl of this check read."""
    if not files:
        return index
    snaps = [snap if name in given else replace(snap, files_read=snap.files_read + files[name],
                                                bytes_read=snap.bytes_read + size[name])
             for name, snap in index.snapshots.items()]
    return WorkspaceIndex(snaps, workspace.repos)


# The references whose resolutions alone decide whether a check of some kinds must read
# every file (kinds.needs: a Note, a heading cited by name).
_DECISIVE = frozenset((RefKind.NOTE, RefKind.HEADING))


def _resolve(
    workspace: Workspace, index: WorkspaceIndex, references: Iterable[Reference] | None = None,
) -> tuple[Resolution, ...]:
    resolver = Resolver(index, workspace.settings.headings, workspace.settings.ignore_targets,
                        workspace.settings.ignore_evidence)
    return tuple(resolver.resolve(ref) for ref in (index.references if references is None else references))


def _run(writes: list[Callable[[], None]]) -> None:
    for write in writes:
        write()
    writes.clear()
