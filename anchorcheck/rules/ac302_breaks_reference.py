"""AC302 breaks-reference: a change that removes an anchor still cited elsewhere."""

from __future__ import annotations

from collections.abc import Iterator

from anchorcheck.model.finding import Finding, Severity
from anchorcheck.rules import rule
from anchorcheck.rules.base import Rule
from anchorcheck.rules.merge import MergeContext


@rule("AC302", "breaks-reference", Severity.ERROR, mode="changes")
def check(ctx: MergeContext, self: Rule) -> Iterator[Finding]:
    """This change removes or renames an anchor that is cited elsewhere.

    What: an anchor in a file the change touches is gone after the change, while
    references on a base branch (in any repo) or in another open change still cite it.
    Why: merging it leaves those references dangling; rename the citations in the
    same round, or keep the heading.
    Example: client#800 renames ROLLBACK ON THE DEGRADED PATH to ROLLBACK POLICY while
    client-runtime's jobs_manager.py:13 still cites the old name.
    How to fix: point every citation the finding lists at the new name (its
    suggestion, for a rename), in this change or in PRs that land with it; or keep the
    heading.
    """
    for brk in ctx.analysis.breaks:
        anchor = brk.anchor
        places = []
        for by, ref in brk.citations:
            where = f"{ref.repo}:{ref.path}:{ref.line}"
            places.append(f"{where} (in {by})" if by else where)
        renamed = f" (renamed to {brk.renamed_to.display!r}?)" if brk.renamed_to else ""
        msg = (f"removes {anchor.display!r}{renamed}, still cited at " + ", ".join(places))
        yield self.finding(anchor.repo, anchor.path, anchor.line, anchor.col, msg, anchor.display,
                           brk.renamed_to.display if brk.renamed_to else None, change=brk.change)
