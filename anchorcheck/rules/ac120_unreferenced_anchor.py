"""AC120 unreferenced-anchor: a caps heading or Note that nothing cites."""

from __future__ import annotations

from collections.abc import Iterator

from anchorcheck.model.anchor import Anchor, AnchorKind
from anchorcheck.model.finding import Finding, Severity
from anchorcheck.resolve.graph import citation_count, nodes_of_type
from anchorcheck.rules import rule
from anchorcheck.rules.base import CheckContext, Rule


@rule("AC120", "unreferenced-anchor", Severity.INFO, enabled=False, reads="all")
def check(ctx: CheckContext, self: Rule) -> Iterator[Finding]:
    """Nothing cites this anchor (off by default).

    What: a caps heading or Note that no reference in the workspace resolves to.
    Markdown headings are exempt: they are read in a browser, not cited.
    Why: an anchor nobody cites may be fine as a heading, but in a workspace where
    headings exist to be cited it often marks a citation that was lost.
    Example: `# ROLLBACK ON THE DEGRADED PATH` with no `see ROLLBACK ON ...` anywhere.
    How to fix: cite it from the code it explains (`see HEADING in PATH`), or, if
    nothing needs it, make it a plain comment or delete it. A heading kept on purpose
    for readers takes `anchorcheck: ignore[AC120]`.
    """
    graph = ctx.graph()
    for node, data in nodes_of_type(graph, "anchor"):
        anchor = data["anchor"]
        assert isinstance(anchor, Anchor)
        if anchor.kind is AnchorKind.MARKDOWN or citation_count(graph, node):
            continue
        yield self.finding(anchor.repo, anchor.path, anchor.line, anchor.col,
                           f"{anchor.display!r} is not cited anywhere in the workspace",
                           anchor.display)
