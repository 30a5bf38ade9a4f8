"""AC107 closed-issue-pending: a comment still waiting on an issue or PR that is closed."""

from __future__ import annotations

from collections.abc import Iterator

from anchorcheck.model.finding import Finding, Severity
from anchorcheck.rules import rule
from anchorcheck.rules.base import CheckContext, Rule


@rule("AC107", "closed-issue-pending", Severity.WARNING)
def check(ctx: CheckContext, self: Rule) -> Iterator[Finding]:
    """A comment says it waits on an issue that is closed.

    What: the wording before an issue reference marks it as still open ("pending",
    "until", "blocked on", "deferred to", "waiting for", "once", a `TODO(...#N)`), and
    the forge says the issue (or PR) is closed or merged. A neutral mention of a
    closed issue ("History: backend#1779") is no finding.
    Why: what the comment waited for has happened: the comment, and often the code
    under it (a workaround, a draft, a flag), is now out of date.
    Example: "Draft pending the decision being confirmed on backend#1922", after
    backend#1922 was closed.
    How to fix: do what the comment waited for (drop the workaround, the draft or the
    flag it guards) and reword the comment; if the wait goes on under another issue,
    cite that one. A comment that only records history says so without waiting words
    ("History: backend#1922").
    """
    for ref, state in ctx.issues.items():
        if state is not None and state.closed and ref.claim == "pending":
            what = "PR" if state.is_change else "issue"
            title = f" ({state.title})" if state.title else ""
            yield self.cited(ref, f"waits on {ref.text}, but that {what} is closed{title}: is this comment "
                             "(and what it guards) still needed?", ref.text)
