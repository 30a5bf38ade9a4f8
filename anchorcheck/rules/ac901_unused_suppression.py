"""AC901 unused-suppression: an inline suppression marker with nothing left to suppress."""

from __future__ import annotations

from collections.abc import Iterator

from anchorcheck.model.finding import Finding, Severity
from anchorcheck.rules import rule
from anchorcheck.rules.base import CheckContext, Rule


@rule("AC901", "unused-suppression", Severity.WARNING, enabled=False)
def check(ctx: CheckContext, self: Rule) -> Iterator[Finding]:
    """An inline `anchorcheck: ignore[…]` that suppresses nothing (off by default).

    What: a suppression marker whose comment block (and the line after it) holds no
    finding of the codes it names.
    Why: the problem it silenced was fixed, or the marker drifted away from it; a
    stale marker would silently swallow the next real finding there.
    Example: `# anchorcheck: ignore[AC101]` above a reference that now resolves.
    How to fix: delete the marker; if it drifted from the finding it was for, move it
    back into that finding's comment block, or onto the line just above it.
    """
    for s in ctx.unused_suppressions:
        yield self.finding(s.repo, s.path, s.line, s.col, f"{s.text!r} suppresses nothing", s.text)
