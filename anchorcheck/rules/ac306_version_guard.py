"""AC306 version-guard: a change to a chart's content with no version bump."""

from __future__ import annotations

from collections.abc import Iterator

from anchorcheck.model.finding import Finding, Severity
from anchorcheck.rules import rule
from anchorcheck.rules.base import Rule
from anchorcheck.rules.merge import MergeContext


@rule("AC306", "version-guard", Severity.ERROR, mode="changes")
def check(ctx: MergeContext, self: Rule) -> Iterator[Finding]:
    """A change edits a chart's content and leaves its version as the base has it.

    What: a file under the folder of a Helm chart's Chart.yaml (templates, values,
    README, comments too, as a chart repo's version-guard workflow counts them) differs
    between the merge base and the change's head, and the chart's `version` does not.
    `[settings] version-guard` lists the version files guarded (default Chart.yaml;
    pyproject.toml and package.json may be added) and `version-guard-skip` folders
    left out. A change that bumps is fine here; whether its bump is still ahead of the
    base and of the other open bumps is AC305's, and the version suggested is past
    all of them.
    Why: the repo's guard fails the PR after the fact, and a chart whose content
    moved under an old version is a release nobody can tell apart.
    Example: client#791 edits templates/jobs-manager-deployment.yaml and leaves
    Chart.yaml at 1.9.58: bump it to 1.9.59.
    How to fix: bump the version in the file named to the one the finding suggests
    (past the base and the other open bumps, so no AC305 race starts). Folders whose
    edits need no release are left out with `[settings] version-guard-skip`.
    """
    for u in ctx.analysis.unbumped:
        shown = ", ".join(u.touched[:3]) + (f" and {len(u.touched) - 3} more" if len(u.touched) > 3 else "")
        msg = (f"changes {shown} and leaves {u.path} at version {u.version}: bump it "
               f"(to {u.suggested}, past the base and the other open bumps)")
        yield self.finding(u.repo, u.path, u.line, 0, msg, f"{u.path} version", u.suggested,
                           change=u.change)
