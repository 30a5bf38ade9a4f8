"""Fragments: a heading or a `#fragment` matched among the anchors of the files a
reference was located in. GitHub's slugs and ids given by hand first, then a site's
own ids (Python-Markdown's, VitePress's, pandoc's, Hugo's other heading ids, tabs,
terms) and an included file's headings; where none matches, whether the fragment is
one a build makes, the heading has moved (names.py), or a near name is meant."""

from __future__ import annotations

import functools
import posixpath
import re
from collections.abc import Callable
from dataclasses import replace

from anchorcheck.extract.languages import language_of
from anchorcheck.model.anchor import (
    Anchor,
    AnchorKind,
    blackfriday_slug,
    github_ascii_slug,
    github_slug,
    pandoc_slug,
    slug_char,
    toc_slug,
    vitepress_slug,
)
from anchorcheck.model.reference import Reference, RefKind
from anchorcheck.resolve.names import Names
from anchorcheck.resolve.pages import PAGES
from anchorcheck.resolve.resolution import FileId, Resolution, Status, Unchecked
from anchorcheck.resolve.sites import (
    ANY_SITE,
    GITBOOK,
    HUGO,
    MKDOCS,
    SPHINX,
    VITEPRESS,
    VUEPRESS,
    Site,
    github_page,
)
from anchorcheck.resolve.suggest import suggest

# What a heading's slug is made of (anchor.github_slug: word characters, dashes and
# combining marks); a fragment with anything else can name no heading, only an id
# (indexed when given by hand: markdown.py).
_SLUG_SHAPE = re.compile(r"[\w-]*")


def _slug_shaped(frag: str) -> bool:
    return _SLUG_SHAPE.fullmatch(frag) is not None or all(slug_char(c) and c != " " for c in frag)


# pandoc, which builds pages with no config in the repo (pandoc.org from pandoc's doc/).
_PANDOC = Site("pandoc", "")


def _numbered_id(frag: str, anchors: list[Anchor]) -> Anchor | None:
    """The anchor whose id is `frag` where ids are GitHub's slugs, a repeated one
    numbered `-1`, `-2` in the page's order (Goldmark's, over headings and terms)."""
    seen: dict[str, int] = {}
    for anchor in sorted(anchors, key=lambda a: a.line):
        base = github_slug(anchor.name)
        n = seen[base] = seen.get(base, -1) + 1
        if (f"{base}-{n}" if n else base) == frag:
            return anchor
    return None


# A Hugo site's `autoHeadingIDType` other than GitHub's: how it makes a heading's id.
_HUGO_HEADING_IDS: dict[str, Callable[[str], str]] = {
    "blackfriday": blackfriday_slug, "github-ascii": github_ascii_slug}


@functools.cache
def _given_id(delimiters: tuple[str, str]) -> re.Pattern[str]:
    """markdown-it-attrs' id at the end of a heading, with these delimiters."""
    left, right = map(re.escape, delimiters)
    return re.compile(rf"[ \t]*{left}[^\n]*?#([\w.:-]+)[^\n]*?{right}[ \t]*$")


class Fragments(Names):
    def _myst_targets(self, ref: Reference, name: str) -> tuple[Anchor, ...]:
        """On a Sphinx site, the targets a `#name` finds on any page of the project:
        MyST's `(name)=` and a directive's `:name:`, which Sphinx resolves across
        documents (MyST-Parser's typography.md links `#organising-content`, defined on
        organising_content.md)."""
        site = self._renderer(ref)
        if site is None or site.renderer != SPHINX:
            return ()
        return tuple(a for a in self.index.by_name.get(name, ()) if a.kind is AnchorKind.MARKDOWN
                     and a.slug == a.name and a.repo == ref.repo and site.holds(a.path))

    def _in_files(self, ref: Reference, files: tuple[FileId, ...]) -> Resolution:
        name = ref.name or ""
        if ref.kind is RefKind.SLUG and name.lower() == "top" and not any(
                a.slug.lower() == "top" for f in files for a in self.index.by_file.get(f, [])):
            # `#top` is the top of any page, as browsers read it (HTML's "scroll to the
            # fragment"): no element needs to hold it.
            return Resolution(ref, Status.RESOLVED, files=files)
        if ref.kind is RefKind.SLUG and name.lower() == "readme" and self._renderer(ref) is None \
                and all(posixpath.basename(p).lower().startswith("readme") for _, p in files) and not any(
                a.slug.lower() == "readme" for f in files for a in self.index.by_file.get(f, [])):
            # GitHub shows a README in a box whose id is `readme` (loguru's logo is
            # `<a href="#readme">`: a click stays on the README).
            return Resolution(ref, Status.RESOLVED, files=files)
        hits = [a for f in files for a in self.index.by_file.get(f, []) if self._matches(ref, a)]
        if not hits and ref.kind is RefKind.SLUG:
            site = self._renderer(ref)
            included: tuple[FileId, ...] = ()
            if site is not None and site.renderer in (MKDOCS, VITEPRESS, HUGO, ANY_SITE.renderer):
                # pymdownx.snippets: a page holding `--8<-- "CONTRIBUTING.md"` shows that
                # file's headings (mkdocs' about/contributing.md); VitePress' and Hugo's
                # includes.
                included = tuple(g for f in files for g in self.index.snippets(f))
                hits = [a for g in included for a in self.index.by_file.get(g, []) if self._matches(ref, a)]
            if not hits and site is not None:
                # (The page's own ids first: an included file's come after them.)
                frag = name.lower().removeprefix("user-content-")
                hits = self._site_hits(frag, files, site) or self._site_hits(frag, included, site)
            if not hits and len(files) == 1:
                # An m4 page's ids include those of the pages its macros include.
                hits = [a for a in self.index.m4_anchors(files[0]) if self._matches(ref, a)][:1]
                if hits:
                    return Resolution(ref, Status.RESOLVED, tuple(hits), files=files)
            if not hits and site is None and "." in name and not ref.via_url and not self._github_only \
                    and not github_page(ref.path) and not self.index.sites(ref.repo) \
                    and self._site_hits(name.lower(), files, _PANDOC):
                # The repo builds no site, and the fragment is a heading's id as pandoc
                # writes it, periods kept (pandoc's lua-filters.md, built into pandoc.org
                # from another repo: `#module-pandoc.text`, GitHub's `#module-pandoctext`).
                # pandoc needs no config a repo would show: whether it builds the page
                # cannot be known here, so the fragment is not judged. (In a repo that
                # builds a site, a page outside it is GitHub's; and an id that differs
                # from GitHub's only by collapsed dashes, `#a-b` for "A & B", is the
                # common slip on GitHub: still judged.)
                return Resolution(ref, Status.RESOLVED, files=files, unchecked=Unchecked.RENDERER_UNKNOWN)
            if not hits and all(path.lower().endswith(PAGES) for _, path in files):
                # An HTML file's ids (`<p id="a-word">`), read when one is linked.
                hits = [a for f in files for a in self.index.html_ids(*f) if a.slug == name]
            if not hits and len(files) == 1:
                hits = [a for a in self.index.shortcode_ids(files[0]) if a.slug == name]
        if len({(a.repo, a.path) for a in hits}) == 1:
            return Resolution(ref, Status.RESOLVED, tuple(hits), files=((hits[0].repo, hits[0].path),))
        if hits:
            return Resolution(ref, Status.AMBIGUOUS, tuple(hits), files=files)
        return self._unmatched(ref, files)

    def _unmatched(self, ref: Reference, files: tuple[FileId, ...]) -> Resolution:
        """A heading or fragment no anchor of the files matches: one a build makes (not
        judged), one of several files, a lone heading, a heading that moved, or dangling
        with a did-you-mean."""
        name = ref.name or ""
        if ref.kind is RefKind.SLUG and len(files) == 1 and not _slug_shaped(
                name.lower().removeprefix("user-content-")) and not (
                self._renderer(ref) is None and language_of(files[0][1]) == "markdown") \
                and not name.startswith("#"):  # (`##x`, a doubled hash: no build makes such an id)
            # (Where GitHub shows a Markdown file, nothing is generated: its headings
            # and ids are all the anchors it has; `#discuss.kubernetes.io` is broken.)
            # No heading's slug can be this fragment (`#gateway.networking.k8s.io/v1beta1.
            # Gateway`), and no id given by hand is it (those matched above): content a
            # build generates names it. The file is checked; the fragment is not.
            return Resolution(ref, Status.RESOLVED, files=files, unchecked=Unchecked.BUILT_FRAGMENT)
        if ref.kind is RefKind.SLUG and len(files) == 1 and self.index.builds_anchors(files[0]):
            # The page's anchors are made by its build (mkdocs-click's `#hatch-env-lock`):
            # the file is checked, the fragment cannot be.
            return Resolution(ref, Status.RESOLVED, files=files, unchecked=Unchecked.BUILT_FRAGMENT)
        if len(files) > 1:
            return Resolution(ref, Status.AMBIGUOUS, files=tuple(sorted(files)))
        near: list[str] = []
        if ref.kind is RefKind.HEADING and len(files) == 1:
            lone = self.index.lone_heading(files[0], name)
            if lone is not None:
                return Resolution(ref, Status.RESOLVED, (lone,), files=files)
        if ref.kind is RefKind.HEADING:
            elsewhere, near = self._moved_to(name)
            if elsewhere:
                return Resolution(ref, Status.WRONG_LOCATION, tuple(elsewhere), files=files)
        local = [a for f in files for a in self.index.by_file.get(f, []) if a.kind is not AnchorKind.NOTE]
        candidates = [a.slug for a in local] if ref.kind is RefKind.SLUG else [a.name for a in local]
        suggestions = suggest(name, candidates) or near or (
            self._suggest_heading(name) if ref.kind is RefKind.HEADING else []
        )
        return Resolution(ref, Status.DANGLING, files=files, suggestions=tuple(suggestions))

    def _site_hits(self, frag: str, files: tuple[FileId, ...], site: Site) -> list[Anchor]:
        """The headings whose id on the site is `frag`, where GitHub's slug is not:
        Python-Markdown's (MkDocs; a repeated title's later ids `_1`, `_2`...) or
        VitePress's (`-1`, `-2`...), or pandoc's (_PANDOC), or a Hugo site's other
        `autoHeadingIDType`. Hugo, Docusaurus and MyST make GitHub's otherwise."""
        hits: list[Anchor] = []
        # (VuePress 2 slugs as VitePress does: both use @mdit-vue's slugify; so, near
        # enough, does GitBook, a run of spaces and punctuation one dash: nats.docs'
        # own contents list links `#visualizing-export-import-relationships`.)
        ways: tuple[tuple[Callable[[str], str], str], ...] = {
                MKDOCS: ((toc_slug, "_"),), VITEPRESS: ((vitepress_slug, "-"),),
                VUEPRESS: ((vitepress_slug, "-"),), GITBOOK: ((vitepress_slug, "-"),),
                ANY_SITE.renderer: ((toc_slug, "_"), (vitepress_slug, "-")),
                _PANDOC.renderer: ((pandoc_slug, "-"),),
                }.get(site.renderer, ())
        if site.renderer == HUGO and site.heading_ids in _HUGO_HEADING_IDS:
            ways = ((_HUGO_HEADING_IDS[site.heading_ids], "-"),)
        given = _given_id(site.attrs) if site.attrs is not None else None
        for f in files:
            headings = [a for a in self.index.by_file.get(f, []) if a.kind is AnchorKind.MARKDOWN]
            if given is not None:
                # A heading's id given with the site's own delimiters (`%{#statetree}%`),
                # which the extraction, knowing no site, read as part of its title.
                named = [a for a in headings if (m := given.search(a.name)) is not None
                         and m.group(1).lower() == frag]
                if named:
                    hits.append(named[0])
                    continue
                headings = [replace(a, name=given.sub("", a.name).strip()) for a in headings]
            if site.tab_slugs:
                # pymdownx.tabbed's `combine_header_slug`: a tab's id is its heading's
                # then its own (`#logo-image` for the tab "Image" under `### Logo`).
                tabbed = next((a for a in headings if frag.startswith(toc_slug(a.name) + "-")), None)
                if tabbed is not None:
                    hits.append(tabbed)
                    continue
            if site.term_ids:
                # Goldmark's `autoDefinitionTermID`: terms have ids too (hugoDocs' `#get`),
                # numbered with the headings' in the page's order (`#cascade-1`: a term
                # named as a heading above it).
                term = _numbered_id(frag, [*headings, *self.index.definition_terms(*f)])
                if term is not None:
                    hits.append(term)
                    continue
            for slugify, sep in ways:
                same = [a for a in headings if slugify(a.name) == frag]
                base, cut, nth = frag.rpartition(sep)
                if not same and cut and nth.isdigit():
                    repeats = [a for a in headings if slugify(a.name) == base]
                    same = repeats[int(nth):int(nth) + 1]
                if same:
                    hits.append(same[0])
                    break
        return hits

    @staticmethod
    def _matches(ref: Reference, anchor: Anchor) -> bool:
        if anchor.kind is AnchorKind.NOTE:
            return False
        if ref.kind is RefKind.SLUG:
            frag = (ref.name or "").lower().removeprefix("user-content-")
            return anchor.slug.lower() == frag  # (an id given by hand may have capitals)
        if anchor.kind is AnchorKind.MARKDOWN:
            return anchor.name.casefold() == (ref.name or "").casefold()
        return anchor.name == ref.name
