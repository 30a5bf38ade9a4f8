"""AC106 unknown-issue: an issue or PR reference the forge does not know."""

from __future__ import annotations

from collections.abc import Iterator

from anchorcheck.model.finding import Finding, Severity
from anchorcheck.rules import rule
from anchorcheck.rules.base import CheckContext, Rule


@rule("AC106", "unknown-issue", Severity.WARNING)
def check(ctx: CheckContext, self: Rule) -> Iterator[Finding]:
    """A cited issue or PR does not exist on the forge.

    What: a comment names an issue or change (`backend#1922`, `#12` after "see",
    `acme/api#7`, an issue or PR URL) that the forge says does not exist (or was
    deleted). Asked only when a forge token is present or `--forge` is given.
    Why: the number was mistyped, or names another repo's issue; a reader following it
    finds nothing, or the wrong thing.
    Example: `# pending backend#19222` when the decision is backend#1922.
    How to fix: correct the number, or the repo it belongs to (`backend#1922`, not
    `backend#19222`); if the issue was deleted, cite the one that replaced it, or drop
    the reference.
    """
    for ref, state in ctx.issues.items():
        if state is None:
            where = ref.target_repo or "this repo"
            yield self.cited(ref, f"no issue or PR {ref.name} in {where} on its forge ({ref.text})", ref.text)
