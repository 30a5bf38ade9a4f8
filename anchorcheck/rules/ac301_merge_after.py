"""AC301 merge-after: a change whose references need another open change merged first."""

from __future__ import annotations

from collections.abc import Iterator

from anchorcheck.model.finding import Finding, Severity
from anchorcheck.rules import rule
from anchorcheck.rules.base import Rule
from anchorcheck.rules.merge import MergeContext
from anchorcheck.rules.wording import anchor_place


@rule("AC301", "merge-after", Severity.INFO, mode="changes")
def check(ctx: MergeContext, self: Rule) -> Iterator[Finding]:
    """This change's references resolve only after another change lands.

    What: a reference that this change adds or keeps resolves against the base plus
    another open change, but not against the base alone.
    Why: merged first, the reference dangles until the other change lands (and the
    nightly check fails meanwhile); merged second, it resolves on arrival. Between two
    changes of one cycle AC303 is reported instead: neither can land first.
    Example: client-runtime#359 cites ROLLBACK ON THE DEGRADED PATH, which only
    client#791 adds: land client#791 first.
    How to fix: land the change the message names first, then this one
    (`anchorcheck merge-order` gives the whole order); with a merge bot, declare it
    with a `Depends-On:` line. Or cite only what the base already has, so this change
    stands alone.
    """
    # Two changes of one cycle cannot each land first: AC303 says so, once per change,
    # where "land X first" on both would be advice no one can follow.
    cyclic = [set(cycle) for cycle in ctx.analysis.cycles]
    for dep in ctx.analysis.dependencies:
        if any(dep.first in cycle and dep.after in cycle for cycle in cyclic):
            continue
        ref = dep.reference
        where = ", ".join(anchor_place(a) for a in dep.anchors[:2])
        msg = (f"land {dep.first} first: it adds {dep.anchors[0].display!r} ({where}), "
               "which this change cites here")
        yield self.cited(ref, msg, f"{dep.first} {ref.text}",
                           change=dep.after)
