"""AC303 dependency-cycle: open changes that need each other, in a cycle."""

from __future__ import annotations

from collections.abc import Iterator

from anchorcheck.model.finding import Finding, Severity
from anchorcheck.rules import rule
from anchorcheck.rules.base import Rule
from anchorcheck.rules.merge import MergeContext


@rule("AC303", "dependency-cycle", Severity.ERROR, mode="changes")
def check(ctx: MergeContext, self: Rule) -> Iterator[Finding]:
    """Changes depend on each other in a cycle.

    What: each change of a cycle cites something that the next one adds, so no order
    lets every reference resolve on arrival.
    Why: whichever lands first carries a dangling reference; move one citation (or
    one heading) so that one change stands alone.
    Example: backend#10 cites a heading that client#20 adds, and client#20 cites a
    heading that backend#10 adds.
    How to fix: break the cycle: move one citation or one heading so that one change
    no longer needs the other (or put both in one change where they share a repo);
    where a `Depends-On:` line closes the cycle, remove it.
    """
    deps = ctx.analysis.dependencies
    for cycle in ctx.analysis.cycles:
        path = " -> ".join((*cycle, cycle[0]))
        for label in cycle:
            dep = next((d for d in deps if d.after == label and d.first in cycle), None)
            msg = f"dependency cycle {path}: no merge order lets every reference resolve on arrival"
            if dep is not None:
                ref = dep.reference
                yield self.cited(ref, msg, path, change=label)
                continue
            # Declared only (a Depends-On line): the change's description is the place.
            change = next(c for c in ctx.analysis.changes if c.label == label)
            yield self.finding(change.repo, "", 1, 0, msg + " (declared with Depends-On)", path, change=label)
