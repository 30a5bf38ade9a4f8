"""What a repo's documentation sites make of its pages, as the workspace index asks:
the sites a repo builds, their routes and host redirects, the anchors a page gets at
build time (a directive, a Hugo shortcode or section layout), a Sphinx site's labels,
the MkDocs pages that show a module's docstrings, the languages pages are named for,
and an HTML file's ids or a page's definition terms, read on need. SitePages is the
WorkspaceIndex's middle layer (workspace_index.py), over the files of
snapshot_files.py: each answer here depends on a site's renderer and config."""

from __future__ import annotations

import functools
import posixpath
import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Self

from anchorcheck.config.workspace import RepoSpec
from anchorcheck.extract.languages import language_of
from anchorcheck.model.anchor import Anchor, AnchorKind
from anchorcheck.model.snapshot import SnapshotIndex
from anchorcheck.resolve.redirects import HostRedirects, declares_redirects
from anchorcheck.resolve.resolution import FileId
from anchorcheck.resolve.routes import (
    JekyllConfig,
    Routes,
    docusaurus_routes,
    hugo_routes,
    jekyll_routes,
)
from anchorcheck.resolve.sites import (
    DOCUSAURUS,
    HUGO,
    JEKYLL,
    MKDOCS,
    Site,
    site_of,
)
from anchorcheck.resolve.sites import detect as detect_sites
from anchorcheck.resolve.snapshot_files import SnapshotFiles

# A directive that builds a page's content and anchors: mkdocstrings' and mkdocs-click's
# `::: identifier`, Sphinx's `.. automodule::`, MyST's ```` ```{autoclass} ````.
# (A VitePress container, `::: tip`, names no dotted object.)
_BUILD_DIRECTIVE = re.compile(r"(?m)^(?:[ \t]*:::[ \t]+(?:[A-Za-z_]\w*(?:\.\w+)+|mkdocs-click|mkdocs-typer)"
                              r"[ \t]*$|\.\. auto\w+::|[`:]{3,}\{auto\w+\})")


# On a MkDocs site, `::: name` on a line of its own is mkdocstrings' directive whatever
# the name (no VitePress container there).
_MKDOCS_DIRECTIVE = re.compile(r"(?m)^[ \t]*:::[ \t]+[A-Za-z_][\w:.<>()-]*[ \t]*$")


# A Hugo shortcode called with Markdown output (`{{% docs/languages/exporters/intro %}}`),
# and where a shortcode's Markdown template is (`layouts/_shortcodes/NAME.md`, a theme's too).
_SHORTCODE_CALL = re.compile(r"\{\{%-?\s*([\w][\w/.-]*)")


_SHORTCODE_TEMPLATE = re.compile(r"(?:^|/)layouts/_?shortcodes/(.+)\.md$")


# A shortcode called either way (`{{< home/calendar_dark >}}`), an HTML template's
# (`layouts/shortcodes/home/calendar_dark.html`), and an id an HTML template writes.
_ANY_SHORTCODE_CALL = re.compile(r"\{\{[<%]-?\s*([\w][\w/.-]*)")


_HTML_SHORTCODE_TEMPLATE = re.compile(r"(?:^|/)layouts/_?shortcodes/(.+)\.html$")


# A Markdown file named for a language (`_index.en.md`, `about.pt-br.md`).
_NAMED_LANGUAGE = re.compile(r"\.([A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})?)\.md$")


# A section's own layout (`layouts/adopters/list.html`; not `_default/`, `shortcodes/`,
# `partials/`).
_SECTION_LAYOUT = re.compile(r"(?:^|/)layouts/(?!_|shortcodes/|partials/)([^/]+)/[^/]+\.html$")


_TEMPLATED_ID = re.compile(r"""\bid\s*=\s*["']?\{\{""")


_LITERAL_ID = re.compile(r"""\bid\s*=\s*["']([A-Za-z][\w:.-]*)["']""")


# mkdocstrings' directive naming a Python object: `::: hatch.env.plugin.interface.X`.
_MKDOCSTRINGS = re.compile(r"(?m)^[ \t]*:::[ \t]+([A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)+)[ \t]*$")


# A reST label: `.. _api-validators:` alone on its line.
_RST_LABEL = re.compile(r"(?m)^\.\. _([^:`\n]+):[ \t]*$")


class SitePages(SnapshotFiles):
    """Lookups over what the workspace's sites build (the WorkspaceIndex's middle layer)."""

    def __init__(
        self, snapshots: Sequence[SnapshotIndex], repos: Sequence[RepoSpec], share: Self | None = None,
    ) -> None:
        super().__init__(snapshots, repos, share)
        self._sites: dict[str, tuple[Site, ...]] = {}  # see sites()
        self._redirects: dict[str, HostRedirects] = {}  # see host_redirects()
        self._routes: dict[tuple[str, str, str], Routes] = {}  # see routes()
        self._html_ids: dict[FileId, list[Anchor]] = {}  # see html_ids()
        self._terms: dict[FileId, list[Anchor]] = {}  # see definition_terms()
        self._builds: dict[FileId, bool] = {}  # see builds_anchors()
        self._shortcodes: dict[str, frozenset[str]] = {}  # see _markdown_shortcodes()
        self._id_shortcodes: dict[str, dict[str, tuple[bool, tuple[str, ...]]]] = {}  # _html_id_shortcodes()
        self._id_layouts: dict[str, frozenset[str]] = {}  # see _sections_with_id_layouts()
        self._name_languages: dict[str, frozenset[str]] = {}  # see name_languages()
        self._page_texts: dict[FileId, str | None] = {}  # see _page_text()
        self._labels: dict[tuple[str, str, str], dict[str, str]] = {}  # see sphinx_labels()
        self._rendering: dict[str, dict[str, list[str]]] = {}  # see rendering_pages()

    def sites(self, repo: str) -> tuple[Site, ...]:
        """The documentation sites a repo builds: declared ([[site]]) and found from
        their config files (read from git on first need; a repo that came as an index
        file with no git here has only its declared ones and what paths alone say)."""
        found = self._sites.get(repo)
        if found is not None:
            return found
        snap = self.snapshots.get(repo)
        spec = self.repos.get(repo)
        declared = tuple(Site(renderer, root, "[[site]]") for renderer, root in (spec.sites if spec else ()))
        detected = detect_sites(snap.paths if snap is not None else (), lambda p: self.text(repo, p),
                                self.dirs(repo))
        found = self._sites[repo] = declared + tuple(
            d for d in detected if all(d.root != s.root for s in declared))
        return found

    def host_redirects(self, repo: str) -> HostRedirects:
        """The redirects the host of a repo's site serves (netlify.toml, _redirects,
        vercel.json); read on first need."""
        found = self._redirects.get(repo)
        if found is None:
            snap = self.snapshots.get(repo)
            paths = [p for p in (snap.paths if snap is not None else ())
                     if declares_redirects(p)]
            found = self._redirects[repo] = HostRedirects.read(paths, lambda p: self.text(repo, p))
        return found

    def site_of(self, repo: str, path: str) -> Site | None:
        """The site that shows this Markdown file, or None: GitHub shows it."""
        return site_of(self.sites(repo), path)

    def routes(self, repo: str, site: Site) -> Routes:
        """The URLs a site's config and pages' front matter give its pages (Jekyll's
        permalinks, Hugo's aliases, Docusaurus' slugs), built on first need."""
        key = (repo, site.renderer, site.root)
        found = self._routes.get(key)
        if found is None:
            snap = self.snapshots.get(repo)
            paths = snap.paths if snap is not None else ()
            read = functools.partial(self.texts, repo)
            if site.renderer == JEKYLL:  # (a declared one: its config read here)
                config = site.jekyll or JekyllConfig.parse(
                    self.text(repo, posixpath.join(site.root, "_config.yml")))
                found = jekyll_routes(site.root, paths, read, config)
            elif site.renderer == HUGO:
                found = hugo_routes(site.root, paths, read, dict(site.permalinks), site.languages,
                                    site.base_url, site.mounted_pages)
            elif site.renderer == DOCUSAURUS:
                found = docusaurus_routes(site.root, site.base_url, paths, read, site.aliases)
            else:
                found = Routes()
            self._routes[key] = found
        return found

    def builds_anchors(self, where: FileId) -> bool:
        """Whether a documentation page gets anchors at build time from a directive in
        it: mkdocstrings' and mkdocs-click's `::: hatch.cli` (hatch's CLI reference is
        that line alone; its `#hatch-env-lock` is made by the build), Sphinx's
        `.. automodule::` or MyST's `{automodule}`; or, on a Hugo site, from a
        shortcode it calls or its section's layout (_builds_in)."""
        found = self._builds.get(where)
        if found is None:
            text = self._page_text(where)
            found = self._builds[where] = bool(text) and self._builds_in(where, text or "")
        return found

    def _page_text(self, where: FileId) -> str | None:
        """A Markdown (or Hugo HTML content) page's text, read from git once for the
        questions asked of a page a fragment was not found on (builds_anchors,
        m4_anchors)."""
        if where not in self._page_texts:
            repo, path = where
            page = language_of(path) == "markdown" or (path.endswith(".html") and "content/" in f"/{path}")
            self._page_texts[where] = self.text(repo, path) if page else None
        return self._page_texts[where]

    def _builds_in(self, where: FileId, text: str) -> bool:
        """Whether a page's text gets anchors from its build (builds_anchors): a
        directive; a Markdown shortcode; an HTML shortcode whose template writes ids
        (fluxcd.io's home page calls `{{< home/calendar_dark >}}`, which writes
        `<h3 id="calendar">`); or a layout of its section's that writes ids (its
        adopters page: `layouts/adopters/list.html` gives each data file's project
        `id={{ .project | urlize }}`)."""
        repo, path = where
        if _BUILD_DIRECTIVE.search(text) is not None \
                or any(name in self._markdown_shortcodes(repo) for name in _SHORTCODE_CALL.findall(text)):
            return True
        site = self.site_of(repo, path)
        if site is not None and site.renderer == MKDOCS and _MKDOCS_DIRECTIVE.search(text) is not None:
            return True  # mkdocstrings' `::: name`, any handler's (fmt's C++ one: `::: basic_memory_buffer`)
        if site is None or site.renderer != HUGO:
            return False
        shortcodes = self._html_id_shortcodes(repo)
        if any(shortcodes.get(name, (False, ()))[0] for name in _ANY_SHORTCODE_CALL.findall(text)):
            return True
        section, slash, _ = path[len(site.root) + 1 if site.root else 0:].partition("/")
        return bool(slash) and section in self._sections_with_id_layouts(repo)

    def shortcode_ids(self, where: FileId) -> list[Anchor]:
        """The ids a Hugo page's HTML shortcodes write as they are (fluxcd.io's home
        page calls `{{< home/calendar_dark >}}`, which writes `<h3 id="calendar">`)."""
        repo, path = where
        site = self.site_of(repo, path)
        text = self._page_text(where) if site is not None and site.renderer == HUGO else None
        if not text or "{{" not in text:
            return []
        shortcodes = self._html_id_shortcodes(repo)
        return [replace(Anchor.make(i, AnchorKind.MARKDOWN, 1, 0, slug=i), repo=repo, path=path)
                for name in dict.fromkeys(_ANY_SHORTCODE_CALL.findall(text))
                for i in shortcodes.get(name, (False, ()))[1]]

    def _html_id_shortcodes(self, repo: str) -> dict[str, tuple[bool, tuple[str, ...]]]:
        """The Hugo shortcodes whose HTML template writes ids: whether it makes one from
        data (`id="{{ .Get 0 }}"`: the page's fragments are its build's, _builds_in),
        and those it writes as they are (shortcode_ids)."""
        found = self._id_shortcodes.get(repo)
        if found is None:
            found = self._id_shortcodes[repo] = {
                name: (_TEMPLATED_ID.search(text) is not None, tuple(_LITERAL_ID.findall(text)))
                for name, text in self._templates(repo, _HTML_SHORTCODE_TEMPLATE) if "id" in text}
        return found

    def _templates(self, repo: str, pattern: re.Pattern[str]) -> list[tuple[str, str]]:
        """The Hugo templates whose paths `pattern` matches, as (the name its first
        group gives, the text), read in one pass."""
        snap = self.snapshots.get(repo)
        named = {p: m.group(1) for p in (snap.paths if snap is not None else ())
                 if "layouts/" in p and (m := pattern.search(p)) is not None}
        return [(named[p], text) for p, text in self.texts(repo, sorted(named)).items()]

    def _sections_with_id_layouts(self, repo: str) -> frozenset[str]:
        """The sections whose own Hugo layouts (`layouts/adopters/list.html`, not
        `_default`'s) make ids from data (_builds_in; a literal `<body id="docs">`, velero's,
        makes no heading's)."""
        found = self._id_layouts.get(repo)
        if found is None:
            found = self._id_layouts[repo] = frozenset(
                section for section, text in self._templates(repo, _SECTION_LAYOUT)
                if _TEMPLATED_ID.search(text))
        return found

    def _markdown_shortcodes(self, repo: str) -> frozenset[str]:
        """The Hugo shortcodes whose template is Markdown (`layouts/_shortcodes/docs/
        languages/exporters/intro.md`): called as `{{% name %}}`, their output is read
        as the page's own Markdown, headings and ids with it (opentelemetry.io's
        exporters pages get `## Jaeger` so)."""
        found = self._shortcodes.get(repo)
        if found is None:
            snap = self.snapshots.get(repo)
            found = self._shortcodes[repo] = frozenset(
                m.group(1) for p in (snap.paths if snap is not None else ()) if p.endswith(".md")
                and "shortcodes/" in p and (m := _SHORTCODE_TEMPLATE.search(p)) is not None)
        return found

    def sphinx_labels(self, repo: str, site: Site) -> dict[str, str]:
        """A Sphinx site's reST labels (`.. _api-validators:`), by name, with the file
        defining each; read on first need."""
        key = (repo, site.renderer, site.root)
        found = self._labels.get(key)
        if found is None:
            found = self._labels[key] = {}
            snap = self.snapshots.get(repo)
            paths = snap.paths if snap is not None else ()
            sources = [p for p in paths if p.endswith(".rst") and site.holds(p)]
            for path, text in self.texts(repo, sources).items():
                for m in _RST_LABEL.finditer(text):
                    found.setdefault(m.group(1).strip(), path)
        return found

    def rendering_pages(self, repo: str, path: str) -> set[str]:
        """The MkDocs pages that show a Python module's docstrings: those whose
        mkdocstrings directive (`::: hatch.env.plugin.interface.EnvironmentInterface`)
        names the module or something in it."""
        pages = self._rendering.get(repo)
        if pages is None:
            pages = self._rendering[repo] = {}
            snap = self.snapshots.get(repo)
            docs = [p for p in (snap.paths if snap is not None else ()) if language_of(p) == "markdown"
                    and site_of(self.sites(repo), p) is not None]
            for page, text in self.texts(repo, docs).items():  # (one read for all the pages)
                self._builds[(repo, page)] = self._builds_in((repo, page), text)
                for m in _MKDOCSTRINGS.finditer(text):
                    pages.setdefault(m.group(1), []).append(page)
        module = posixpath.splitext(path)[0].replace("/", ".")
        return {page for name, where in pages.items() for page in where
                if module.endswith("." + name) or module == name
                or any(module.endswith("." + name.rsplit(".", k)[0]) for k in range(1, name.count(".") + 1))}

    def name_languages(self, repo: str) -> frozenset[str]:
        """The languages a repo's Markdown files are named for (`about.en.md`: `en`):
        the only ones a Hugo page's translation by name is looked for in (each try is a
        lookup: opentelemetry.io's eleven languages, with none so named, made a cold
        run of its set 2 s slower)."""
        found = self._name_languages.get(repo)
        if found is None:
            snap = self.snapshots.get(repo)
            found = self._name_languages[repo] = frozenset(
                m.group(1).lower() for p in (snap.paths if snap is not None else ())
                if (m := _NAMED_LANGUAGE.search(p)) is not None)
        return found

    def html_ids(self, repo: str, path: str) -> list[Anchor]:
        """The ids and names an HTML file's elements carry, as anchors (read on need:
        HTML files are not extracted)."""
        found = self._html_ids.get((repo, path))
        if found is None:
            from anchorcheck.extract.markdown import html_ids  # (markdown-it: imported on need)

            found = self._html_ids[(repo, path)] = [
                replace(a, repo=repo, path=path) for a in html_ids(self.text(repo, path) or "")]
        return found

    def definition_terms(self, repo: str, path: str) -> list[Anchor]:
        """A Markdown page's definition list terms, as anchors (read on need: only a
        site that gives them ids asks)."""
        found = self._terms.get((repo, path))
        if found is None:
            from anchorcheck.extract.markdown import definition_terms  # (markdown-it: imported on need)

            found = self._terms[(repo, path)] = [
                replace(a, repo=repo, path=path) for a in definition_terms(self.text(repo, path) or "")]
        return found
