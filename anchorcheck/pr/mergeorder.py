"""Merge order: which open change must land first so every reference resolves on
arrival, and which changes break references, conflict, or race on a version.

Each change is applied to its repo's base as a PR merge would: the files it touches
(between the merge base and its head) replace the base's. Only those files are read;
everything else comes from the base index, which the blob memo shares. Then, for
every pair of changes, the references each one adds or keeps are resolved with and
without the other: B depends on A when a reference of B resolves against
base+A+B but not against base+B.

Here are the analysis (analyse) and its steps; what it finds is in analysis.py, the
scenarios it asks (the base with some changes applied) in scenarios.py, and the order
it computes from the dependencies in order.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from anchorcheck.config.workspace import Workspace
from anchorcheck.errors import ConfigError
from anchorcheck.git.blobtext import decode_blob
from anchorcheck.git.output import Hunk
from anchorcheck.git.repo import GitRepo
from anchorcheck.index.cache import BlobCache
from anchorcheck.index.crawl import paused_gc
from anchorcheck.index.lazy import of_kind
from anchorcheck.index.plan import BlobMemo
from anchorcheck.model.anchor import Anchor
from anchorcheck.model.reference import Reference, RefKind
from anchorcheck.pr.analysis import (
    Analysis,
    Break,
    Conflict,
    Dependency,
    FactChange,
    UnbumpedPackage,
    VersionBump,
    VersionRace,
)
from anchorcheck.pr.change import Change, ChangeSpec, NoMergeBase, resolve_change
from anchorcheck.pr.order import order_changes
from anchorcheck.pr.scenarios import Scenarios
from anchorcheck.pr.stale import RepoChange, change_stale
from anchorcheck.pr.versions import (
    DEFAULT_VERSION_FILES,
    bump,
    bumped_part,
    is_version_file,
    read_version,
    unbumped_packages,
    version_key,
    version_line,
)
from anchorcheck.resolve.resolution import Status
from anchorcheck.resolve.suggest import suggest
from anchorcheck.threads import InThread

_UNCHECKED = (Status.RESOLVED, Status.EXTERNAL)


@paused_gc()  # as for a check (check.run_check)
def analyse(
    workspace: Workspace,
    specs: Sequence[ChangeSpec],
    base_overrides: dict[str, str],
    memo: BlobMemo | None = None,
    version_files: tuple[str, ...] = DEFAULT_VERSION_FILES,
    cache: BlobCache | None = None,
) -> Analysis:
    labels = [s.label for s in specs]
    if len(set(labels)) != len(labels):
        raise ConfigError("each --pr label must be given once")
    base_refs = {r.name: base_overrides.get(r.name, r.ref) for r in workspace.repos}
    # Each change's commits and paths come from five git commands, one after the
    # other: asked in threads, they run while this thread decodes the base snapshots
    # (a PR run waited ~30 ms for them after that).
    # A change from the forge has its own base branch; one given by --pr, the repo's.
    asked = [_resolving(spec, workspace, spec.base or base_refs[spec.repo]) for spec in specs]
    try:
        world = Scenarios(workspace, base_refs, {} if memo is None else memo, cache)
    finally:
        for job in asked:
            job.join()
    resolved: list[Change] = []
    unplanned: list[tuple[str, str]] = []
    for spec, job in zip(specs, asked, strict=True):
        try:
            resolved.append(job.result())
        except NoMergeBase as exc:
            unplanned.append((spec.label, str(exc).removeprefix(f"{spec.label}: ")))
    if not resolved:
        raise ConfigError("; ".join(f"{label}: {why}" for label, why in unplanned))
    changes = tuple(resolved)
    for change in changes:
        world.add(change)
    result = Analysis(changes, world.resolver(()).index, unplanned=unplanned)
    labels = [c.label for c in changes]
    _anchor_changes(world, result)
    _dependencies(world, result)
    _declared(result, [s for s in specs if s.label in labels])
    _breaks(world, result)
    order_changes(result, labels)
    _conflicts(world, result)
    _versions(world, result, version_files)
    _unbumped(world, result)
    _facts(world, result)
    _stale_claims(world, result)
    _stale_comments(world, result)
    result.blobs_read_base = world.blobs_read_base
    # The base is read through crawl's own git objects; these count only the changes.
    result.blobs_read_changes = sum(g.blobs_read for g in world.gits.values())
    return result


def _resolving(spec: ChangeSpec, workspace: Workspace, base_ref: str) -> InThread[Change]:
    repo = workspace.repo(spec.repo)
    assert repo is not None  # ChangeSpec.parse checked it
    return InThread(resolve_change, spec, GitRepo(repo.path), base_ref)


def _refs_of(world: Scenarios, change: Change, labels: frozenset[str]) -> list[Reference]:
    """The references a change adds or keeps: those in the files it touches."""
    touched = set(change.changed)
    snap = world.snapshot(change.repo, labels)
    return [r for r in snap.references if r.path in touched]


def _anchor_changes(world: Scenarios, result: Analysis) -> None:
    for change in result.changes:
        touched = set(change.changed)
        before = {_anchor_key(a): a for a in world.base_snaps[change.repo].anchors if a.path in touched}
        after = {_anchor_key(a): a for a in world.snapshot(change.repo, frozenset({change.label})).anchors
                 if a.path in touched}
        result.added_anchors[change.label] = tuple(a for k, a in after.items() if k not in before)
        result.removed_anchors[change.label] = tuple(a for k, a in before.items() if k not in after)


def _anchor_key(a: Anchor) -> tuple[str, str, str]:
    return (a.path, a.kind.value, a.name)


def _dependencies(world: Scenarios, result: Analysis) -> None:
    labels = [c.label for c in result.changes]
    everything = world.resolver(labels)
    # Whether a reference is new: only the changed repos' base references can tell
    # (the others stay undecoded: lazy.py).
    base_texts = {(r.repo, r.path, r.text) for repo in {c.repo for c in result.changes}
                  for r in world.base_snaps[repo].references}
    for b in result.changes:
        alone = world.resolver([b.label])
        for ref in _refs_of(world, b, frozenset({b.label})):
            if alone.resolve(ref).status in _UNCHECKED:
                continue
            found = False
            for a in result.changes:
                if a.label == b.label:
                    continue
                res = world.resolver([a.label, b.label]).resolve(ref)
                if res.status is Status.RESOLVED:
                    result.dependencies.append(Dependency(a.label, b.label, ref, res.anchors))
                    found = True
            final = everything.resolve(ref)
            new = (ref.repo, ref.path, ref.text) not in base_texts
            if not found and new and final.status not in _UNCHECKED:
                result.dangling.append((b.label, final))


def _declared(result: Analysis, specs: Sequence[ChangeSpec]) -> None:
    """Depends-On lines against the computed dependencies: both order the changes, and
    where they disagree the advisory says so."""
    labels = {c.label for c in result.changes}
    needs: dict[str, set[str]] = {}
    for dep in result.dependencies:
        needs.setdefault(dep.after, set()).add(dep.first)
    for spec in specs:
        said = {label for label, _ in spec.declares}
        if not spec.declares:
            continue  # declaring nothing is no claim: AC301 says what it needs
        for label, written in spec.declares:
            if label == spec.label:
                continue
            if label in labels:
                result.declared.append((label, spec.label, written))
                if label not in needs.get(spec.label, set()):
                    result.unneeded.append((label, spec.label, written))
            else:
                result.unknown_declared.append((spec.label, written))
        result.undeclared.extend(d for d in result.dependencies
                                 if d.after == spec.label and d.first not in said)


def _breaks(world: Scenarios, result: Analysis) -> None:
    if not any(result.removed_anchors.values()):
        return  # no change removes an anchor: nothing to break (and no base-wide resolve)
    base = world.resolver(())
    base_citations: dict[tuple[str, str, str], list[Reference]] = {}
    for ref in result.base.references:
        res = base.resolve(ref)
        for anchor in res.anchors if res.status is Status.RESOLVED else ():
            base_citations.setdefault(_anchor_id(anchor), []).append(ref)
    for a in result.changes:
        removed = result.removed_anchors[a.label]
        if not removed:
            continue
        after_a = world.resolver([a.label])
        for anchor in removed:
            broken: list[tuple[str | None, Reference]] = []
            for ref in base_citations.get(_anchor_id(anchor), []):
                current = _current_version(world, ref, frozenset({a.label}))
                if current is not None and after_a.resolve(current).status is not Status.RESOLVED:
                    broken.append((None, current))
            for b in result.changes:
                if b.label == a.label:
                    continue
                with_b = world.resolver([b.label])
                both = world.resolver([a.label, b.label])
                for ref in _refs_of(world, b, frozenset({b.label})):
                    res = with_b.resolve(ref)
                    if (
                        res.status is Status.RESOLVED
                        and any(_anchor_id(x) == _anchor_id(anchor) for x in res.anchors)
                        and both.resolve(ref).status is not Status.RESOLVED
                    ):
                        broken.append((b.label, ref))
            if broken:
                result.breaks.append(Break(a.label, anchor, tuple(broken), _renamed(result, a.label, anchor)))


def _anchor_id(a: Anchor) -> tuple[str, str, str]:
    return (a.repo, a.path, a.display)


def _current_version(world: Scenarios, ref: Reference, labels: frozenset[str]) -> Reference | None:
    """The same citation in the scenario (the change may have edited or dropped it)."""
    snap = world.snapshot(ref.repo, labels)
    base = world.base_snaps[ref.repo]
    if snap is base:
        return ref
    # The same text may be cited twice in a file (CONTRIBUTING.md's lines 260 and 277):
    # the n-th citation of it in the base is the n-th in the scenario.
    nth = [r for r in base.references if r.path == ref.path and r.text == ref.text].index(ref) \
        if ref in base.references else 0
    same = [r for r in snap.references if r.path == ref.path and r.text == ref.text]
    return same[nth] if nth < len(same) else None


def _renamed(result: Analysis, label: str, anchor: Anchor) -> Anchor | None:
    same_file = [a for a in result.added_anchors[label] if a.path == anchor.path and a.kind == anchor.kind]
    if len(same_file) == 1:
        return same_file[0]
    close = suggest(anchor.name, [a.name for a in same_file])
    return next((a for a in same_file if close and a.name == close[0]), None)


def _conflicts(world: Scenarios, result: Analysis) -> None:
    for change in result.changes:
        git = world.gits[change.repo]
        paths = git.merge_conflicts(change.head_commit, change.base_commit)
        if paths:
            line = conflict_line(git, change.head_commit, change.base_commit, paths[0])
            result.conflicts.append(Conflict(change.label, f"base:{change.base_ref}", paths, line))
    for a, b in combinations(result.changes, 2):
        if a.repo != b.repo:
            continue
        git = world.gits[a.repo]
        paths = git.merge_conflicts(a.head_commit, b.head_commit)
        if paths:
            result.conflicts.append(Conflict(a.label, b.label, paths,
                                             conflict_line(git, a.head_commit, b.head_commit, paths[0])))
            result.conflicts.append(Conflict(b.label, a.label, paths,
                                             conflict_line(git, b.head_commit, a.head_commit, paths[0])))


def conflict_line(git: GitRepo, mine: str, other: str, path: str) -> int:
    """The line of `mine`'s version of `path` where its edit meets `other`'s: the first
    of its hunks against their merge base that overlaps or touches one of the other's
    (git's merge conflicts on touching edits too), else its first hunk; 1 when neither
    is found (a conflict of modes, or of a file one side deleted). Line 1 was every
    conflict's line, the file's top, however far below the clash stood."""
    base = git.merge_base(mine, other)
    if base is None:
        return 1
    ours = git.diff_hunks(base, mine, [path]).get(path, [])
    theirs = git.diff_hunks(base, other, [path]).get(path, [])

    def span(h: Hunk) -> tuple[int, int]:
        # In the merge base's lines: an insertion after line s sits between s and s+1.
        return (h.old_start, h.old_start + len(h.old) - 1) if h.old else (h.old_start + 1, h.old_start)

    meeting = [h for h in ours if any(span(h)[0] <= span(o)[1] + 1 and span(o)[0] <= span(h)[1] + 1
                                      for o in theirs)]
    if not (meeting or ours):
        return 1
    first = (meeting or ours)[0]
    return max(first.new_start if first.new else first.new_start + 1, 1)


def _versions(world: Scenarios, result: Analysis, names: tuple[str, ...]) -> None:
    for change in result.changes:
        git = world.gits[change.repo]
        for path in change.changed:
            if not is_version_file(path, names) or path not in change.head_entries:
                continue
            old = _version_at(git, change.merge_base, path)
            new_text = _text(git, change.head_entries[path].oid)
            new = read_version(path, new_text) if new_text is not None else None
            if new is None or new == old:
                continue
            line = version_line(new_text or "", new)
            result.bumps.append(VersionBump(change.label, change.repo, path, old or "", new,
                                            _version_at(git, change.base_commit, path), line))
    # Of the changes that claim one new version, the first to land in the order keeps
    # it; each later one re-cuts, each to a version of its own (told the same one, two
    # of them raced again).
    landing = {label: i for i, label in enumerate(result.order)}
    for bump_ in result.bumps:
        same_file = [b for b in result.bumps if (b.repo, b.path) == (bump_.repo, bump_.path)]
        others = tuple(b.change for b in same_file if b.change != bump_.change and b.new == bump_.new)
        behind = bump_.base_now is not None and version_key(bump_.base_now) >= version_key(bump_.new)
        mine = landing.get(bump_.change, len(landing))
        before = [o for o in others if landing.get(o, len(landing)) < mine]
        if not behind and not before:
            continue  # no race, or this change lands first of those claiming the version
        taken = [b.new for b in same_file if b.change != bump_.change]
        if bump_.base_now is not None:
            taken.append(bump_.base_now)
        highest = max(taken, key=version_key)
        part = bumped_part(bump_.old, bump_.new) if bump_.old else len(bump_.new.split(".")) - 1
        suggested = bump(highest, part)
        for _ in range(max(0, len(before) - 1)):  # (the first of `before` keeps the version)
            suggested = bump(suggested, part)
        result.races.append(VersionRace(bump_, others, behind, suggested))


def _unbumped(world: Scenarios, result: Analysis) -> None:
    """AC306: packages a change edits without bumping their version (the seed's
    chart-version-guard.yml, told while the PR is open, beside the merge order)."""
    settings = world.workspace.settings
    for change in result.changes:
        git = world.gits[change.repo]
        paths = [*world.base_snaps[change.repo].paths, *change.head_entries]
        for u in unbumped_packages(git, paths, change.changed, change.merge_base, change.head_commit,
                                   settings.version_guard, settings.version_guard_skip):
            taken = [u.version, *(b.new for b in result.bumps if (b.repo, b.path) == (change.repo, u.path))]
            now = _version_at(git, change.base_commit, u.path)
            if now is not None:
                taken.append(now)
            highest = max(taken, key=version_key)
            result.unbumped.append(UnbumpedPackage(change.label, change.repo, u.path, u.version, u.touched,
                                                   u.line, bump(highest, len(highest.split(".")) - 1)))


def _stale_comments(world: Scenarios, result: Analysis) -> None:
    """AC206: comments each change leaves naming a token it replaced, read in the
    workspace as that change alone leaves it."""
    max_size = world.workspace.settings.max_file_size
    for change in result.changes:
        resolver = world.resolver([change.label])
        rc = RepoChange(change.repo, world.gits[change.repo], change.merge_base, change.head_commit,
                        change.changed)
        for s in change_stale([rc], resolver.index, resolver.resolve, max_size):
            result.stale_comments.append((change.label, s))


def _text(git: GitRepo, oid: str) -> str | None:
    for _, data in git.read_blobs([oid]):
        return decode_blob(data)[0]
    return None


def _version_at(git: GitRepo, commit: str, path: str) -> str | None:
    entry = git.tree_entry(commit, path)
    if entry is None:
        return None
    text = _text(git, entry.oid)
    return read_version(path, text) if text is not None else None


def _stale_claims(world: Scenarios, result: Analysis) -> None:
    """Line claims (with their claimed text) that held on the base and that a change
    makes stale: it edits the lines they cite, or moves them. Only claims into files a
    change edits are read; a claim the same change rewrites is judged as it rewrote it."""
    touched = {(c.repo, path) for c in result.changes for path in c.changed}
    if not touched:
        return
    base = world.resolver(())
    claims: dict[tuple[str, str], list[Reference]] = {}
    for snap in result.base.snapshots.values():
        for ref in of_kind(snap.references, RefKind.LINES):
            if not ref.claim:
                continue
            res = base.resolve(ref)
            if res.status is Status.RESOLVED and res.files and res.files[0] in touched:
                claims.setdefault(res.files[0], []).append(ref)
    if not claims:
        return
    # Imported here: most changes touch no cited file.
    from anchorcheck.resolve.verify import check_lines, text_file

    for change in result.changes:
        git = world.gits[change.repo]
        base_snap = world.base_snaps[change.repo]
        for path in change.changed:
            cited = claims.get((change.repo, path))
            if not cited or path not in base_snap.oids:
                continue
            old_text = _text(git, base_snap.oids[path])
            entry = change.head_entries.get(path)
            new_text = _text(git, entry.oid) if entry is not None else None
            if old_text is None or new_text is None or old_text == new_text:
                continue
            # (Each text's lines split once for all the claims on it.)
            old_file, new_file = text_file(old_text, path), text_file(new_text, path)
            for ref in cited:
                if check_lines(ref, (change.repo, path), old_file):
                    continue  # stale on the base already: `check` reports it
                current = _current_version(world, ref, frozenset({change.label}))
                if current is None:
                    continue  # the change removed the citation
                for failed in check_lines(current, (change.repo, path), new_file):
                    result.stale_claims.append((change.label, failed))


def _facts(world: Scenarios, result: Analysis) -> None:
    """Facts a change moves that are restated elsewhere (markers) or in contracts."""
    base = world.resolver(())
    restated: dict[tuple[str, str, str], list[Reference]] = {}
    for snap in result.base.snapshots.values():
        for ref in of_kind(snap.references, RefKind.FACT):  # decodes nothing when a repo has none
            res = base.resolve(ref)
            if res.status is Status.RESOLVED and res.files:
                repo, path = res.files[0]
                restated.setdefault((repo, path, ref.name or ""), []).append(ref)
    if not restated and not world.workspace.settings.contracts:
        return
    # Imported here: most workspaces restate no fact, and its dataclasses and patterns
    # cost every merge order's start.
    from anchorcheck.extract.facts import Fact, FactAddress, facts_of, lookup, same_value

    in_contracts: dict[tuple[str, str, str], list[str]] = {}
    for contract in world.workspace.settings.contracts:
        for address in contract.facts:
            fa = FactAddress.parse(address)
            in_contracts.setdefault((fa.repo or "", fa.path, fa.key), []).append(contract.name)
    for change in result.changes:
        git = world.gits[change.repo]
        base_snap = world.base_snaps[change.repo]
        for path in change.changed:
            keys = {k for (r, p, k) in (*restated, *in_contracts) if (r, p) == (change.repo, path)}
            if not keys or path not in change.head_entries or path not in base_snap.oids:
                continue
            old_text = _text(git, base_snap.oids[path])
            new_text = _text(git, change.head_entries[path].oid)
            if old_text is None or new_text is None:
                continue
            old_facts, new_facts = facts_of(path, old_text), facts_of(path, new_text)
            for key in sorted(keys):
                before, after = lookup(old_facts, key), lookup(new_facts, key)
                if not isinstance(before, Fact):
                    continue
                new_value = after.value if isinstance(after, Fact) else "(gone)"
                if isinstance(after, Fact) and same_value(before.value, after.value):
                    continue
                refs = tuple(r for r in restated.get((change.repo, path, key), [])
                             if not same_value(r.claim or "", new_value))
                names = tuple(in_contracts.get((change.repo, path, key), []))
                if refs or names:
                    line = after.line if isinstance(after, Fact) else before.line
                    result.fact_changes.append(FactChange(
                        change.label, f"{change.repo}:{path}::{key}", before.value, new_value,
                        line, refs, names,
                    ))
