"""AC102 wrong-location: a citation naming the wrong file or repo for an existing anchor."""

from __future__ import annotations

from collections.abc import Iterator

from anchorcheck.model.finding import Finding, Severity
from anchorcheck.resolve.resolution import Status
from anchorcheck.rules import rule
from anchorcheck.rules.base import CheckContext, Rule
from anchorcheck.rules.wording import anchor_place


@rule("AC102", "wrong-location", Severity.ERROR)
def check(ctx: CheckContext, self: Rule) -> Iterator[Finding]:
    """The cited anchor exists, but not in the file or repo named.

    What: the heading is defined, but in another file (or repo) than the one the
    reference names, or the named file does not exist.
    Why: a reader following the citation opens the wrong file; the fix is to name
    the right one, which this finding gives.
    Example: `see ROLLBACK ON THE DEGRADED PATH in client/templates/cronjob.yaml`
    when the heading is in `client/templates/jobs-manager-deployment.yaml`.
    How to fix: name the file (and repo) where the heading is, which the message
    gives; `anchorcheck fix --write` rewrites the location when the heading is defined
    in one place only.
    """
    for res in ctx.resolutions(Status.WRONG_LOCATION):
        ref = res.reference
        places = ", ".join(anchor_place(a) for a in res.anchors[:3])
        more = f" (and {len(res.anchors) - 3} more)" if len(res.anchors) > 3 else ""
        msg = f"{ref.name!r} is not in {ref.location_text}; it is defined at {places}{more}"
        first = res.anchors[0]
        yield self.at(res, msg, f"{first.repo}:{first.path}")
