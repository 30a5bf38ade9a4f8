"""Open changes from the forge (`merge-order --open-prs`): every open pull or merge
request of every workspace repo that lives on a forge, its head fetched from the
repo's remote into anchorcheck's own refs (`refs/anchorcheck/pull/N/head`; the user's
branches are never created or moved), its base its own target branch."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from anchorcheck.config.workspace import RepoSpec, Workspace
from anchorcheck.forge.base import Forge, ForgeRepo, OpenChange
from anchorcheck.forge.locate import connect, locate
from anchorcheck.git.repo import GitRepo
from anchorcheck.pr.change import ChangeSpec
from anchorcheck.pr.declared import declared

NAMESPACE = "refs/anchorcheck/"


@dataclass
class Forges:
    """Where each workspace repo lives, and a client for each that does."""

    where: dict[str, ForgeRepo] = field(default_factory=dict)
    clients: dict[str, Forge] = field(default_factory=dict)
    # Repos on no known forge: (name, why), for a warning.
    nowhere: list[tuple[str, str]] = field(default_factory=list)

    def repo_of_url(self, host: str, path: str) -> str | None:
        """The workspace repo at `host`/`path` (a Depends-On URL's)."""
        for name, where in self.where.items():
            if where.host == host and where.path.lower() == path.strip("/").lower():
                return name
        return None


def find_forges(workspace: Workspace, env: Mapping[str, str], timeout: float = 10.0) -> Forges:
    """Each repo's forge: its `url`, else its remote's URL."""
    found = Forges()
    for spec in workspace.repos:
        where = locate(spec.url, env, spec.forge)
        remote = None
        if where is None:
            remote = GitRepo(spec.path).remote_url(spec.remote)
            where = locate(remote, env, spec.forge)
        if where is None:
            why = (f"its url and remote {spec.remote!r} name no GitHub or GitLab repository"
                   if spec.url or remote else f"no url and no remote {spec.remote!r}")
            found.nowhere.append((spec.name, why))
            continue
        found.where[spec.name] = where
        found.clients[spec.name] = connect(where, env, timeout=timeout)
    return found


def open_changes(workspace: Workspace, forges: Forges, given: Sequence[ChangeSpec],
                 ) -> tuple[list[ChangeSpec], dict[str, str]]:
    """The changes `given` with --pr, then every other open change of every repo on a
    forge, fetched; and, per repo whose open changes all target one branch, that
    branch's local ref (the base the run analyses them on). A change given with --pr
    keeps its ref, and takes from the forge what --pr cannot say: its description's
    Depends-On lines, its URL, its title and whether it is a draft."""
    listed: list[ChangeSpec] = []
    bases: dict[str, str] = {}
    by_label = {s.label: s for s in given}
    described: dict[str, ChangeSpec] = {}
    for spec in workspace.repos:
        client = forges.clients.get(spec.name)
        if client is None:
            continue
        changes = []
        for change in client.open_changes():
            label = f"{spec.name}#{change.number}"
            mine = by_label.get(label)
            if mine is None:
                changes.append(change)
            else:
                described[label] = replace(mine, draft=change.draft, url=change.url, title=change.title,
                                           declares=declared(change.body, forges.repo_of_url))
        git = GitRepo(spec.path)
        targets = _fetch(git, spec, changes)
        for change in changes:
            label = f"{spec.name}#{change.number}"
            head = NAMESPACE + change.fetch_ref.removeprefix("refs/")
            listed.append(ChangeSpec(
                label, spec.name, head, base=targets[change.base_ref],
                draft=change.draft, url=change.url, title=change.title,
                declares=declared(change.body, forges.repo_of_url),
            ))
        if len(set(targets.values())) == 1:
            bases[spec.name] = next(iter(targets.values()))
    return [described.get(s.label, s) for s in given] + listed, bases


def _fetch(git: GitRepo, spec: RepoSpec, changes: list[OpenChange]) -> dict[str, str]:
    """Fetch the changes' heads, and their base branches where this clone lacks them;
    the local ref of each base branch, by name."""
    refspecs = [f"+{c.fetch_ref}:{NAMESPACE}{c.fetch_ref.removeprefix('refs/')}" for c in changes]
    targets: dict[str, str] = {}
    for base in sorted({c.base_ref for c in changes}):
        # The remote's branch first: in CI the local one may be missing or behind.
        for ref in (f"refs/remotes/{spec.remote}/{base}", f"refs/heads/{base}"):
            if git.try_resolve(ref) is not None:
                targets[base] = ref
                break
        else:
            targets[base] = f"{NAMESPACE}heads/{base}"
            refspecs.append(f"+refs/heads/{base}:{targets[base]}")
    git.fetch(spec.remote, refspecs)
    return targets
