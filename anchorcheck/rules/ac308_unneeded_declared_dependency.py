"""AC308 unneeded-declared-dependency: a Depends-On line no reference of the change needs."""

from __future__ import annotations

from collections.abc import Iterator

from anchorcheck.model.finding import Finding, Severity
from anchorcheck.rules import rule
from anchorcheck.rules.base import Rule
from anchorcheck.rules.merge import MergeContext


@rule("AC308", "unneeded-declared-dependency", Severity.INFO, mode="changes")
def check(ctx: MergeContext, self: Rule) -> Iterator[Finding]:
    """A change declares a dependency (a Depends-On line) that its content does not need.

    What: the description says `Depends-On: X`, X is an open change of the run, and no
    reference the change adds or keeps needs X to resolve.
    Why: the declared order holds the change back for nothing, or hides a dependency
    of another kind (a deploy order, a schema) that the description should say in
    words; either way the two lists disagree.
    Example: backend#12 says `Depends-On: client#787`, and cites nothing client#787
    adds.
    How to fix: remove the `Depends-On:` line from the description; if the order is
    real but of another kind (a deploy order, a schema), keep it and say why in the
    description's words.
    """
    repo_of = {c.label: c.repo for c in ctx.analysis.changes}
    for first, after, written in ctx.analysis.unneeded:
        msg = (f"declares Depends-On {written}, but nothing it adds or keeps cites what {first} changes: "
               "no reference needs it (the order still follows the declaration)")
        yield self.finding(repo_of[after], "", 1, 0, msg, f"{first} declared", change=after)
