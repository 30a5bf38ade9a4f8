"""AC201 stale-line-claim: a line claim whose lines no longer hold its text."""

from __future__ import annotations

from collections.abc import Iterator

from anchorcheck.model.finding import Finding, Severity
from anchorcheck.rules import rule
from anchorcheck.rules.base import CheckContext, Rule
from anchorcheck.rules.merge import MergeContext


@rule("AC201", "stale-line-claim", Severity.ERROR, mode="both")
def check(ctx: CheckContext | MergeContext, self: Rule) -> Iterator[Finding]:
    """The lines cited no longer hold the text claimed, or are out of range.

    What: a line claim (`PATH:N-M`, `PATH#LN-LM`, a blob URL with `#L..`, `at :N`)
    points past the end of the file, or the code span / `key: value` text written
    right before "at"/"on" the location is no longer on those lines. When the text
    now stands at other lines, and only there, the finding gives them
    (`anchorcheck fix` rewrites them). A claim with no text is followed through
    history from the commit that wrote it (resolve/linehistory.py): when the lines it
    meant then all stand, together, elsewhere now, the finding gives them too. In
    merge-order, a change that makes a claim stale (it edits or moves the lines a
    claim's text stood on) gets the finding, tagged with the change.
    Why: line numbers drift with every edit above them; a reviewer who follows a
    stale one checks the wrong code.
    Example: "`strategy: Recreate` at :27-28" after four lines were inserted above
    the strategy block: it is now at 31-32.
    How to fix: update the line numbers: where the finding gives the new lines,
    `anchorcheck fix --write` rewrites them; otherwise cite the lines that hold the
    text now, or update the claimed text to what the lines say. In merge-order, do it
    in the same round as the change that moves the lines.
    """
    if isinstance(ctx, MergeContext):
        for change, claim in ctx.analysis.stale_claims:
            ref = claim.reference
            yield self.cited(ref, f"after {change}: {claim.message}",
                               ref.text, claim.suggestion, change=change)
        return
    for claim in ctx.failed_claims(self.code):
        ref = claim.reference
        yield self.cited(ref, claim.message, ref.text,
                           claim.suggestion)
