"""AC110 duplicate-anchor: a Note or cited heading defined more than once in its scope."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import replace

from anchorcheck.extract.languages import language_of
from anchorcheck.extract.locations import copied_path
from anchorcheck.model.anchor import Anchor, AnchorKind
from anchorcheck.model.finding import Finding, Severity
from anchorcheck.rules import rule
from anchorcheck.rules.base import CheckContext, Rule
from anchorcheck.rules.wording import anchor_place


@rule("AC110", "duplicate-anchor", Severity.WARNING, reads="all")
def check(ctx: CheckContext, self: Rule) -> Iterator[Finding]:
    """The same anchor is defined twice in one scope.

    What: a `Note [Title]` defined twice in the workspace (notes are cited without a
    location, so their scope is the workspace), or a caps heading defined twice in
    one file that something cites. Markdown headings are exempt (GitHub numbers
    repeats, `#usage-1`), and so are Haddock anchors (`#name#`, often written again
    where meant as a link). An uncited caps line repeated in a file is a label
    (`ONLY FOR DAEMONSETS:` over each of two lists in a values.yaml, `PREPARE FOR
    CODE GENERATION` in two like functions), not a name anyone can confuse yet; so is
    an uncited `## Note [optional]` heading in each of 39 proposals that copy one
    template (longhorn's enhancements/). A generated file's copy of a Note (happy's
    parsers embed its template's) is its tool's, not a repeat.
    Across repos, a vendored or per-version copy (`vendor/`, `third_party/`,
    `ghc-9.2/`) is reported, naming the original, and the original never is; when no
    copy can be told from the paths, the repeat is information only.
    Why: a citation can only mean one of them; the other is unreachable or
    silently confused with the first.
    Example: two `# ROLLBACK ON THE DEGRADED PATH` comments in one template, and a
    chart comment citing it.
    How to fix: rename one of the two (and the citations meant for it), or delete the
    repeat. A copy that is not yours to edit (vendored, one version's) is left out
    with `exclude` or `extend-exclude` in anchorcheck.toml.
    """
    scopes: dict[tuple[str, ...], list[Anchor]] = defaultdict(list)
    for anchor in ctx.index.anchors:
        if anchor.kind not in (AnchorKind.MARKDOWN, AnchorKind.HADDOCK):
            scopes[anchor.scope_key].append(anchor)
    cited: set[Anchor] | None = None
    for group in scopes.values():
        if len(group) < 2:
            continue
        if group[0].kind is AnchorKind.CAPS or all(language_of(a.path) == "markdown" for a in group):
            if cited is None:
                cited = {a for res in ctx.resolved for a in res.anchors}
            if cited.isdisjoint(group):
                continue
        group.sort(key=lambda a: (a.repo, a.path, a.line))
        if len({(a.repo, a.path) for a in group}) > 1:
            # A generated file's copy of a Note (happy's parsers embed its template's)
            # is its tool's: nobody edits it, and its citations mean its own copy.
            group = [a for a in group if not ctx.index.generated(a.repo, a.path)]
            if len(group) < 2:
                continue
        if len({a.repo for a in group}) > 1 or any(copied_path(a.path) for a in group):
            yield from _copies(self, group)
            continue
        first = group[0]
        for dup in group[1:]:
            msg = f"{dup.display!r} is defined again here; first defined at {anchor_place(first)}"
            yield self.finding(dup.repo, dup.path, dup.line, dup.col, msg, dup.display)


def _copies(self: Rule, group: list[Anchor]) -> Iterator[Finding]:
    """A Note defined in several repos, or in copies: a copy (vendored, or one
    version's) is reported, naming the original; an original never is a warning.
    Where several places are no copy, or all are (Clash's `src-bin-9.6/`,
    `src-bin-9.8/`...), the repeats are told as information, on all but the first."""
    originals = [a for a in group if not copied_path(a.path)]
    first = originals[0] if originals else group[0]
    for dup in group:
        if dup is first:
            continue
        if originals and dup not in originals:
            msg = (f"{dup.display!r} is defined here, in a copy of {anchor_place(first)}, "
                   f"which a citation of it may mean instead")
            yield self.finding(dup.repo, dup.path, dup.line, dup.col, msg, dup.display)
            continue
        if dup.repo == first.repo and originals:
            msg = f"{dup.display!r} is defined again here; first defined at {anchor_place(first)}"
            yield self.finding(dup.repo, dup.path, dup.line, dup.col, msg, dup.display)
            continue
        msg = (f"{dup.display!r} is defined in several places, here and at {anchor_place(first)}; "
               f"which one is the original cannot be told from the paths")
        yield replace(self.finding(dup.repo, dup.path, dup.line, dup.col, msg, dup.display),
                      severity=Severity.INFO)
