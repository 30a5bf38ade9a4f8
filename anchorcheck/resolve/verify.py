"""Verification of claims against the files they name (a second, small read).

The crawl keeps no source text (memory grows with anchors and references, not with
bytes of code), so once claims are resolved to files, just those files are read
again, in bulk, and checked: line ranges and the text claimed on them, symbol
definitions, restated facts, and contracts between facts. The results are plain
data that rules report; rules never read files.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from anchorcheck.config.excludes import excluder
from anchorcheck.config.workspace import Contract, Workspace
from anchorcheck.errors import ConfigError
from anchorcheck.extract.facts import Fact, FactAddress, facts_of, lookup, same_value
from anchorcheck.extract.languages import READ_PATHSPECS, language_of
from anchorcheck.extract.symbols import defined_symbols, definition_regex
from anchorcheck.git.blobtext import decode_blob
from anchorcheck.git.repo import GitRepo, NameSearch, printed_as_is
from anchorcheck.index.cache import BlobCache
from anchorcheck.model.reference import Reference, RefKind
from anchorcheck.patterns import compiled_on_use
from anchorcheck.resolve.moved import SEARCHED, last_entry, search_changed
from anchorcheck.resolve.resolution import Resolution, Status
from anchorcheck.resolve.workspace_index import WorkspaceIndex

FileId = tuple[str, str]
_TOKEN = compiled_on_use(r"[^\s:=,;'\"`()\[\]{}]+")


@dataclass(frozen=True, slots=True)
class ClaimCheck:
    """A claim that does not hold. `fix` is (old, new): text in the citing line that
    `anchorcheck fix` may rewrite."""

    reference: Reference
    code: str  # AC201 stale-line-claim, AC202 missing-symbol, AC204 restated-value-drift
    message: str
    suggestion: str | None = None
    fix: tuple[str, str] | None = None


@dataclass(frozen=True, slots=True)
class ContractBreach:
    """A contract whose facts disagree, at one of its facts."""

    contract: str
    address: str
    repo: str
    path: str
    line: int
    message: str


@dataclass
class _File:
    """A file's text, with its symbols and facts read on first use."""

    text: str
    language: str | None
    _symbols: dict[str, int] | None = None
    _facts: dict[str, Fact] | None = None
    _lines: list[str] | None = None
    # (tokens, size) -> where they stand (_find_elsewhere), asked once per file
    _found: dict[tuple[tuple[str, ...], int], list[tuple[int, int]]] = field(default_factory=dict)

    def elsewhere(self, tokens: list[str], size: int) -> list[tuple[int, int]]:
        """_find_elsewhere over these lines, once for each claim text and size: the many
        stale claims of one text on one file each searched the whole file again."""
        key = (tuple(tokens), size)
        if key not in self._found:
            self._found[key] = _find_elsewhere(self.lines, tokens, size)
        return self._found[key]

    @property
    def lines(self) -> list[str]:
        """The text's lines, split once: every line claim on a file asks for them (a
        file of 9,000 claims on itself split its 200 KB once for each, 27 s)."""
        if self._lines is None:
            body = self.text[:-1] if self.text.endswith("\n") else self.text
            self._lines = body.split("\n") if body else []
        return self._lines

    def symbols(self) -> dict[str, int]:
        if self._symbols is None:
            self._symbols = defined_symbols(self.text, self.language)
        return self._symbols

    def facts(self, path: str) -> dict[str, Fact]:
        if self._facts is None:
            self._facts = facts_of(path, self.text)
        return self._facts


def verify(
    workspace: Workspace, index: WorkspaceIndex, resolutions: Iterable[Resolution],
    cache: BlobCache | None = None, search: NameSearch | None = None,
) -> tuple[list[ClaimCheck], list[ContractBreach]]:
    """The claims that do not hold, and contracts broken. `search`, when given, was
    asked for every symbol claim's name (want_symbols) and is read instead of
    searching the repos again."""
    claims = [
        r for r in resolutions if r.reference.is_claim and r.status is Status.RESOLVED and r.files
    ]
    contracts = workspace.settings.contracts
    wanted: set[FileId] = {r.files[0] for r in claims}
    for contract in contracts:
        for address in contract.facts:
            fa = FactAddress.parse(address)
            if fa.repo:
                wanted.add((fa.repo, fa.path))
    files = read_files(workspace, index, wanted)
    checks: list[ClaimCheck] = []
    missing_symbols: list[tuple[Resolution, str]] = []
    for res in claims:
        ref = res.reference
        target = files.get(res.files[0])
        if target is None:
            continue  # not a text file: nothing to check against
        if ref.kind is RefKind.LINES:
            checks.extend(_lines(ref, res.files[0], target))
        elif ref.kind is RefKind.SYMBOL:
            if (ref.name or "") not in target.symbols():
                missing_symbols.append((res, ref.name or ""))
        elif ref.kind is RefKind.FACT:
            checks.extend(_fact(ref, res.files[0], target))
    checks.extend(_symbols(workspace, index, missing_symbols, cache, search))
    breaches = [b for c in contracts for b in _contract(c, files)]
    return checks, breaches


def read_files(workspace: Workspace, index: WorkspaceIndex, wanted: set[FileId]) -> dict[FileId, _File]:
    """These files' texts, read in bulk (one `git cat-file` per repo); those that are
    no text are left out."""
    by_repo: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for repo, path in wanted:  # repo -> oid -> paths: two files may share one blob
        snap = index.snapshots.get(repo)
        oid = snap.oids.get(path) if snap is not None else None
        if oid is not None:
            by_repo[repo][oid].append(path)
    out: dict[FileId, _File] = {}
    for repo, oids in by_repo.items():
        spec = workspace.repo(repo)
        if spec is None:
            continue
        for oid, data in GitRepo(spec.path).read_blobs(list(oids)):
            text, _ = decode_blob(data)
            if text is not None:
                for path in oids[oid]:
                    out[(repo, path)] = _File(text, language_of(path))
    return out


# -- line claims ----------------------------------------------------------------


def text_file(text: str, path: str) -> _File:
    """A text of a file, for check_lines: made once for all the claims on it (its lines
    are split on first use)."""
    return _File(text, language_of(path))


def check_lines(ref: Reference, where: FileId, target: _File) -> list[ClaimCheck]:
    """A line claim against a text of the file it names (merge order's: a change's)."""
    return _lines(ref, where, target)


def _lines(ref: Reference, where: FileId, target: _File) -> list[ClaimCheck]:
    assert ref.lines is not None
    first, last = ref.lines
    lines = target.lines
    shown = f"{where[0]}:{where[1]}"
    span = f"{first}" if first == last else f"{first}-{last}"
    if last > len(lines):
        count = f"{len(lines)} line{'s' if len(lines) != 1 else ''}"
        return [ClaimCheck(ref, "AC201", f"line {span} is past the end of {shown} ({count})")]
    if not ref.claim:
        return []
    tokens = _TOKEN.findall(ref.claim)
    if not tokens:
        return []
    if len(tokens) == 1 and _DOTTED.fullmatch(tokens[0]):
        # A dotted name (a values key path `agent.TTYEnabled` in helm-docs' tables, a
        # `pkg.Func`) stands on its line as its last part: `TTYEnabled: false`.
        tokens = [re.split(r"\.|::", tokens[0])[-1]]
    window = "\n".join(lines[first - 1:last])
    # `key: value` prose often starts with words that are not code ("Verified:
    # strategy: Recreate"): leading tokens may be dropped, never the last two.
    suffixes = [tokens[i:] for i in range(max(1, len(tokens) - 1))]
    if any(_in_order(suffix, window) for suffix in suffixes):
        return []
    moved: list[tuple[int, int]] = []
    for suffix in suffixes:
        moved = target.elsewhere(suffix, last - first + 1)
        if where == (ref.repo, ref.path):  # the claim's own words are not where it points
            moved = [m for m in moved if not m[0] <= ref.line <= m[1]]
        if moved:
            break
    msg = f"{ref.claim!r} is no longer at {shown}:{span}"
    if len(moved) == 1:
        a, b = moved[0]
        if last - first > b - a:
            # A range claim names a block its words open (a definition and its body,
            # `strategy:` and its value): the block moved whole, so it keeps its size
            # from where the words now start (`:12-14` moved by 3 is `:15-17`, not `:15`).
            b = min(len(lines), a + last - first)
        new_span = f"{a}" if a == b else f"{a}-{b}"
        old_text, new_text = rewrite_span(ref, span, new_span)
        return [ClaimCheck(ref, "AC201", f"{msg}; it is now at {new_span}", new_span,
                           (old_text, new_text))]
    where_now = f"; it is at {len(moved)} places now: {_places(moved)}" if moved \
        else "; it is nowhere in the file"
    return [ClaimCheck(ref, "AC201", msg + where_now)]


def _places(spans: Sequence[tuple[int, int]], shown: int = 5) -> str:
    """`12, 40-41 and 88`; past `shown` of them, `and N more`."""
    named = [f"{a}" if a == b else f"{a}-{b}" for a, b in spans[:shown]]
    if len(spans) > shown:
        return ", ".join(named) + f" and {len(spans) - shown} more"
    return named[0] if len(named) == 1 else ", ".join(named[:-1]) + f" and {named[-1]}"


def _in_order(tokens: Sequence[str], text: str) -> bool:
    pos = 0
    for token in tokens:
        m = re.compile(rf"(?<![\w-]){re.escape(token)}(?![\w-])").search(text, pos)
        if m is None:
            return False
        pos = m.end()
    return True


def _find_elsewhere(lines: list[str], tokens: list[str], size: int) -> list[tuple[int, int]]:
    """Every minimal line range (at most `size` + 2 lines) that holds the tokens in order."""
    found: list[tuple[int, int]] = []
    reach = max(size, 1) + 2
    first_token = re.compile(rf"(?<![\w-]){re.escape(tokens[0])}(?![\w-])")
    for i, line in enumerate(lines):
        if not first_token.search(line):
            continue
        for j in range(i, min(len(lines), i + reach)):
            if _in_order(tokens, "\n".join(lines[i:j + 1])):
                found.append((i + 1, j + 1))
                break
    # A range inside another found one is the same place. Each starts on its own line,
    # in order, so one holding it starts before it and ends at or after its end (tested
    # against every pair before: with thousands of places, a file's stale claims took
    # minutes).
    kept: list[tuple[int, int]] = []
    furthest = 0
    for start, end in found:
        if end > furthest:
            kept.append((start, end))
        furthest = max(furthest, end)
    return kept


_DOTTED = compiled_on_use(r"[A-Za-z_$][\w$-]*(?:(?:\.|::)[A-Za-z_$][\w$-]*)+")
_NUMBERS = compiled_on_use(r"(\d+)(?:([ \t]*[-–][ \t]*L?)(\d+))?")


def rewrite_span(ref: Reference, old_span: str, new_span: str) -> tuple[str, str]:
    """(old, new) text of the reference with its last line numbers replaced, keeping
    the way they were written (`:27-28`, `#L27-L28`, `lines 27–28`)."""
    text = ref.text
    matches = list(_NUMBERS.finditer(text))
    last = matches[-1] if matches else None
    if last is None:
        return text, text
    first, _, end = new_span.partition("-")
    sep = last.group(2) or ("-L" if text[: last.start()].endswith("#L") else "-")
    new = first if not end else f"{first}{sep}{end}"
    return text, text[: last.start()] + new + text[last.end():]


# -- symbol claims -------------------------------------------------------------


def _symbols(
    workspace: Workspace, index: WorkspaceIndex, missing: list[tuple[Resolution, str]],
    cache: BlobCache | None = None, search: NameSearch | None = None,
) -> list[ClaimCheck]:
    if not missing:
        return []
    names = sorted({name for _, name in missing})
    homes = _definitions(workspace, index, names, search, cache)
    out = []
    for res, name in missing:
        repo, path = res.files[0]
        places = homes.get(name, [])
        if any((r, p) == (repo, path) for r, p, _ in places):
            continue  # git's search finds it in that very file: our patterns missed it
        msg = f"{repo}:{path} does not define {name}()"
        if places:
            shown = ", ".join(f"{r}:{p}:{n}" for r, p, n in places[:3])
            out.append(ClaimCheck(res.reference, "AC202", f"{msg}; it is defined at {shown}",
                                  f"{places[0][0]}:{places[0][1]}"))
        else:
            out.append(ClaimCheck(res.reference, "AC202", f"{msg}, and no file in the workspace does"))
    return out


def want_symbols(workspace: Workspace, index: WorkspaceIndex, search: NameSearch) -> None:
    """Ask `search` for every name a symbol claim cites, in every repo it searches
    anyway (for AC203): before the claims are checked it is not known which are
    missing, and a name more in a search that runs anyway costs next to nothing. A
    search of its own only for this would be wasted when no claim is wrong."""
    names = {r.name for r in index.references if r.kind is RefKind.SYMBOL and r.name}
    if not names:
        return
    for spec in workspace.repos:
        snap = index.snapshots.get(spec.name)
        if snap is not None and search.searches(spec.name):
            search.want(spec.name, GitRepo(spec.path), snap.commit, names)


def _definitions(
    workspace: Workspace, index: WorkspaceIndex, names: list[str], shared: NameSearch | None = None,
    cache: BlobCache | None = None,
) -> dict[str, list[tuple[str, str, int]]]:
    """Where each name is defined now: one `git grep` per repo at its commit, all
    started at once (a NameSearch: `shared` for the repos it already searches for
    these names, one of its own for the rest), finds the lines naming them in the files
    anchorcheck reads (as AC203 does); the definition shapes are matched here. What
    each repo's commit was asked, and where it defines those names, is cached by that
    commit (_symdefs_key): a repo is searched only for names new to its commit, so a
    run after one repo moved searches that repo alone (all eight of the bench's were
    searched again, the answer cached by every repo's commit at once). And a repo
    that moved since its last entry is asked the names of that entry in the files
    changed since only (_moved_symdefs): the entry holds every place, and the places
    in the files that did not change stand."""
    own = NameSearch(READ_PATHSPECS)
    # repo -> (its places by name, cached and new, the names asked now of every file,
    # what was stored, the names asked now of the files changed since the last entry)
    per_repo: dict[str, tuple[dict[str, list[tuple[str, int]]], list[str], _SymDefs, list[str]]] = {}
    searched: dict[str, NameSearch] = {}
    in_changed: dict[str, NameSearch] = {}
    try:
        for spec in workspace.repos:
            snap = index.snapshots.get(spec.name)
            if snap is None:
                continue
            git = GitRepo(spec.path)
            stored = _stored_symdefs(cache, snap.commit)
            changed: list[str] | None = None
            if stored is None:
                moved = _moved_symdefs(cache, spec.name, git, snap.commit)
                stored, changed = moved if moved is not None else (_SymDefs(), None)
            asked = set(stored.asked)
            places = {n: list(stored.homes.get(n, ())) for n in names if n in asked}
            new = [n for n in names if n not in asked]
            again = [n for n in names if n in asked] if changed is not None else []
            per_repo[spec.name] = (places, new, stored, again)
            if again and changed:
                in_changed[spec.name] = search_changed(spec.name, git, snap.commit, again, changed)
            if not new:
                continue
            if shared is not None and shared.covers(spec.name, new):
                searched[spec.name] = shared
            else:
                own.want(spec.name, git, snap.commit, new)
                searched[spec.name] = own
        own.start()
        for repo, (places, new, stored, again) in per_repo.items():
            if repo in searched:
                places.update(_homes(searched[repo].lines(repo), new))
            if repo in in_changed:
                for name, found in _homes(in_changed[repo].lines(repo), again).items():
                    # In git's order: by path, then line (every path is printable ASCII).
                    places[name] = sorted([*places[name], *found])
            if cache is not None and (repo in searched or stored.derived):
                # (A derived entry's other names were not asked of the changed files.)
                before = () if stored.derived else stored.asked
                homes = {**{n: stored.homes[n] for n in before if n in stored.homes},
                         **{n: places[n] for n in [*new, *again]}}
                cache.put_results([
                    (_symdefs_key(index.snapshots[repo].commit), {
                        "asked": sorted({*before, *new, *again}),
                        "homes": {n: [list(x) for x in v] for n, v in homes.items() if v}}),
                    (_last_symdefs_key(repo), index.snapshots[repo].commit),
                ])
    finally:
        own.cancel()
        for search in in_changed.values():
            search.cancel()
    # In the workspace's order of repos, and each repo's lines in git's order.
    homes_by_name: dict[str, list[tuple[str, str, int]]] = defaultdict(list)
    for repo, (places, _, _, _) in per_repo.items():
        for name in names:
            homes_by_name[name].extend((repo, path, line) for path, line in places.get(name, ()))
    return {name: found for name, found in homes_by_name.items() if found}


def _homes(lines: Iterable[tuple[str, int, str]], names: list[str]) -> dict[str, list[tuple[str, int]]]:
    """Where among the lines of a search each of `names` is defined, in their order."""
    matcher = re.compile(definition_regex(names))
    naming = re.compile("|".join(re.escape(name) for name in names)).search
    found: dict[str, list[tuple[str, int]]] = {n: [] for n in names}
    for path, line, text in lines:
        # The shared search's lines name other names too (AC203's, every symbol
        # claim's): the pattern, which no literal starts, is tried only on lines
        # naming one of these (0.4 s of a cold run on 30k lines for 2 names),
        # found by one alternation of them (a generator of `in` tests per line
        # was ~40 ms of the bench's 33k lines).
        if naming(text) is None:
            continue
        m = matcher.search(text)
        if m is not None:
            found[m.group("a") or m.group("b") or m.group("c")].append((path, line))
    return found


def _symdefs_key(commit: str) -> str:
    return f"symdefs:v3:{SEARCHED}:{commit}"  # v2: by repo commit, with the names asked; v3: C types first


def _last_symdefs_key(repo: str) -> str:
    """The commit `repo` was last asked at (its entry is where a moved repo starts)."""
    return f"symdefs-last:{SEARCHED}:{repo}"


@dataclass(frozen=True, slots=True)
class _SymDefs:
    """The names a commit was asked (AC202) and where it defines them; `derived`: from
    an earlier commit's entry, not stored yet."""

    asked: tuple[str, ...] = ()
    homes: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    derived: bool = False


def _stored_symdefs(cache: BlobCache | None, commit: str) -> _SymDefs | None:
    """The names a commit was asked (AC202) and where it defines them, as cached; None
    when it was asked nothing (or its entry is not well formed)."""
    stored = cache.get_result(_symdefs_key(commit)) if cache is not None else None
    if (isinstance(stored, dict) and isinstance(stored.get("asked"), list)
            and all(isinstance(n, str) for n in stored["asked"]) and isinstance(stored.get("homes"), dict)
            and all(isinstance(v, list) and all(isinstance(x, list) and len(x) == 2 and isinstance(x[0], str)
                                                and isinstance(x[1], int) for x in v)
                    for v in stored["homes"].values())):
        return _SymDefs(tuple(stored["asked"]),
                        {str(n): [(str(p), int(line)) for p, line in v] for n, v in stored["homes"].items()})
    return None


def _moved_symdefs(
    cache: BlobCache | None, repo: str, git: GitRepo, commit: str,
) -> tuple[_SymDefs, list[str]] | None:
    """The entry of `commit` as far as the entry of the commit this repo was last asked
    at tells (the places in files that did not change), and the files changed since,
    in which its names must be asked again; None when there is no such entry, or git
    cannot tell what changed."""
    found = last_entry(cache, _last_symdefs_key(repo), lambda last: _stored_symdefs(cache, last), git, commit)
    if found is None:
        return None
    before, changed = found
    if any(not printed_as_is(path) for homes in before.homes.values() for path, _ in homes):
        return None  # (a place git prints quoted: the places could not be put in git's order)
    gone = set(changed)
    homes = {n: [h for h in v if h[0] not in gone] for n, v in before.homes.items()}
    return _SymDefs(before.asked, homes, derived=True), changed


# -- restated values and contracts --------------------------------------------------


def _fact(ref: Reference, where: FileId, target: _File) -> list[ClaimCheck]:
    key = ref.name or ""
    address = f"{where[0]}:{where[1]}::{key}"
    fact = lookup(target.facts(where[1]), key)
    if fact is None:
        return [ClaimCheck(ref, "AC204", f"{address} names no fact of that file")]
    if isinstance(fact, list):
        return [ClaimCheck(ref, "AC204", f"{address} is ambiguous: {', '.join(fact[:4])}")]
    if same_value(fact.value, ref.claim or ""):
        return []
    return [ClaimCheck(ref, "AC204", f"this line restates {ref.claim!r}, but {address} is now "
                       f"{fact.value!r} (at line {fact.line})", fact.value)]


def _contract(contract: Contract, files: dict[FileId, _File]) -> list[ContractBreach]:
    values: list[tuple[str, str, str, Fact]] = []
    out: list[ContractBreach] = []
    for address in contract.facts:
        fa = FactAddress.parse(address)
        target = files.get((fa.repo or "", fa.path))
        fact = lookup(target.facts(fa.path), fa.key) if target is not None else None
        if not isinstance(fact, Fact):
            msg = f"contract {contract.name!r}: {address} is not a fact of the workspace"
            out.append(ContractBreach(contract.name, address, fa.repo or "", fa.path, 1, msg))
            continue
        values.append((address, fa.repo or "", fa.path, fact))
    if len({v[3].value for v in values}) <= 1 or all(
        same_value(values[0][3].value, v[3].value) for v in values
    ):
        return out
    reference = values[0]
    for address, repo, path, fact in values[1:]:
        if not same_value(fact.value, reference[3].value):
            out.append(ContractBreach(
                contract.name, address, repo, path, fact.line,
                f"contract {contract.name!r}: {address} is {fact.value!r}, but {reference[0]} is "
                f"{reference[3].value!r}",
            ))
    return out


def list_facts(workspace: Workspace, address: str | None) -> list[tuple[str, Fact]]:
    """(address, fact) for every fact in the files `address` names (`REPO:PATH`,
    `REPO:PATH::KEY`, a bare `PATH` in any repo), or in every fact file."""
    repo_part, path_part, key = None, None, None
    if address:
        location, _, key = address.partition("::")
        repo_part, colon, rest = location.partition(":")
        if colon:
            path_part = rest
        else:
            repo_part, path_part = None, location
        if repo_part is not None and workspace.repo(repo_part) is None:
            raise ConfigError(f"unknown repo {repo_part!r} in {address!r}")
    out: list[tuple[str, Fact]] = []
    for spec in workspace.repos:
        if repo_part is not None and spec.name != repo_part:
            continue
        git = GitRepo(spec.path)
        commit = git.resolve(spec.ref)
        # An excluded file's facts are listed only when asked for by path.
        excluded = excluder(workspace.settings.excluded_in(spec)) if path_part is None else None
        entries = {
            e.oid: e.path for e in git.list_tree(commit)
            if not e.is_submodule and not e.is_symlink and e.size <= workspace.settings.max_file_size
            and (path_part is None or e.path == path_part)
            and _fact_file(e.path) and (excluded is None or not excluded.search(e.path))
        }
        for oid, data in git.read_blobs(list(entries)):
            text, _ = decode_blob(data)
            if text is None:
                continue
            facts = facts_of(entries[oid], text)
            if key:
                found = lookup(facts, key)
                facts = {found.key: found} if isinstance(found, Fact) else {}
            out.extend((f"{spec.name}:{entries[oid]}::{k}", f) for k, f in sorted(facts.items()))
    return sorted(out, key=lambda item: item[0])


def _fact_file(path: str) -> bool:
    return path.endswith((".yaml", ".yml", ".tpl", ".json", ".toml")) or language_of(path) == "python"
