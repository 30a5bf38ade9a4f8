"""The forge's answers for a check's issue references (AC106, AC107), asked before the
rules run and handed to them (rules never call a forge).

Each reference names a forge repo and a number: a URL names both; `OWNER/NAME#N` the
citing repo's forge host; `REPO#N` a workspace repo (another word before `#` is no
repo of ours: not asked); a bare `#N` the citing repo. Each (repo, number) is asked
once, and the answer kept in the cache for `forge-ttl` seconds (a rerun within it asks
nothing). A forge that fails is a warning, and its references are not checked;
`--forge require` makes it an error.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from anchorcheck.config.workspace import Workspace
from anchorcheck.errors import AnchorcheckError
from anchorcheck.forge.base import Forge, ForgeRepo
from anchorcheck.forge.http import ForgeError
from anchorcheck.forge.locate import connect, locate
from anchorcheck.index.cache import BlobCache
from anchorcheck.model.issue import IssueState
from anchorcheck.model.reference import Reference, RefKind
from anchorcheck.pr.open import Forges, find_forges

_CACHE = "forge-issue:v1"


@dataclass(frozen=True, slots=True)
class Target:
    repo: ForgeRepo
    number: int
    change: bool | None  # a URL says; a short form does not


@dataclass
class IssueAnswers:
    """What the forges said: each reference's issue (None: there is none)."""

    states: dict[Reference, IssueState | None] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


def look_up(workspace: Workspace, refs: Iterable[Reference], env: Mapping[str, str], cache: BlobCache | None,
            *, require: bool = False, ttl: float = 6 * 3600, timeout: float = 10.0,
            now: float | None = None) -> IssueAnswers:
    refs = [r for r in refs if r.kind is RefKind.ISSUE]
    out = IssueAnswers()
    if not refs:
        return out
    forges = find_forges(workspace, env, timeout=timeout)
    # The workspace repos' clients; a repo named only by a URL gets one when first asked.
    clients: dict[ForgeRepo, Forge] = {forges.where[name]: client for name, client in forges.clients.items()}
    seen: set[ForgeRepo] = set()  # checked to be visible with the token
    broken: set[ForgeRepo] = set()
    answers: dict[Target, IssueState | None] = {}
    clock = time.time() if now is None else now
    for ref in refs:
        target = _target(ref, forges, env)
        if target is None or target.repo in broken:
            continue
        if target not in answers:
            hit, state = _stored(cache, target, clock, ttl)
            if not hit:
                try:
                    client = clients.get(target.repo)
                    if client is None:
                        client = clients[target.repo] = connect(target.repo, env, timeout=timeout)
                    if target.repo not in seen:
                        if not client.visible():
                            raise ForgeError(f"{target.repo}: not found, or not visible with this token")
                        seen.add(target.repo)
                    state = client.issue(target.number, target.change)
                except ForgeError as exc:
                    if require:
                        raise AnchorcheckError(f"forge: {exc}") from None
                    out.warnings.append(f"{exc}; its issue references are not checked")
                    broken.add(target.repo)
                    continue
                _store(cache, target, state, clock)
            answers[target] = state
        out.states[ref] = answers[target]
    return out


def _target(ref: Reference, forges: Forges, env: Mapping[str, str]) -> Target | None:
    number = int(ref.name or 0)
    if ref.via_url and ref.target_path:  # a URL: host and path
        change = "/pull/" in ref.text or "/merge_requests/" in ref.text
        kinds = {w.kind for w in forges.where.values() if w.host == ref.target_path}
        where = locate(f"https://{ref.target_path}/{ref.target_repo}", env, next(iter(kinds), None))
        return Target(where, number, change) if where is not None else None
    citing = forges.where.get(ref.repo)
    if ref.target_repo is None:  # #N: the citing repo's
        return Target(citing, number, None) if citing is not None else None
    if ref.via_url:  # OWNER/NAME#N: on the citing repo's forge
        if citing is None:
            return None
        return Target(ForgeRepo(citing.kind, citing.api, citing.host, ref.target_repo), number, None)
    named = forges.where.get(ref.target_repo)  # REPO#N: a workspace repo, or nothing of ours
    return Target(named, number, None) if named is not None else None


def _key(target: Target) -> str:
    return f"{_CACHE}:{target.repo.api}|{target.repo.path}|{target.number}|{target.change}"


def _stored(cache: BlobCache | None, target: Target, now: float, ttl: float,
            ) -> tuple[bool, IssueState | None]:
    """(whether the cache holds a fresh answer, the answer: None for no such issue)."""
    if cache is None:
        return False, None
    doc = cache.get_result(_key(target))
    try:
        if not isinstance(doc, dict) or not 0 <= now - float(doc["at"]) <= ttl:
            return False, None
        state = doc["state"]
        if state is None:
            return True, None
        return True, IssueState(int(state["number"]), str(state["state"]), bool(state["is_change"]),
                                str(state["title"]), str(state["url"]))
    except (KeyError, TypeError, ValueError):
        return False, None  # not what this version writes: ask again


def _store(cache: BlobCache | None, target: Target, state: IssueState | None, now: float) -> None:
    if cache is None:
        return
    doc = None if state is None else {"number": state.number, "state": state.state,
                                      "is_change": state.is_change, "title": state.title, "url": state.url}
    cache.put_result(_key(target), {"at": now, "state": doc})
