"""AC103 ambiguous-reference: a citation that several anchors or files match."""

from __future__ import annotations

from collections.abc import Iterator

from anchorcheck.model.finding import Finding, Severity
from anchorcheck.resolve.resolution import Status
from anchorcheck.rules import rule
from anchorcheck.rules.base import CheckContext, Rule
from anchorcheck.rules.wording import anchor_place


@rule("AC103", "ambiguous-reference", Severity.WARNING)
def check(ctx: CheckContext, self: Rule) -> Iterator[Finding]:
    """The citation matches several anchors or paths.

    What: the path is a suffix of several files in the workspace and none of them
    singles itself out, or a heading cited without a location is defined in several
    places.
    Why: readers and tools cannot tell which one is meant, and the reference breaks
    silently when one of them changes.
    Example: `see "RETRY POLICY"` when two repos both define a RETRY POLICY heading;
    write `see RETRY POLICY in backend:worker/retry.py`.
    How to fix: name one: add the repo and path (`in backend:worker/retry.py`), or
    more of the path, until only one place matches; or rename one of the headings so
    that its name is unique.
    """
    for res in ctx.resolutions(Status.AMBIGUOUS):
        ref = res.reference
        if res.anchors:
            options = [anchor_place(a) for a in res.anchors]
        else:
            options = [f"{repo}:{path}" for repo, path in res.files]
        shown = ", ".join(options[:4]) + (f" (and {len(options) - 4} more)" if len(options) > 4 else "")
        yield self.at(res, f"{ref.text!r} matches {len(options)} places: {shown}; name one")
