"""AC307 undeclared-dependency: a needed change the PR's Depends-On lines leave out."""

from __future__ import annotations

from collections.abc import Iterator

from anchorcheck.model.finding import Finding, Severity
from anchorcheck.rules import rule
from anchorcheck.rules.base import Rule
from anchorcheck.rules.merge import MergeContext


@rule("AC307", "undeclared-dependency", Severity.INFO, mode="changes")
def check(ctx: MergeContext, self: Rule) -> Iterator[Finding]:
    """A change declares its dependencies (Depends-On lines), but not this one, which its
    content has.

    What: the change's description has `Depends-On:` lines, and a reference it adds
    resolves only with another open change that none of them names.
    Why: merge bots and reviewers (Zuul, Mergify) go by the declared list; an
    undeclared dependency lets the change land first, with a reference that dangles.
    Example: client-runtime#359 declares `Depends-On: backend#12` and cites a heading
    that only client#791 adds: add `Depends-On: https://github.com/acme/client/pull/791`.
    How to fix: add the `Depends-On:` line the finding gives to the PR's description;
    or, if this change should not wait, cite only what the base already has.
    """
    urls = {c.label: c.spec.url for c in ctx.analysis.changes}
    seen: set[tuple[str, str]] = set()
    for dep in ctx.analysis.undeclared:
        if (dep.first, dep.after) in seen:
            continue
        seen.add((dep.first, dep.after))
        ref = dep.reference
        line = f"Depends-On: {urls.get(dep.first) or dep.first}"
        msg = (f"this change needs {dep.first} (it adds {dep.anchors[0].display!r}, cited here) but does not "
               f"declare it: add the line {line!r} to its description")
        yield self.cited(ref, msg, f"{dep.first} undeclared",
                           suggestion=line, change=dep.after)
