"""AC206 stale-comment: a comment a change left naming the token it replaced."""

from __future__ import annotations

from collections.abc import Iterator

from anchorcheck.model.finding import Finding, Severity
from anchorcheck.rules import rule
from anchorcheck.rules.base import Rule
from anchorcheck.rules.merge import MergeContext


@rule("AC206", "stale-comment", Severity.WARNING, mode="changes")
def check(ctx: MergeContext, self: Rule) -> Iterator[Finding]:
    """A change replaces a token on a code line, and a comment it leaves alone still
    names the old token.

    What: in the change's diff (merge-order's PRs, or `check --changed-only REV`), a
    code token replaced one for one (an identifier, a literal, the value of a YAML
    `key: value`) is looked for in the comments that speak of its line: one beside
    it, one directly above the code block holding it (or the docstring of the
    definition holding it), one anywhere in the workspace whose line claim or blob URL
    cites the line, and one citing a heading whose block sits over it. A comment the
    change did not touch that names the old token as a token, and not the new one,
    while the code it speaks of no longer holds the old one, is stale. Tokens that
    read as prose words (`timeout`, `Recreate`) count only where the comment writes
    them as code (backticks, quotes, `key: value`) or as a config value's enum
    member. `anchorcheck fix --changed-only REV` puts the new token in where the old
    one stands alone (pr/stale.py).
    Why: the comment decays the moment the code under it changes, and then teaches
    the wrong thing; the change's author is the one who can tell, while the PR is
    open.
    Example: client#791 changes `type: Recreate` to `type: RollingUpdate` under
    "# Recreate (below) guarantees the old pod is gone before the new one starts".
    How to fix: `anchorcheck fix --changed-only REV --write` puts the new token in
    where the old one stands alone in the comment; elsewhere put it in by hand, or
    rewrite the comment if it no longer holds, before the change merges.
    """
    for label, s in ctx.analysis.stale_comments:
        yield self.finding(s.repo, s.path, s.line, s.col, s.message(), s.replaced.old, s.replaced.new,
                           change=label)
