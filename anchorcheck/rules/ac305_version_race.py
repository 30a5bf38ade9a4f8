"""AC305 version-race: version bumps that collide, or have fallen behind their base."""

from __future__ import annotations

from collections.abc import Iterator

from anchorcheck.model.finding import Finding, Severity
from anchorcheck.rules import rule
from anchorcheck.rules.base import Rule
from anchorcheck.rules.merge import MergeContext


@rule("AC305", "version-race", Severity.ERROR, mode="changes")
def check(ctx: MergeContext, self: Rule) -> Iterator[Finding]:
    """Two changes claim the same new version, or a bump is no longer ahead of its base.

    What: in a version file (Chart.yaml, pyproject.toml, package.json), two open
    changes set the same new version, or the base has meanwhile reached the version a
    change bumps to.
    Why: the second to land repeats a released version, or fails a version guard in
    CI; the finding says which version to re-cut to. Of the changes claiming one
    version, the first to land in the merge order keeps it, and only the later ones
    are reported, each with a version of its own.
    Example: develop is at 1.9.59 and client#787 takes 1.9.60, so a change bumping
    1.9.58 -> 1.9.59 must be re-cut to 1.9.61.
    How to fix: re-cut the bump to the version the finding suggests (the next past the
    base and every other open bump, bumping the same part), in the file named; rebase
    first if the base moved.
    """
    for race in ctx.analysis.races:
        b = race.bump
        parts = []
        if race.behind:
            base = next(c.base_ref for c in ctx.analysis.changes if c.label == b.change)
            parts.append(
                f"{base} is at {b.base_now}, so this bump {b.old or '?'} -> {b.new} is no longer ahead"
            )
        if race.others:
            parts.append(f"{', '.join(race.others)} also set{'s' if len(race.others) == 1 else ''} "
                         f"{b.path} to {b.new}")
        msg = "; ".join(parts) + f": re-cut it to {race.suggested}"
        yield self.finding(b.repo, b.path, b.line, 0, msg, f"{b.path} version", race.suggested,
                           change=b.change)
