"""AC202 missing-symbol: a symbol claim naming a definition the file no longer has."""

from __future__ import annotations

from collections.abc import Iterator

from anchorcheck.model.finding import Finding, Severity
from anchorcheck.rules import rule
from anchorcheck.rules.base import CheckContext, Rule


@rule("AC202", "missing-symbol", Severity.ERROR)
def check(ctx: CheckContext, self: Rule) -> Iterator[Finding]:
    """The file named no longer defines the symbol.

    What: a symbol claim (`PATH:name()`, `` `name()` in PATH ``) names a function,
    class or binding that the file does not define (Python through its parser, other
    languages through definition patterns). Where the name is defined now, the
    finding says so.
    Why: functions get renamed and moved; a comment that sends the reader to a
    function that is gone teaches them nothing, or the wrong thing.
    Example: "submit_ingestion_run.py:_healthz_report() checks authz_mount" after the
    function was renamed to `_readiness_report`.
    How to fix: cite the symbol as it is now: its new name, or the file the finding
    says defines it (`PATH:name()`); if the code the comment described is gone,
    rewrite the comment.
    """
    for claim in ctx.failed_claims(self.code):
        ref = claim.reference
        yield self.cited(ref, claim.message, ref.text,
                           claim.suggestion)
