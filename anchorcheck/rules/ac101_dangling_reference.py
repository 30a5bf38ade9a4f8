"""AC101 dangling-reference: a citation of an anchor that exists nowhere."""

from __future__ import annotations

from collections.abc import Iterator

from anchorcheck.model.finding import Finding, Severity
from anchorcheck.model.reference import RefKind
from anchorcheck.resolve.resolution import Status
from anchorcheck.rules import rule
from anchorcheck.rules.base import CheckContext, Rule
from anchorcheck.rules.wording import did_you_mean, file_text, unread_note


@rule("AC101", "dangling-reference", Severity.ERROR)
def check(ctx: CheckContext, self: Rule) -> Iterator[Finding]:
    """The cited anchor exists nowhere in scope.

    What: a comment cites a heading, a Note or a fragment that no file of the
    workspace (at the refs checked) defines.
    Why: the reader is sent to an explanation that is not there; often the heading
    was renamed, or it lands with another repo's unmerged PR.
    Example: `# see ROLLBACK ON THE DEGRADED PATH in client/templates/jobs.yaml`
    while no such heading exists in that file or anywhere else.
    How to fix: correct the name as the message's did-you-mean suggests, cite the
    heading where it is now (renamed, or moved to another file), or restore the
    heading. When it comes with another repo's open PR, land that PR first. An example
    that must not resolve takes `anchorcheck: ignore[AC101]`.
    """
    for res in ctx.resolutions(Status.DANGLING):
        ref = res.reference
        if ref.kind is RefKind.NOTE:
            msg = f"Note [{ref.name}] is not defined anywhere in the workspace"
        elif ref.kind is RefKind.SLUG:
            msg = f"no heading with fragment #{ref.name} in {file_text(res.files, ref)}"
        elif res.files:
            msg = f"no heading {ref.name!r} in {file_text(res.files, ref)}, nor anywhere else"
        else:
            msg = f"no heading {ref.name!r} anywhere in the workspace"
        hint = unread_note(ctx.index, res.files) + did_you_mean(res.suggestions)
        yield self.at(res, msg + hint, res.suggestions[0] if res.suggestions else None)
