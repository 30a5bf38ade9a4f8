"""AC108 site-only-link: a README link only the documentation site resolves, not GitHub."""

from __future__ import annotations

from collections.abc import Iterator

from anchorcheck.model.finding import Finding, Severity
from anchorcheck.resolve.resolution import Status
from anchorcheck.rules import rule
from anchorcheck.rules.base import CheckContext, Rule


@rule("AC108", "site-only-link", Severity.WARNING, reads="markdown")
def check(ctx: CheckContext, self: Rule) -> Iterator[Finding]:
    """A link works on the documentation site, but not where GitHub shows the page.

    What: a link in a folder's README, which a documentation site publishes
    (resolve/sites.py: MkDocs, Hugo, VitePress, Docusaurus, Sphinx) and GitHub shows
    below the folder's listing, that resolves only by the site's rules: its heading
    ids, page URLs (`../install/`), extension-less links, redirects. Not on a frozen
    version's or a translation's copy of the page (`versioned_docs/version-1.2/`,
    `i18n/zh/`), which nobody browses on GitHub: the current page's warning stands.
    Why: readers browsing the repo on GitHub follow it and land nowhere.
    Example: `[options](#build-target)` in docs/README.md of a VitePress site: GitHub's
    id for `## build.target` is `#buildtarget`.
    How to fix: link to the source file, with its extension (`../install/README.md`,
    not `../install/`), which GitHub follows and MkDocs, Docusaurus and VitePress
    rewrite; for a fragment, reword the heading or give it an
    `<a id="build-target"></a>` so GitHub and the site agree on the id.
    """
    for res in ctx.resolutions(Status.RESOLVED):
        if res.site_only is None:
            continue
        ref = res.reference
        broken = f"its fragment #{ref.name} names no heading there" if res.github_lacks == "fragment" \
            else "it is broken"
        shown = ref.location_text or ref.text
        if ref.location_text and ref.name and "#" not in shown:
            # The target as written, fragment and all: the fragment is often what only
            # the site resolves, and `config/index` alone hid which heading was meant.
            shown = f"{shown}#{ref.name}"
        msg = (f"{shown!s} resolves only as the {res.site_only} builds "
               f"this page; where GitHub shows {ref.path}, {broken}")
        yield self.cited(ref, msg, ref.text)
