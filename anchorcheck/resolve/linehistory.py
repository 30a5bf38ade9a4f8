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

import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from anchorcheck.config.workspace import Workspace
from anchorcheck.errors import GitError
from anchorcheck.git.output import BlameLine
from anchorcheck.git.repo import GitRepo
from anchorcheck.index.cache import BlobCache
from anchorcheck.model.reference import Reference, RefKind
from anchorcheck.resolve.resolution import Resolution, Status
from anchorcheck.resolve.verify import ClaimCheck, rewrite_span
from anchorcheck.resolve.workspace_index import WorkspaceIndex

_KEY = "linehistory:v2"
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


class LineWalk:
    """AC201 (moved, fixable) and AC205 (rewritten) for the claims history can follow,
    started: its git commands run in a thread of their own while the caller goes on (a
    cold check stores the crawl's finds, resolves, verifies claims and waits for AC203's
    history meanwhile), and `result()` waits for them.

    The cache is asked and written in the caller's thread only (a connection belongs to
    its thread). What it may hold is read when the walk starts: where each claim was
    written, and every walk stored for each claim's lines, from wherever they were seen
    (known only once git has said it). A claim on its own repo needs the commit that
    wrote its line only to be reported: that blame (on git/git the costliest command of
    the walk, 0.87 s) runs only for the claims with something to say."""

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
        origin_keys = {id(r): _origin_key(index, r) for r in self.claims}
        stored_origins: Mapping[str, Any] = {}
        stored_walks: Mapping[str, Any] = {}
        if cache is not None and self.claims:
            stored_origins = cache.get_results(origin_keys.values())
            stored_walks = cache.get_results_under(_walk_prefix(index, r) for r in self.claims)
        self._pool: ThreadPoolExecutor | None = None
        self._walk: Future[_Walked] | None = None
        self._cancelled = False
        if self.claims:
            self._pool = ThreadPoolExecutor(1)
            self._walk = self._pool.submit(_walked, index, self.claims, depth, origin_keys, stored_origins,
                                           stored_walks, self.git, lambda: self._cancelled)

    def git(self, repo: str) -> GitRepo | None:
        return self.gits.get(repo)

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
            found, new_origins, new_walks = self._walk.result()
        finally:
            self._pool.shutdown()
        if self.cache is not None and (new_origins or new_walks):
            self.cache.put_results([
                *((k, list(v)) for k, v in new_origins.items()),
                *((k, [[_STANDING if x.commit == at else x.commit, *x[1:]] for x in v])
                  for k, (at, v) in new_walks.items())])
        checks: list[ClaimCheck] = []
        for res in self.claims:
            if id(res) in found:
                when, lines = found[id(res)]
                check = _outcome(res, when, self.index.snapshots[res.files[0][0]].commit, lines, self.git,
                                 self.index)
                if check is not None:
                    checks.append(check)
        return checks


# What the walk's thread found: for each claim with something to say (by the id of its
# resolution), when it was written and where its lines went; the origins git placed
# and the walks it made, to store (a walk with the checked commit it ended at).
_Walked = tuple[dict[int, tuple["Written", list[BlameLine]]], dict[str, BlameLine],
                dict[str, tuple[str, list[BlameLine]]]]
# A walk under way: how far it is, and where its lines went.
_Started = tuple["Future[int]", "Future[list[BlameLine]]"]


def _start_walk(pool: ThreadPoolExecutor, g: GitRepo, seen: str, now: str, path: str, first: int, last: int,
                ) -> _Started:
    # How far the walk is and where its lines went are asked at once: the count only
    # says whether the walk is past the cap (then its lines are not used), and waiting
    # for it first put two history walks one after the other (git/git: 0.39 s, then
    # the blame).
    return pool.submit(g.commits_between, seen, now), pool.submit(g.lines_since, seen, now, path, first, last)


# A citing file's blames: its repo's git and checked commit, the file, its claims on
# their own repo (blamed for where their line came in) and those on another repo whose
# line's writer is not stored (blamed for who wrote it).
_Job = tuple[GitRepo, str, str, list[Resolution], list[Resolution]]


def _walked(
    index: WorkspaceIndex, claims: Sequence[Resolution], depth: int, keys: dict[int, str],
    stored: Mapping[str, Any], stored_walks: Mapping[str, Any], git: _GitOf, cancelled: Callable[[], bool],
) -> _Walked:
    """In the walk's thread: what only git can say (`keys`: each claim's origin key;
    `stored`, `stored_walks`: what the cache held).

    Where each claim's lines were seen when it was written: on its own repo, where the
    checked commit's first-parent line took its line in (one `git blame
    --first-parent` per citing file, for all its claims; it names the merge of a
    branch by itself); on another repo, the last commit of that repo's line made by
    the time the citing line was (its `git blame`, then `rev-list --before`). A line
    older than the walk's cap has no answer. Each walk starts as soon as its start is
    known, unless it is stored. Then the claims on their own repo whose lines moved or
    changed are blamed, to name the commit that wrote them."""
    origins = {id(r): BlameLine(*stored[keys[id(r)]]) for r in claims if keys[id(r)] in stored}
    # (A line stored as written before the cap has no answer, whatever git says now.)
    live = [r for r in claims if not (id(r) in origins and origins[id(r)].boundary)]
    jobs = _blame_jobs(index, claims, live, origins, git)
    with ThreadPoolExecutor(_AT_ONCE) as pool:
        walking = _Walking(index, depth, keys, stored_walks, git, cancelled, pool, origins)
        since = walking.came_in(jobs)
        walking.seen_elsewhere(live)
        done = {} if cancelled() else {key: [] if count.result() > depth else lines.result()
                                       for key, (count, lines) in walking.walks.items()}
        found_lines = walking.found_lines(live, done)
        walking.name_writers(live, found_lines, since)
    out: dict[int, tuple[Written, list[BlameLine]]] = {}
    for r in live:
        origin = origins.get(id(r))
        if origin is not None and not origin.boundary and id(r) in found_lines:
            out[id(r)] = (Written(origin.commit, walking.seen[id(r)]), found_lines[id(r)])
    walked = {key: (index.snapshots[r.files[0][0]].commit, done[key]) for r in live
              if (key := walking.walk_of.get(id(r))) is not None and key in done}
    return out, walking.new, walked


def _own(res: Resolution) -> bool:
    """Whether a claim cites a file of its own repo."""
    return res.files[0][0] == res.reference.repo


def _blame_jobs(
    index: WorkspaceIndex, claims: Sequence[Resolution], live: Sequence[Resolution],
    origins: Mapping[int, BlameLine], git: _GitOf,
) -> list[_Job]:
    """The citing files to blame for the claims still `live` (_Job), one per file."""
    by_file: dict[tuple[str, str], list[Resolution]] = defaultdict(list)
    for res in claims:
        by_file[(res.reference.repo, res.reference.path)].append(res)
    alive = {id(r) for r in live}
    jobs: list[_Job] = []
    for (repo, path), group in by_file.items():
        g = git(repo)
        group = [r for r in group if id(r) in alive]
        merged = [r for r in group if _own(r)]
        blamed = [r for r in group if not _own(r) and id(r) not in origins]
        if g is not None and (merged or blamed):
            jobs.append((g, index.snapshots[repo].commit, path, merged, blamed))
    return jobs


@dataclass(frozen=True, slots=True)
class _Walking:
    """The walk's thread at work (_walked): what it was given, its pool, and what git
    has said so far: where each claim's line was written (`origins`; `new`, the answers
    to store), where its lines were seen then (`seen`), and the walks from there
    (`walk_of`, each claim's key; `walks`, those under way, by key)."""

    index: WorkspaceIndex
    depth: int
    keys: dict[int, str]
    stored_walks: Mapping[str, Any]
    git: _GitOf
    cancelled: Callable[[], bool]
    pool: ThreadPoolExecutor
    origins: dict[int, BlameLine]
    new: dict[str, BlameLine] = field(default_factory=dict)
    seen: dict[int, str] = field(default_factory=dict)
    walk_of: dict[int, str] = field(default_factory=dict)  # a claim's walk, by key
    walks: dict[str, _Started] = field(default_factory=dict)

    def walk(self, res: Resolution) -> None:  # from where its lines were seen, stored or started
        index, git, seen, walks = self.index, self.git, self.seen, self.walks
        repo, path = res.files[0]
        now = index.snapshots[repo].commit
        g = git(repo)
        if g is None or seen[id(res)] == now or self.cancelled():
            return
        assert res.reference.lines is not None
        key = self.walk_of[id(res)] = _walk_key(index, res, seen[id(res)])
        if key not in self.stored_walks and key not in walks:
            walks[key] = _start_walk(self.pool, g, seen[id(res)], now, path, *res.reference.lines)

    def place(self, found: Mapping[int, BlameLine], commit: str, blamed: Sequence[Resolution]) -> None:
        """Where each blamed claim's line was written, as `found` (a blame at `commit`) says."""
        for r in blamed:
            line = found.get(r.reference.line)
            if line is None:
                continue
            self.origins[id(r)] = line
            # Not stored for the checked commit's own lines: a work tree's commit is
            # made up, and the same file committed later was written by that commit.
            if line.commit != commit:
                self.new[self.keys[id(r)]] = line

    def came_in(self, jobs: Sequence[_Job]) -> dict[tuple[str, str], str | None]:
        """Blame the citing files: the claims on their own repo are seen where their line
        came in, and walked from there; the others' lines placed (who wrote them). Gives
        where each blame stopped, by git directory and commit."""
        pool, depth = self.pool, self.depth
        # Where each blame stops (one per repo and commit), then every blame at once.
        starts = {(g.git_dir, commit): pool.submit(g.ancestor, commit, depth) for g, commit, *_ in jobs}
        since = {key: start.result() for key, start in starts.items()}
        blames = [(pool.submit(g.line_origins, commit, path, [r.reference.line for r in merged],
                               since[(g.git_dir, commit)], True) if merged else None,
                   pool.submit(g.line_origins, commit, path, [r.reference.line for r in blamed],
                               since[(g.git_dir, commit)]) if blamed else None)
                  for g, commit, path, merged, blamed in jobs]
        for (*_, merged, _), (came_in, _) in zip(jobs, blames, strict=True):
            found = came_in.result() if came_in is not None else {}
            for r in merged:
                line = found.get(r.reference.line)
                if line is not None and not line.boundary:
                    self.seen[id(r)] = line.commit
                    self.walk(r)
        for (_, commit, _, _, blamed), (_, written) in zip(jobs, blames, strict=True):
            if written is not None:
                self.place(written.result(), commit, blamed)
        return since

    def seen_elsewhere(self, live: Sequence[Resolution]) -> None:
        """Where the claims on another repo were seen, and their walks from there."""
        index, git, origins, pool = self.index, self.git, self.origins, self.pool
        # Another repo's claims: its last commit by the time the citing line was written
        # (a line of the checked commit itself was written against the cited repo as it
        # was then; a work tree's, against it as it is: that commit's time is 0).
        asks: dict[tuple[str, int], GitRepo] = {}
        others = []
        for r in live:
            origin, repo = origins.get(id(r)), r.files[0][0]
            if not _own(r) and origin is not None and not origin.boundary and (g := git(repo)) is not None:
                others.append(r)
                asks[(repo, origin.time)] = g
        answers: dict[tuple[str, int], str | None] = dict(zip(asks, pool.map(
            lambda job: job[1].commit_before(index.snapshots[job[0][0]].commit, job[0][1]), asks.items()),
            strict=True))
        # (A date's pick whose file is shorter than the claim's lines is no commit its
        # author saw: the first after it on the mainline that has them is.)
        def holding(r: Resolution) -> str | None:
            answer = answers[(r.files[0][0], origins[id(r)].time)]
            g = git(r.files[0][0])
            if answer is None or g is None or r.reference.lines is None:
                return answer
            return g.first_holding(answer, index.snapshots[r.files[0][0]].commit, r.files[0][1],
                                   r.reference.lines[1])
        for r, answer in zip(others, pool.map(holding, others), strict=True):
            if answer is not None:
                self.seen[id(r)] = answer
                self.walk(r)

    def found_lines(
        self, live: Sequence[Resolution], done: Mapping[str, list[BlameLine]],
    ) -> dict[int, list[BlameLine]]:
        """Where each walked claim's lines went: its walk's answer, made now (`done`) or stored."""
        stored_walks = self.stored_walks
        found_lines: dict[int, list[BlameLine]] = {}
        for r in live:
            key = self.walk_of.get(id(r))
            if key is None:
                continue
            now = self.index.snapshots[r.files[0][0]].commit
            if key in done:
                found_lines[id(r)] = done[key]
            elif key in stored_walks:
                found_lines[id(r)] = [BlameLine(*row)._replace(commit=now) if row[0] == _STANDING
                                      else BlameLine(*row) for row in stored_walks[key]]
        return found_lines

    def name_writers(
        self, live: Sequence[Resolution], found_lines: Mapping[int, list[BlameLine]],
        since: Mapping[tuple[str, str], str | None],
    ) -> None:
        """Place the lines of the claims on their own repo that have something to say."""
        index, git, origins, pool = self.index, self.git, self.origins, self.pool
        # The claims on their own repo with something to say, and no stored origin:
        # the commit that wrote each one's line, by one `git blame` per citing file.
        unnamed: dict[tuple[str, str], list[Resolution]] = defaultdict(list)
        for r in live:
            if _own(r) and id(r) in found_lines and id(r) not in origins and _says_something(
                    r, index.snapshots[r.files[0][0]].commit, found_lines[id(r)]):
                unnamed[(r.reference.repo, r.reference.path)].append(r)
        named = []
        for (repo, path), group in unnamed.items():
            g, commit = git(repo), index.snapshots[repo].commit
            if g is not None:
                named.append((commit, group, pool.submit(g.line_origins, commit, path,
                                                         [r.reference.line for r in group],
                                                         since.get((g.git_dir, commit)))))
        for commit, group, blame in named:
            self.place(blame.result(), commit, group)


def _says_something(res: Resolution, now: str, lines: list[BlameLine]) -> bool:
    """Whether _outcome reports the claim (it needs the commit that wrote it only then)."""
    assert res.reference.lines is not None
    first, last = res.reference.lines
    if len(lines) != last - first + 1:
        return False
    standing = [line.line for line in lines if line.commit == now]
    return len(standing) != len(lines) or (min(standing), max(standing)) != (first, last)


# git commands of the line walk at once: each walks history in a process of its own
# (numpy's and git's, tens of thousands of commits: 0.1-0.3 s each), and one after
# another they were 3.4 s of a cold check of six history-bearing repos.
_AT_ONCE = 4


def _outcome(
    res: Resolution, when: Written, now: str, lines: list[BlameLine], git: _GitOf,
    index: WorkspaceIndex | None = None,
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
    g = git(repo)
    if len(lines) == 1 and g is not None and index is not None:
        kept = _value_updated(res, when, g, index)
        if kept is not None:
            return None if kept == first else ClaimCheck(
                ref, "AC201", f"the line {shown}:{span} meant when this was {written} is now at {kept} "
                f"(its value updated since)", str(kept), rewrite_span(ref, span, str(kept)))
    changed = next(line.changed_by for line in lines if line.commit != now)
    subject = g.subject(changed) if changed and g is not None else ""
    by = f"{changed[:12]}" + (f" ({subject!r})" if subject else "") if changed else "a later commit"
    count = len(lines) - len(standing)
    which = "the lines" if not standing else f"{count} of the {len(lines)} lines"
    return ClaimCheck(ref, "AC205", f"{which} {shown}:{span} meant when this was {written} were "
                      f"rewritten since, in {by}")


# A line that sets a value: its key (`GOLANG_VERSION:`, `__version__ =`) and the value.
# A setting's line: its key, its operator (Make's `?=`, `:=`, `+=` too: ingress-nginx's
# `E2E_BASE_IMAGE=` became `E2E_BASE_IMAGE ?=` in the commit that bumped its tag) and value.
_SETTING = re.compile(r"""\s*(?P<key>[\w.\-"']*[A-Za-z][\w.\-"']*)\s*(?:[?:+!]?=|:)\s*(?P<value>\S.*?)\s*$""")
# A literal value (a quoted string, a number or version, a boolean), maybe with a
# trailing comment: `step = three` names code, and its rewrite is one.
_LITERAL = re.compile(r"""(?:"[^"]*"|'[^']*'|[vV]?\d[\w.+\-]*|true|false|True|False|null|~),?\s*(?:#.*)?""")


def _value_updated(res: Resolution, when: Written, g: GitRepo, index: WorkspaceIndex) -> int | None:
    """Where a cited line that sets a value stands now, when only its value changed:
    a link to `go.yml#L12` (`GOLANG_VERSION: '1.23'`) points at where the version is
    set, and a bump to 1.26 rewrites no line it meant (unless the citing line quotes the
    old value). The line's number now when its key is on exactly one line of the file,
    else None (the rewrite stands)."""
    ref = res.reference
    assert ref.lines is not None
    repo, path = res.files[0]
    then = g.text_at(when.seen, path)
    now_text = index.text(repo, path)
    citing = (index.text(ref.repo, ref.path) or "").split("\n")
    if then is None or now_text is None or not 0 < ref.lines[0] <= len(then.split("\n")):
        return None
    old = _SETTING.fullmatch(then.split("\n")[ref.lines[0] - 1])
    if old is None or not _LITERAL.fullmatch(old.group("value")) or (
            ref.line <= len(citing) and old.group("value").strip("'\",") in citing[ref.line - 1]):
        return None
    key = old.group("key")
    places = [(n, m) for n, line in enumerate(now_text.split("\n"), 1)
              if (m := _SETTING.fullmatch(line)) is not None and m.group("key") == key]
    return places[0][0] if len(places) == 1 and _LITERAL.fullmatch(places[0][1].group("value")) else None


def _span(a: int, b: int) -> str:
    return f"{a}" if a == b else f"{a}-{b}"


def _origin_key(index: WorkspaceIndex, res: Resolution) -> str:
    # The commit that wrote a line of a file is the same wherever the file has the
    # same content (keyed by the citing blob, a change's head reuses its base's answer).
    ref = res.reference
    oid = index.snapshots[ref.repo].oids.get(ref.path, "")
    return f"{_KEY}:origin:{ref.repo}:{oid}:{ref.line}"


def _walk_prefix(index: WorkspaceIndex, res: Resolution) -> str:
    # Where lines of a file stand now depends on the file now (the same blob at another
    # commit: the same answer) and on where they were seen (last in the key, so that a
    # claim's walks from anywhere are one range of keys, read before git says where).
    repo, path = res.files[0]
    snap = index.snapshots[repo]
    assert res.reference.lines is not None
    first, last = res.reference.lines
    return f"{_KEY}:walk:{repo}:{path}:{snap.oids.get(path, snap.commit)}:{first}-{last}:"


def _walk_key(index: WorkspaceIndex, res: Resolution, seen: str) -> str:
    return _walk_prefix(index, res) + seen
