"""Changes: open PRs, each a repo, a head ref and the base it targets."""

from __future__ import annotations

from dataclasses import dataclass

from anchorcheck.config.workspace import Workspace
from anchorcheck.errors import ConfigError
from anchorcheck.git.output import TreeEntry
from anchorcheck.git.repo import GitRepo, check_ref
from anchorcheck.patterns import compiled_on_use

_LABEL = compiled_on_use(r"(?P<repo>[A-Za-z0-9_][A-Za-z0-9_.-]*)(?:#(?P<id>[A-Za-z0-9_.-]+))?")


class NoMergeBase(ConfigError):
    """The head and its base share no commit here: typically a shallow clone."""


@dataclass(frozen=True, slots=True)
class ChangeSpec:
    """What the user asked for: `--pr client#791=refs/pull/791/head`."""

    label: str
    repo: str
    head: str
    # From the forge (merge-order --open-prs): the branch it targets, resolved here
    # (None: the repo's base for the run), whether it is a draft, where it is, and the
    # changes its description declares it depends on: (label, as written).
    base: str | None = None
    draft: bool = False
    url: str = ""
    title: str = ""
    declares: tuple[tuple[str, str], ...] = ()

    @property
    def number(self) -> int | None:
        """N of a label `REPO#N`, the change's number on its forge."""
        _, _, n = self.label.partition("#")
        return int(n) if n.isdigit() else None

    @classmethod
    def parse(cls, arg: str, workspace: Workspace) -> ChangeSpec:
        label, sep, head = arg.partition("=")
        m = _LABEL.fullmatch(label)
        if not sep or not head or m is None:
            raise ConfigError(f"--pr expects REPO#ID=REF or REPO=REF, got {arg!r}")
        repo = m.group("repo")
        if workspace.repo(repo) is None:
            names = ", ".join(r.name for r in workspace.repos)
            raise ConfigError(f"--pr {label}: no repo {repo!r} in the workspace ({names})")
        return cls(label, repo, check_ref(head))


@dataclass(frozen=True)
class Change:
    """A change resolved against git: the commits involved and the paths it touches.

    `changed` are the paths that differ between the merge base and the head, as a
    PR's diff shows them; `head_entries` are their tree entries at the head (a path
    missing from it was deleted)."""

    spec: ChangeSpec
    head_commit: str
    base_ref: str
    base_commit: str
    merge_base: str
    changed: tuple[str, ...]
    head_entries: dict[str, TreeEntry]

    @property
    def label(self) -> str:
        return self.spec.label

    @property
    def repo(self) -> str:
        return self.spec.repo


def resolve_change(spec: ChangeSpec, git: GitRepo, base_ref: str) -> Change:
    head = git.resolve(spec.head)
    base = git.resolve(base_ref)
    merge_base = git.merge_base(head, base)
    if merge_base is None:
        raise NoMergeBase(
            f"{spec.label}: {spec.head} and {base_ref} share no history in {git.path} "
            "(a shallow clone? fetch more history)"
        )
    changed = tuple(git.changed_paths(merge_base, head))
    entries = {e.path: e for e in git.list_paths(head, changed)}
    return Change(spec, head, base_ref, base, merge_base, changed, entries)
