"""AC204 restated-value-drift: a value restated across repos that drifted from its source."""

from __future__ import annotations

from collections.abc import Iterator

from anchorcheck.model.finding import Finding, Severity
from anchorcheck.rules import rule
from anchorcheck.rules.base import CheckContext, Rule
from anchorcheck.rules.merge import MergeContext


@rule("AC204", "restated-value-drift", Severity.ERROR, mode="both")
def check(ctx: CheckContext | MergeContext, self: Rule) -> Iterator[Finding]:
    """A restated literal, or a contract, disagrees with the fact it restates.

    What: a line marked `restates REPO:PATH::KEY` holds a literal that differs from
    that fact's current value (a YAML/JSON/TOML key, a Python constant, the default
    of an environment variable read); or the facts a `[[contract]]` in
    anchorcheck.toml lists are not all equal.
    Why: where a value cannot be derived across repos it gets restated, and restated
    values drift; the marker makes the drift a failing check instead of an outage.
    Example: `containerPort: 8080  # restates client-runtime:jobs_manager.py::env.INGESTION_HTTP_PORT`
    after the runtime's default became 9090. In merge-order, the change that moves the
    fact is told every place that restates it.
    How to fix: set the literal to the fact's current value (the finding's
    suggestion), or the fact back if it moved by mistake; make a contract's facts
    equal; fix a marker whose address names no fact (`anchorcheck facts REPO:PATH`
    lists them). In merge-order, update every restating place in the same round.
    """
    if isinstance(ctx, MergeContext):
        yield from _advise(ctx, self)
        return
    for claim in ctx.failed_claims(self.code):
        ref = claim.reference
        yield self.cited(ref, claim.message, ref.text,
                           claim.suggestion)
    for breach in ctx.contracts:
        yield self.finding(breach.repo, breach.path, breach.line, 0, breach.message,
                           f"{breach.contract} {breach.address}")


def _advise(ctx: MergeContext, self: Rule) -> Iterator[Finding]:
    for fc in ctx.analysis.fact_changes:
        places = [f"{r.repo}:{r.path}:{r.line} (restates {r.claim!r})" for r in fc.restating]
        places += [f"contract {name!r}" for name in fc.contracts]
        repo, _, rest = fc.address.partition(":")
        path = rest.split("::", 1)[0]
        msg = (f"changes {fc.address} from {fc.old!r} to {fc.new!r}, which is restated at "
               + ", ".join(places) + ": update them in the same round")
        yield self.finding(repo, path, fc.line, 0, msg, fc.address, fc.new, change=fc.change)
