"""AC205 rewritten-cited-lines: a text-less line claim whose lines were rewritten since."""

from __future__ import annotations

from collections.abc import Iterator

from anchorcheck.model.finding import Finding, Severity
from anchorcheck.rules import rule
from anchorcheck.rules.base import CheckContext, Rule


@rule("AC205", "rewritten-cited-lines", Severity.WARNING)
def check(ctx: CheckContext, self: Rule) -> Iterator[Finding]:
    """The lines a claim meant when it was written have been rewritten since.

    What: a line claim with no text of its own (`PATH:N`, `PATH#LN`, a blob URL's
    `#L..`) is followed through history, as `git blame` follows lines, from the commit
    that wrote the citing line (resolve/linehistory.py). When some of the lines it
    meant then were changed or removed since, or had lines added between them, the
    finding names the commit that changed them. (When they all stand, together, at
    other numbers, that is AC201 with the new numbers.)
    Why: the claim still points at real lines, but not at the ones its author read;
    whether the comment still holds needs a look at that commit.
    Example: "the SIG list, sigs.yaml#L250" written in 3f2a1c0, after 8e7d6c5 rewrote
    lines 248-252.
    How to fix: read the commit the finding names and check that the comment still
    holds; then cite the lines it means now, best with their text
    (`` `key: value` at PATH:N ``, which AC201 then checks), or rewrite the comment.
    """
    for claim in ctx.failed_claims(self.code):
        ref = claim.reference
        yield self.cited(ref, claim.message, ref.text)
