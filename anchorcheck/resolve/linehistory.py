"""Line claims followed through history: the lines a claim meant when it was written,
followed to the checked commit as `git blame` follows lines (AC201, AC205).

A claim that names lines and no text (`sigs.yaml#L250`, "see test.mk:28") cannot be
checked against its own words, but history knows which lines it meant:

1. `git blame` of the citing line gives the commit that wrote it.
2. The cited file as it was then: in the citing repo, at that commit, or at the merge
   that brought it into the checked commit's first-parent line; in another repo, at
   the last commit of that line made up to that commit's time.
3. `git blame --reverse --first-parent` from there to the checked commit follows
   those lines forward (a merge is one step, as the mainline saw it): each comes back
   either still standing (and where it stands now) or with the commit that changed it.

So a claim has one of three outcomes: its lines all stand, together, elsewhere now
(AC201, with the new numbers, which `fix` writes); some were rewritten since it was
written (AC205, naming the commit); or nothing to say. Only claims are followed, the
walk is capped at `line-history` commits on each side, and answers are cached by the
blob ids and commits they depend on, so a run whose files did not change asks git
nothing.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from anchorcheck.config.workspace import Workspace
from anchorcheck.errors import GitError
from anchorcheck.git.repo import BlameLine, GitRepo
from anchorcheck.index.cache import BlobCache
from anchorcheck.model.reference import RefKind
from anchorcheck.resolve.resolver import Resolution, Status, WorkspaceIndex
from anchorcheck.resolve.verify import ClaimCheck, rewrite_span

_KEY = "linehistory:v1"
_STANDING = "*"  # stored for "the checked commit": the same file elsewhere gives the same answer
_GitOf = Callable[[str], GitRepo | None]


@dataclass(frozen=True, slots=True)
class Written:
    """Where a claim's lines were when it was written: the commit that wrote the
    citing line, and the commit of the cited repo its author saw."""

    commit: str
    seen: str  # the cited repo's commit at that time (== commit in the same repo)


def trackable(res: Resolution, index: WorkspaceIndex) -> bool:
    """A claim with lines and no text of its own, resolved to a file whose line count
    it fits (a claim past the end is reported by verify already)."""
    ref = res.reference
    if ref.kind is not RefKind.LINES or ref.claim or ref.lines is None:
        return False
    if res.status is not Status.RESOLVED or not res.files:
        return False
    repo, path = res.files[0]
    snap = index.snapshots.get(repo)
    return snap is not None and ref.lines[1] <= snap.line_counts.get(path, 0)


def track_lines(
    workspace: Workspace, index: WorkspaceIndex, resolutions: Iterable[Resolution], depth: int,
    cache: BlobCache | None = None,
) -> list[ClaimCheck]:
    """AC201 (moved, fixable) and AC205 (rewritten) for the claims history can follow."""
    return LineWalk(workspace, index, resolutions, depth, cache).result()


class LineWalk:
    """track_lines, started: its git commands run in a thread of their own while the
    caller goes on (a cold check verifies claims and waits for AC203's history
    meanwhile), and `result()` waits for them. On git/git one claim's walk is four git
    commands, each waiting for the one before (1.9 s): it ran after everything else.
    The cache is asked and written in the caller's thread only (a connection belongs to
    its thread): what it holds when the walk starts (where each claim was written) is
    read first; the walk then follows the claims git had to place (a claim whose
    origin was not stored has no stored walk either, but for another claim's with the
    same lines), and `result()` reads the other walks' answers."""

    def __init__(
        self, workspace: Workspace, index: WorkspaceIndex, resolutions: Iterable[Resolution], depth: int,
        cache: BlobCache | None = None,
    ) -> None:
        self.index, self.depth, self.cache = index, depth, cache
        self.claims = [r for r in resolutions if trackable(r, index)] if depth > 0 else []
        self.gits: dict[str, GitRepo | None] = {}
        for repo in {r.files[0][0] for r in self.claims} | {r.reference.repo for r in self.claims}:
            # (A repo that came as an index file may have no git directory here.)
            spec = workspace.repo(repo)
            try:
                self.gits[repo] = GitRepo(spec.path) if spec is not None else None
            except GitError:
                self.gits[repo] = None
        self.origin_keys = {id(r): _origin_key(index, r) for r in self.claims}
        self.stored_origins: Mapping[str, Any] = {}
        if cache is not None and self.claims:
            self.stored_origins = cache.get_results(self.origin_keys.values())
        self._pool: ThreadPoolExecutor | None = None
        self._walk: Future[_Walked] | None = None
        self._cancelled = False
        if self.claims:
            self._pool = ThreadPoolExecutor(1)
            self._walk = self._pool.submit(self._git_walk)

    def git(self, repo: str) -> GitRepo | None:
        return self.gits.get(repo)

    def _git_walk(self) -> _Walked:
        """In the walk's thread: what only git can say."""
        written, new_origins, placed = _written(self.index, self.claims, self.depth, self.origin_keys,
                                                self.stored_origins, self.git)
        if self._cancelled:
            return written, new_origins, {}
        ask = _to_follow(self.index, [r for r in self.claims if id(r) in placed], written, self.git)
        return written, new_origins, _follow(ask, self.depth)

    def cancel(self) -> None:
        """Stop after the git commands running now (when the check ends otherwise); a
        no-op once result() has been read."""
        self._cancelled = True
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)

    def result(self) -> list[ClaimCheck]:
        if self._walk is None or self._pool is None:
            return []
        try:
            written, new_origins, followed = self._walk.result()
        finally:
            self._pool.shutdown()
        cache, index = self.cache, self.index
        if cache is not None and new_origins:
            cache.put_results((k, list(v)) for k, v in new_origins.items())
        claims = self.claims
        keys = {id(r): _followed_key(index, r, w) for r in claims if (w := written.get(id(r))) is not None}
        stored = cache.get_results(keys.values()) if cache is not None else {}
        # The walks of claims whose origin was stored (each key once), asked now.
        more = _to_follow(index, [r for r in claims if keys.get(id(r)) not in stored
                                  and keys.get(id(r)) not in followed], written, self.git)
        followed = {**followed, **_follow(more, self.depth)}
        checks: list[ClaimCheck] = []
        asked: dict[str, list[BlameLine]] = {}
        new: dict[str, tuple[str, list[BlameLine]]] = {}
        for res in claims:
            when = written.get(id(res))
            if when is None:
                continue
            repo = res.files[0][0]
            now = index.snapshots[repo].commit
            if when.seen == now:
                continue
            key = keys[id(res)]
            lines = asked.get(key)
            if lines is None and key in stored:
                lines = [BlameLine(*row)._replace(commit=now) if row[0] == _STANDING else BlameLine(*row)
                         for row in stored[key]]
            if lines is None:
                if key not in followed:
                    continue  # (no git for its repo)
                lines = followed[key]
                new[key] = (now, lines)
            asked[key] = lines
            check = _outcome(res, when, now, lines, self.git)
            if check is not None:
                checks.append(check)
        if cache is not None and new:
            cache.put_results((k, [[_STANDING if x.commit == at else x.commit, *x[1:]] for x in v])
                              for k, (at, v) in new.items())
        return checks


# What the walk's thread found: when each claim was written (by the id of its
# resolution), the origins git placed (to store), and the walks it followed (by key).
_Walked = tuple[dict[int, "Written"], dict[str, BlameLine], dict[str, list[BlameLine]]]
_Follow = dict[str, tuple[GitRepo, str, str, str, int, int]]


def _to_follow(
    index: WorkspaceIndex, claims: Sequence[Resolution], written: dict[int, Written], git: _GitOf,
) -> _Follow:
    """The walks to ask git for, by key (each once): the claims' lines, from where they
    were seen when written to the checked commit."""
    out: _Follow = {}
    for res in claims:
        when = written.get(id(res))
        repo, path = res.files[0]
        now = index.snapshots[repo].commit
        g = git(repo)
        if when is not None and when.seen != now and g is not None:
            assert res.reference.lines is not None
            out.setdefault(_followed_key(index, res, when), (g, when.seen, now, path, *res.reference.lines))
    return out


def _follow(ask: _Follow, depth: int) -> dict[str, list[BlameLine]]:
    """Each walk's lines, none for a walk past the cap. How far each walk is and where
    its lines went are asked at once: the count only says whether the walk is past the
    cap (then its lines are not used), and waiting for it first put two history walks
    one after the other (git/git: 0.39 s, then the blame)."""
    followed: dict[str, list[BlameLine]] = {}
    if ask:
        with ThreadPoolExecutor(_AT_ONCE) as pool:
            counted = [pool.submit(g.commits_between, seen, now) for g, seen, now, *_ in ask.values()]
            walked = [pool.submit(g.lines_since, seen, now, path, first, last)
                      for g, seen, now, path, first, last in ask.values()]
            for key, count, walk in zip(ask, counted, walked, strict=True):
                followed[key] = [] if count.result() > depth else walk.result()
    return followed


def _written(
    index: WorkspaceIndex, claims: Sequence[Resolution], depth: int, keys: dict[int, str],
    stored: Mapping[str, Any], git: _GitOf,
) -> tuple[dict[int, Written], dict[str, BlameLine], set[int]]:
    """When each claim was written, by the id of its resolution: one `git blame` per
    citing file for the lines not stored (`keys`: each claim's origin key). A line
    written before the walk's cap has no answer. Also the origins found, to store, and
    the ids of the claims git placed."""
    by_file: dict[tuple[str, str], list[Resolution]] = defaultdict(list)
    for res in claims:
        by_file[(res.reference.repo, res.reference.path)].append(res)
    origins: dict[int, BlameLine] = {}
    new: dict[str, BlameLine] = {}
    blames: list[tuple[GitRepo, str, str, list[Resolution]]] = []
    for (repo, path), group in by_file.items():
        missing = [r for r in group if keys[id(r)] not in stored]
        for r in group:
            if keys[id(r)] in stored:
                origins[id(r)] = BlameLine(*stored[keys[id(r)]])
        g = git(repo)
        if missing and g is not None:
            blames.append((g, index.snapshots[repo].commit, path, missing))
    # Where each walk stops (one per repo and commit), then every file's blame, each
    # batch of git commands run at once.
    starts = {(g.git_dir, commit): (g, commit) for g, commit, _, _ in blames}
    since = dict(zip(starts, _parallel(lambda job: job[0].ancestor(job[1], depth), list(starts.values())),
                     strict=True))
    found_in = _parallel(lambda job: job[0].line_origins(job[1], job[2], [r.reference.line for r in job[3]],
                                                        since[(job[0].git_dir, job[1])]), blames)
    placed: set[int] = set()
    for (_, commit, _, missing), found in zip(blames, found_in, strict=True):
        for r in missing:
            line = found.get(r.reference.line)
            if line is None:
                continue
            origins[id(r)] = line
            placed.add(id(r))
            # Not stored for the checked commit's own lines: a work tree's commit is made
            # up, and the same file committed later was written by that commit.
            if line.commit != commit:
                new[keys[id(r)]] = line
    # Where each claim's lines were seen when it was written: asked of git all at once.
    # (A line of the checked commit itself was written against the cited repo as it was
    # then; a work tree's lines, against it as it is: that commit's time is 0.)
    # Same repo: followed along the checked commit's first-parent line, from where the
    # citing commit came into it (a merge, for a branch's commit). Another repo: its
    # last commit made by then.
    asks: dict[tuple[str, str, str | int], tuple[GitRepo, str, str | int]] = {}
    for res in claims:
        origin = origins.get(id(res))
        repo = res.files[0][0]
        g = git(repo)
        if origin is None or origin.boundary or g is None:
            continue
        when: str | int = origin.commit if repo == res.reference.repo else origin.time
        asks.setdefault((repo, "mainline" if isinstance(when, str) else "before", when),
                        (g, index.snapshots[repo].commit, when))
    # (Each head's first-parent line is listed once, before the mainline questions; the
    # walk starts listed those of the citing commits already.)
    heads = {(g.git_dir, head): (g, head) for g, head, when in asks.values() if isinstance(when, str)}
    _parallel(lambda job: job[0].first_parents(job[1]), list(heads.values()))

    def seen(job: tuple[GitRepo, str, str | int]) -> str | None:
        g, head, when = job
        return g.mainline(head, when) if isinstance(when, str) else g.commit_before(head, when)

    answers = dict(zip(asks, _parallel(seen, list(asks.values())), strict=True))
    out: dict[int, Written] = {}
    for res in claims:
        origin = origins.get(id(res))
        repo = res.files[0][0]
        if origin is None or origin.boundary:
            continue
        same = repo == res.reference.repo
        answer = answers.get((repo, "mainline", origin.commit) if same else (repo, "before", origin.time))
        if answer is not None:
            out[id(res)] = Written(origin.commit, answer)
    return out, new, placed


_T = TypeVar("_T")
_R = TypeVar("_R")
# git commands of the line walk at once: each walks history in a process of its own
# (numpy's and git's, tens of thousands of commits: 0.1-0.3 s each), and one after
# another they were 3.4 s of a cold check of six history-bearing repos.
_AT_ONCE = 4


def _parallel(fn: Callable[[_T], _R], jobs: Sequence[_T]) -> list[_R]:
    """[fn(job) for job in jobs], the git commands they run running side by side."""
    if len(jobs) <= 1:
        return [fn(job) for job in jobs]
    with ThreadPoolExecutor(min(_AT_ONCE, len(jobs))) as pool:
        return list(pool.map(fn, jobs))


def _outcome(
    res: Resolution, when: Written, now: str, lines: list[BlameLine], git: _GitOf,
) -> ClaimCheck | None:
    ref = res.reference
    assert ref.lines is not None
    first, last = ref.lines
    if len(lines) != last - first + 1:
        return None  # git could not follow them (the file was not there then)
    repo, path = res.files[0]
    shown = f"{repo}:{path}"
    span = _span(first, last)
    written = f"written in {when.commit[:12]}"
    standing = [line.line for line in lines if line.commit == now]
    if len(standing) == len(lines):
        a, b = min(standing), max(standing)
        if (a, b) == (first, last):
            return None
        if b - a + 1 == len(lines):
            new_span = _span(a, b)
            return ClaimCheck(ref, "AC201", f"the lines {shown}:{span} meant when this was {written} "
                              f"are now at {new_span}", new_span, rewrite_span(ref, span, new_span))
        return ClaimCheck(ref, "AC205", f"the lines {shown}:{span} meant when this was {written} "
                          f"are now spread over {_span(a, b)}: lines were added between them since")
    changed = next(line.changed_by for line in lines if line.commit != now)
    g = git(repo)
    subject = g.subject(changed) if changed and g is not None else ""
    by = f"{changed[:12]}" + (f" ({subject!r})" if subject else "") if changed else "a later commit"
    count = len(lines) - len(standing)
    which = "the lines" if not standing else f"{count} of the {len(lines)} lines"
    return ClaimCheck(ref, "AC205", f"{which} {shown}:{span} meant when this was {written} were "
                      f"rewritten since, in {by}")


def _span(a: int, b: int) -> str:
    return f"{a}" if a == b else f"{a}-{b}"


def _origin_key(index: WorkspaceIndex, res: Resolution) -> str:
    # The commit that wrote a line of a file is the same wherever the file has the
    # same content (keyed by the citing blob, a change's head reuses its base's answer).
    ref = res.reference
    oid = index.snapshots[ref.repo].oids.get(ref.path, "")
    return f"{_KEY}:origin:{ref.repo}:{oid}:{ref.line}"


def _followed_key(index: WorkspaceIndex, res: Resolution, when: Written) -> str:
    # Where lines of the file at `seen` stand now depends on that commit and on the
    # file now (the same blob at another commit: the same answer).
    repo, path = res.files[0]
    snap = index.snapshots[repo]
    assert res.reference.lines is not None
    first, last = res.reference.lines
    return f"{_KEY}:followed:{repo}:{path}:{when.seen}:{snap.oids.get(path, snap.commit)}:{first}-{last}"


