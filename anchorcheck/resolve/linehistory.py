"""Line claims followed through history: the lines a claim meant when it was written,
followed to the checked commit as `git blame` follows lines (AC201, AC205).

A claim that names lines and no text (`sigs.yaml#L250`, "see test.mk:28") cannot be
checked against its own words, but history knows which lines it meant:

1. `git blame` of the citing line gives the commit that wrote it.
2. The cited file as it was then: in the citing repo, at the commit of the checked
   commit's first-parent line that brought the citing line in (that commit, or the
   merge of its branch: `git blame --first-parent`); in another repo, at the last
   commit of that line made up to that commit's time.
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
from typing import Any

from anchorcheck.config.workspace import Workspace
from anchorcheck.errors import GitError
from anchorcheck.git.repo import BlameLine, GitRepo
from anchorcheck.index.cache import BlobCache
from anchorcheck.model.reference import Reference, RefKind
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


def followable(ref: Reference) -> bool:
    """A claim with lines and no text of its own: what history may follow."""
    return ref.kind is RefKind.LINES and not ref.claim and ref.lines is not None


def trackable(res: Resolution, index: WorkspaceIndex) -> bool:
    """A followable claim resolved to a file whose line count it fits (a claim past the
    end is reported by verify already)."""
    ref = res.reference
    if not followable(ref) or ref.lines is None:
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
    caller goes on (a cold check stores the crawl's finds, resolves, verifies claims
    and waits for AC203's history meanwhile), and `result()` waits for them. On git/git
    one claim's walk is a chain of git commands (1.3 s): started once the claims are
    resolved, before everything else, it ended last all the same.
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
        return _walked(self.index, self.claims, self.depth, self.origin_keys, self.stored_origins, self.git,
                       lambda: self._cancelled)

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
        keys = {id(r): _followed_key(index, r, w.seen) for r in claims
                if (w := written.get(id(r))) is not None}
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
            key = _followed_key(index, res, when.seen)
            out.setdefault(key, (g, when.seen, now, path, *res.reference.lines))
    return out


def _follow(ask: _Follow, depth: int) -> dict[str, list[BlameLine]]:
    """Each walk's lines, none for a walk past the cap."""
    if not ask:
        return {}
    with ThreadPoolExecutor(_AT_ONCE) as pool:
        return _walks_done({key: _start_walk(pool, *job) for key, job in ask.items()}, depth)


# A walk under way: how far it is, and where its lines went.
_Started = tuple["Future[int]", "Future[list[BlameLine]]"]


def _start_walk(pool: ThreadPoolExecutor, g: GitRepo, seen: str, now: str, path: str, first: int, last: int,
                ) -> _Started:
    # How far the walk is and where its lines went are asked at once: the count only
    # says whether the walk is past the cap (then its lines are not used), and waiting
    # for it first put two history walks one after the other (git/git: 0.39 s, then
    # the blame).
    return pool.submit(g.commits_between, seen, now), pool.submit(g.lines_since, seen, now, path, first, last)


def _walks_done(started: Mapping[str, _Started], depth: int) -> dict[str, list[BlameLine]]:
    return {key: [] if count.result() > depth else walk.result() for key, (count, walk) in started.items()}


def _walked(
    index: WorkspaceIndex, claims: Sequence[Resolution], depth: int, keys: dict[int, str],
    stored: Mapping[str, Any], git: _GitOf, cancelled: Callable[[], bool],
) -> _Walked:
    """When each claim was written, by the id of its resolution (`keys`: each claim's
    origin key, `stored`: the origins the cache held), the origins git placed (to
    store), and the walks of the claims git placed.

    Per citing file, at once: one `git blame` for the lines whose origin was not
    stored, and one `git blame --first-parent` for the claims on their own repo (where
    the mainline took their line in). A line written before the walk's cap has no
    answer. A claim's walk starts as soon as its start is known: on git/git the chain
    was the walk's start, the blame (0.87 s), the merge that brought its commit in
    (`rev-list --ancestry-path`, 0.41 s) and the walk (0.39 s); the first-parent blame
    answers the merge by itself (0.40 s) beside the blame, and the walk runs beside the
    rest of the blame."""
    by_file: dict[tuple[str, str], list[Resolution]] = defaultdict(list)
    for res in claims:
        by_file[(res.reference.repo, res.reference.path)].append(res)
    origins = {id(r): BlameLine(*stored[keys[id(r)]]) for r in claims if keys[id(r)] in stored}
    jobs: list[tuple[GitRepo, str, str, list[Resolution], list[Resolution]]] = []
    for (repo, path), group in by_file.items():
        g = git(repo)
        missing = [r for r in group if id(r) not in origins]
        same = [r for r in group if r.files[0][0] == repo]
        if g is not None and (missing or same):
            jobs.append((g, index.snapshots[repo].commit, path, missing, same))
    seen: dict[int, str] = {}
    new: dict[str, BlameLine] = {}
    placed: set[int] = set()
    walks: dict[str, _Started] = {}

    def walk(res: Resolution) -> None:  # a claim git placed: its walk, started
        repo, path = res.files[0]
        now = index.snapshots[repo].commit
        g = git(repo)
        if g is not None and seen[id(res)] != now and not cancelled():
            assert res.reference.lines is not None
            key = _followed_key(index, res, seen[id(res)])
            if key not in walks:
                walks[key] = _start_walk(pool, g, seen[id(res)], now, path, *res.reference.lines)

    with ThreadPoolExecutor(_AT_ONCE) as pool:
        # Where each blame stops (one per repo and commit), then every blame at once.
        starts = {(g.git_dir, commit): pool.submit(g.ancestor, commit, depth) for g, commit, *_ in jobs}
        since = {key: start.result() for key, start in starts.items()}
        blames = [(pool.submit(g.line_origins, commit, path, [r.reference.line for r in missing],
                               since[(g.git_dir, commit)]) if missing else None,
                   pool.submit(g.line_origins, commit, path, [r.reference.line for r in same],
                               since[(g.git_dir, commit)], True) if same else None)
                  for g, commit, path, missing, same in jobs]
        for (*_, same), (_, merged) in zip(jobs, blames, strict=True):
            if merged is None:
                continue
            found = merged.result()
            for r in same:
                line = found.get(r.reference.line)
                if line is not None and not line.boundary:
                    seen[id(r)] = line.commit
                    if id(r) not in origins:
                        walk(r)  # (before its blame says it was placed: most are)
        for (_, commit, _, missing, _), (written, _) in zip(jobs, blames, strict=True):
            found = written.result() if written is not None else {}
            for r in missing:
                line = found.get(r.reference.line)
                if line is None:
                    continue
                origins[id(r)] = line
                placed.add(id(r))
                # Not stored for the checked commit's own lines: a work tree's commit is
                # made up, and the same file committed later was written by that commit.
                if line.commit != commit:
                    new[keys[id(r)]] = line
        # Another repo's claims: the last commit of the cited repo's first-parent line
        # made by the time the citing line was (a line of the checked commit itself
        # was written against the cited repo as it was then; a work tree's, against it
        # as it is: that commit's time is 0).
        asks: dict[tuple[str, int], tuple[GitRepo, str, int]] = {}
        for res in claims:
            origin = origins.get(id(res))
            repo = res.files[0][0]
            g = git(repo)
            if origin is not None and not origin.boundary and g is not None and repo != res.reference.repo:
                asks.setdefault((repo, origin.time), (g, index.snapshots[repo].commit, origin.time))
        before = dict(zip(asks, pool.map(lambda job: job[0].commit_before(job[1], job[2]), asks.values()),
                          strict=True))
        out: dict[int, Written] = {}
        for res in claims:
            origin = origins.get(id(res))
            if origin is None or origin.boundary:
                continue
            repo = res.files[0][0]
            if repo != res.reference.repo:
                answer = before.get((repo, origin.time))
                if answer is None:
                    continue
                seen[id(res)] = answer
                if id(res) in placed:
                    walk(res)
            if id(res) in seen:
                out[id(res)] = Written(origin.commit, seen[id(res)])
        # (A walk started for a claim its blame then did not place answers the same
        # question for any claim with its key.)
        return out, new, {} if cancelled() else _walks_done(walks, depth)


# git commands of the line walk at once: each walks history in a process of its own
# (numpy's and git's, tens of thousands of commits: 0.1-0.3 s each), and one after
# another they were 3.4 s of a cold check of six history-bearing repos.
_AT_ONCE = 4


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


def _followed_key(index: WorkspaceIndex, res: Resolution, seen: str) -> str:
    # Where lines of the file at `seen` stand now depends on that commit and on the
    # file now (the same blob at another commit: the same answer).
    repo, path = res.files[0]
    snap = index.snapshots[repo]
    assert res.reference.lines is not None
    first, last = res.reference.lines
    return f"{_KEY}:followed:{repo}:{path}:{seen}:{snap.oids.get(path, snap.commit)}:{first}-{last}"


