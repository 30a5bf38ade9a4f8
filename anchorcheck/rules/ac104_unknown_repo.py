"""AC104 unknown-repo: a reference into a repo the workspace does not have."""

from __future__ import annotations

from collections.abc import Iterator

from anchorcheck.model.finding import Finding, Severity
from anchorcheck.resolve.resolution import Status
from anchorcheck.resolve.suggest import suggest
from anchorcheck.rules import rule
from anchorcheck.rules.base import CheckContext, Rule
from anchorcheck.rules.wording import did_you_mean


@rule("AC104", "unknown-repo", Severity.ERROR)
def check(ctx: CheckContext, self: Rule) -> Iterator[Finding]:
    """A reference names a repo outside the workspace.

    What: `REPO:PATH` where REPO is not one of the workspace's repos.
    Why: the citation cannot be checked, and is usually a typo or a renamed repo;
    add the repo to `anchorcheck.toml` or fix the name.
    Example: `see STARTUP ORDER in runtime:jobs_manager.py` in a workspace whose
    runtime repo is named `client-runtime`.
    How to fix: correct the repo name (the message lists the workspace's repos, and a
    did-you-mean), or add the repo to the workspace: a `[[repo]]` table in
    anchorcheck.toml, or `--repo NAME=PATH` for one run.
    """
    names = sorted(ctx.index.snapshots)
    for res in ctx.resolutions(Status.UNKNOWN_REPO):
        repo = res.reference.target_repo or ""
        hint = did_you_mean(tuple(suggest(repo, names)))
        yield self.at(res, f"unknown repo {repo!r} (the workspace has: {', '.join(names)}){hint}")
