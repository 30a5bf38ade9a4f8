"""AC304 merge-conflict: open changes that conflict textually, with each other or their base."""

from __future__ import annotations

from collections.abc import Iterator

from anchorcheck.model.finding import Finding, Severity
from anchorcheck.rules import rule
from anchorcheck.rules.base import Rule
from anchorcheck.rules.merge import MergeContext


@rule("AC304", "merge-conflict", Severity.ERROR, mode="changes")
def check(ctx: MergeContext, self: Rule) -> Iterator[Finding]:
    """Two open changes conflict textually (or a change conflicts with its base).

    What: `git merge-tree` of the two heads (or of the head and the base's tip)
    reports conflicting files. Nothing is checked out.
    Why: whichever lands second must be rebased; knowing it before review saves a
    round trip, and the files named say where.
    Example: client#787 and client#791 both edit the version line of Chart.yaml.
    How to fix: agree which lands first, and rebase the other onto the base once it
    has, resolving the files the finding names. A conflict with the base: rebase onto
    its tip (or merge it in) now.
    """
    repos = {c.label: c.repo for c in ctx.analysis.changes}
    for conflict in ctx.analysis.conflicts:
        more = len(conflict.paths) - 5
        files = ", ".join(conflict.paths[:5]) + (f" and {more} more" if more > 0 else "")
        if conflict.other.startswith("base:"):
            msg = f"conflicts with its base {conflict.other[5:]} in {files}: rebase before merging"
        else:
            msg = f"conflicts with {conflict.other} in {files}: whichever lands second needs a rebase"
        yield self.finding(repos[conflict.change], conflict.paths[0], conflict.line, 0, msg,
                           f"{conflict.other} {' '.join(conflict.paths)}", change=conflict.change)
