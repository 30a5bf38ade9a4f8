"""`--changed-only`: keep the findings a change is responsible for.

A finding counts when it sits in a file changed since REV, or when what it cites (the
file named, the anchor it resolved to or should have) is in such a file: a heading
removed in a changed file makes a citation in an untouched file dangle.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from anchorcheck.check.pipeline import CheckResult
from anchorcheck.errors import ConfigError, GitError
from anchorcheck.git.repo import GitRepo
from anchorcheck.model.finding import FingerprintedFinding, fingerprint
from anchorcheck.pr.versions import bump, unbumped_packages
from anchorcheck.rules import REGISTRY

FileId = tuple[str, str]


def changed_bases(result: CheckResult, revs: Sequence[str],
                  warn: Callable[[str], None] = lambda _: None) -> dict[str, tuple[GitRepo, str, str]]:
    """Per repo a change is measured in: its git, the merge base with REV, and the
    commit checked. `REV` applies to every repo where it resolves; `REPO=REV` to one
    repo. A REV that resolves in no repo is an error (a typo must not turn CI green
    with "no problems"), and one missing from some repos is a warning that names them."""
    per_repo: dict[str, str] = {}
    every: str | None = None
    for item in revs:
        name, sep, value = item.partition("=")
        if sep:
            if result.workspace.repo(name) is None:
                raise ConfigError(f"--changed-only names unknown repo {name!r}")
            per_repo[name] = value
        else:
            every = item
    out: dict[str, tuple[GitRepo, str, str]] = {}
    missing: list[str] = []
    for spec in result.workspace.repos:
        rev = per_repo.get(spec.name, every)
        if rev is None:
            continue
        git = GitRepo(spec.path)
        commit = result.index.snapshots[spec.name].commit
        try:
            since = git.resolve(rev)
        except GitError:
            if spec.name in per_repo:
                raise
            missing.append(spec.name)  # a shared REV need not exist in every repo
            continue
        out[spec.name] = (git, git.merge_base(since, commit) or since, commit)
    if every is not None and not out and not per_repo:
        raise ConfigError(f"--changed-only {every!r} names no commit in any repo of the workspace")
    if every is not None and missing:
        warn(f"--changed-only {every!r} is not in {', '.join(missing)}: nothing there counts as changed")
    return out


def changed_paths(bases: dict[str, tuple[GitRepo, str, str]]) -> dict[str, list[str]]:
    """The paths changed in each repo since its base (one `git diff` each)."""
    return {repo: git.changed_paths(base, commit) for repo, (git, base, commit) in bases.items()}


def changed_files(changed: dict[str, list[str]]) -> set[FileId]:
    return {(repo, path) for repo, paths in changed.items() for path in paths}


def unbumped(result: CheckResult, bases: dict[str, tuple[GitRepo, str, str]],
             changed_by_repo: dict[str, list[str]]) -> list[FingerprintedFinding]:
    """AC306 for the change since each base, as merge-order tells it for a PR: a
    package's content changed and its version did not."""
    rule = REGISTRY["AC306"]
    settings = result.workspace.settings
    found = []
    for repo, (git, base, commit) in bases.items():
        paths = result.index.snapshots[repo].paths
        for u in unbumped_packages(git, paths, changed_by_repo[repo], base, commit,
                                   settings.version_guard, settings.version_guard_skip):
            suggested = bump(u.version, len(u.version.split(".")) - 1)
            msg = (f"changes {', '.join(u.touched[:3])}{' and more' if len(u.touched) > 3 else ''} "
                   f"and leaves {u.path} at version {u.version}: bump it (to {suggested})")
            found.append(rule.finding(repo, u.path, u.line, 0, msg, f"{u.path} version", suggested))
    return list(fingerprint(found))


def stale_comments(result: CheckResult, bases: dict[str, tuple[GitRepo, str, str]],
                   changed_by_repo: dict[str, list[str]]) -> list[FingerprintedFinding]:
    """AC206 for the change since each base, as merge-order tells it for a PR."""
    from anchorcheck.pr.stale import stale_since

    rule = REGISTRY["AC206"]
    found = stale_since(bases, changed_by_repo, result.index, result.resolutions,
                        result.workspace.settings.max_file_size)
    return list(fingerprint(rule.finding(s.repo, s.path, s.line, s.col, s.message(), s.replaced.old,
                                         s.replaced.new) for s in found))


def only_changed(
    result: CheckResult, findings: Sequence[FingerprintedFinding], changed: set[FileId]
) -> list[FingerprintedFinding]:
    cites: dict[tuple[str, str, int, int], set[FileId]] = {}
    for res in result.resolutions:
        ref = res.reference
        targets = set(res.files) | {(a.repo, a.path) for a in res.anchors}
        cites[(ref.repo, ref.path, ref.line, ref.col + 1)] = targets
    kept = []
    for ff in findings:
        f = ff.finding
        if (f.repo, f.path) in changed or cites.get((f.repo, f.path, f.line, f.column), set()) & changed:
            kept.append(ff)
    return kept


def commit_change(result: CheckResult, repo: str) -> set[FileId]:
    """The files a commit about to be made changes in `repo`: those the index (or the
    work tree) checked differs in from HEAD, deleted ones too, which pre-commit does
    not pass to a hook. Empty for a repo read at its HEAD or at a configured ref."""
    spec = result.workspace.repo(repo)
    snap = result.index.snapshots.get(repo)
    if spec is None or snap is None or spec.shown_ref is None:
        return set()  # (shown_ref: the repo was read from its index or work tree)
    git = GitRepo(spec.path)
    head = git.try_resolve("HEAD")
    if head is None or head == snap.commit:
        return set()
    return {(repo, path) for path in git.changed_paths(head, snap.commit)}
