"""Pages: the file or folder a link's path names in a repo, or, on a site, the page
it builds there (`guide/` from `guide.md`, an index page, a redirect's target), and
the page a site serves at a URL: followed from the site's roots (a root-relative
link, a content root, a `public/` or `static/` folder) or from the citing page's own
URL (Hugo's and MkDocs' `../install/`, Jekyll's permalinks, a blog post's dated URL,
a translation's English page). Its own room as what each site's generator adds to
GitHub's files and folders; locations.py asks it."""

from __future__ import annotations

import datetime
import posixpath
import re

from anchorcheck.extract.languages import language_of
from anchorcheck.model.reference import Reference
from anchorcheck.resolve.resolution import FileId, Resolution, Status, Unchecked
from anchorcheck.resolve.resolver_base import ResolverBase
from anchorcheck.resolve.routes import (
    front_matter,
)
from anchorcheck.resolve.sites import (
    ANY_SITE,
    DOCUSAURUS,
    HUGO,
    JEKYLL,
    MDBOOK,
    MKDOCS,
    OPAQUE_ROUTES,
    SPHINX,
    Site,
)
from anchorcheck.resolve.sites import APP_CONTENT as _APP_CONTENT
from anchorcheck.resolve.workspace_index import LANGUAGE_DIR, language_root

# What a site or a documentation generator writes: a link to one is a page, maybe of
# a Markdown file (`guide.html` from `guide.md`), maybe generated.
PAGES = (".html", ".htm")


class Pages(ResolverBase):
    def _app_url_redirected(self, ref: Reference, joined: str, site: Site) -> bool:
        """Whether a web app's page, linked by its source's path (`joined`, from the
        repo's root), is at a URL its host redirects: cert-manager.io's v1.1 docs link
        `../../docs/installation/upgrading/upgrading-0.15-0.16.md`, the page
        /docs/installation/upgrading/upgrading-0.15-0.16/, which public/_redirects sends
        to /docs/releases/upgrading/."""
        rel = joined[len(site.root) + 1:] if site.root else joined
        for content in _APP_CONTENT:
            rel = rel.removeprefix(content)
        url = "/" + re.sub(r"(?:/README|/index)?\.mdx?$", "", rel, flags=re.IGNORECASE)
        return self.index.host_redirects(ref.repo).catches(url)

    def _from_a_root(self, ref: Reference, path: str, site: Site | None) -> tuple[FileId, ...] | Resolution:
        """A root-relative link (`/images/x.png`): from the repo's root, as GitHub reads
        it; on a site, else from a directory above the citing file, the root of a site
        built from it (a MkDocs `site-src/`: 121 false AC105 in one vendored site), or
        its `public/` or `static/` folder."""
        if site is None:
            page = self._page(ref.repo, path, None)
            return ((ref.repo, page),) if page is not None else \
                Resolution(ref, Status.DANGLING_PATH, files=((ref.repo, path),))
        if site.renderer == HUGO and site.get_page and site.base_url:
            # A link hook's GetPage reads `/x/` from the page's own language's content
            # root, which its URLs put under the language's code (kueue's zh-CN page
            # linking `/v0.19/docs/concepts/preemption/` gets the zh-CN page).
            page = self._page(ref.repo, posixpath.join(site.root, path), site)
            if page is not None:
                return ((ref.repo, page),)
        routed = self._routed(ref, "/" + path, site) or self._from_content_root(ref, "/" + path, site)
        if routed is not None:
            return ((ref.repo, routed),)
        parts = ref.path.split("/")[:-1]
        for depth in range(len(parts) + 1):
            root = "/".join(parts[:depth])
            # A site serves its `public/` (VitePress) or `static/` (Hugo, Docusaurus)
            # folder at its root: vite's `/logo.svg` is docs/public/logo.svg.
            for served in ("", "public/", "static/"):
                where = f"{root}/{served}" if root else served
                page = self._page(ref.repo, f"{where}{path}", site)
                if page is not None:
                    return ((ref.repo, page),)
        if site is not ANY_SITE and self.index.host_redirects(ref.repo).catches(path):
            # A URL the site's host redirects (dexidp.io's netlify.toml: `/docs/api/`).
            return Resolution(ref, Status.EXTERNAL, unchecked=Unchecked.HOST_REDIRECT)
        if site.renderer in OPAQUE_ROUTES and "." not in path.rstrip("/").rpartition("/")[2]:
            # A page URL of a site whose routes are code (Astro's `[...slug].astro`,
            # Next.js' `app/blog/[year]/[month]/[day]/[slug]/page.tsx`), which no file
            # of its source is: counted, not judged.
            return Resolution(ref, Status.EXTERNAL, unchecked=Unchecked.SITE_ROUTE)
        if site is ANY_SITE:
            # A code file's doc comment is published on the project's site, whose root
            # the repo need not hold (caddy's `/docs/conventions#network-addresses` is
            # caddyserver.com's): not ours to check.
            return Resolution(ref, Status.EXTERNAL, unchecked=Unchecked.PROJECT_SITE)
        # (Where the site would serve it: a folder its build writes and git ignores,
        # vue-router's `packages/docs/api/` from TypeDoc, is a build's output.)
        return Resolution(ref, Status.DANGLING_PATH, files=((ref.repo, posixpath.join(site.root, path)),))

    def _from_content_root(self, ref: Reference, path: str, site: Site) -> str | None:
        """Docusaurus looks a `.md` link that does not start with `./` or `../` up in its
        content folder and then its site's folder too, after the page's own (redux's
        `api/Store.md` from `understanding/thinking-in-redux/Glossary.md` is
        `docs/api/Store.md`); one starting with `/` only there (helm-www's
        `/helm/helm_show.md`). So does Hugo's GetPage, in a link render hook."""
        if site.renderer == HUGO and site.get_page and not path.startswith(("./", "../", "/")):
            # A Hugo link render hook's GetPage looks a path up from the content root
            # too, after the page's folder (hugoDocs' `methods/page/title/`), within the
            # page's language.
            roots = (site.root, *language_root(site.root, ref.path))
            pages = (self._page(ref.repo, posixpath.join(root, path), site) for root in roots)
            return next((p for p in pages if p is not None), None)
        if site.renderer != DOCUSAURUS or path.startswith(("./", "../")) \
                or not path.partition("#")[0].lower().endswith((".md", ".mdx")):
            return None
        translated = (site.translates,) if site.translates else ()
        for folder in (site.root, *translated, posixpath.dirname(site.config)):
            joined = posixpath.normpath(posixpath.join(folder, path.partition("#")[0].lstrip("/")))
            if self.index.has_file(ref.repo, joined):
                return joined
        return None

    def _routed(self, ref: Reference, url: str, site: Site) -> str | None:
        """The page a site serves at a root-relative URL by its routes (Jekyll's
        permalinks and collections, Hugo's aliases, Docusaurus' slugs), its base URL
        allowed in front; or a file its source serves as it is."""
        if site.renderer not in (JEKYLL, HUGO, DOCUSAURUS) and site.renderer not in OPAQUE_ROUTES:
            return None
        base = site.jekyll.baseurl if site.jekyll is not None else ""
        # (Docusaurus: a URL may be another docs folder's, or a static file's.)
        sites = [s for s in self.index.sites(ref.repo) if s.renderer == site.renderer] \
            if site.renderer == DOCUSAURUS else [site] if site.renderer not in OPAQUE_ROUTES else []
        tries = [(candidate, sites) for candidate in (url, url.removeprefix(f"/{base}") if base else url)]
        if site.renderer == HUGO:
            # A multilingual Hugo site serves each language's content folder under its
            # name (glossary's content/bn/nodes.md at /bn/nodes/) and the default
            # language's at the root, which any page may link (`/kubernetes/` from a
            # Hindi page is the English one).
            languages = [s for s in self.index.sites(ref.repo)
                         if s.renderer == HUGO and s.config == site.config]
            head, _, rest = url.lstrip("/").partition("/")
            named = [s for s in languages if posixpath.basename(s.root) == head and s.root != s.config]
            tries = [(f"/{rest}", named), (url, [site, *(s for s in languages if s != site)])] if named \
                else [(url, [site, *(s for s in languages if s != site)])]
        for candidate, where in tries:
            for each in where:
                page = self.index.routes(ref.repo, each).page(candidate)
                if page is not None:
                    return page
        for folder in site.static:  # served at the site's root
            page = self._page(ref.repo, posixpath.join(folder, url.lstrip("/")), None)
            if page is not None:
                return page
        return None

    def _from_routed_page(self, ref: Reference, path: str, site: Site) -> str | None:
        """A relative link from a page whose URL its site decides (a Jekyll page at
        `/docs/installation/other-linux/` links `../ubuntu/`): followed from that URL,
        as the reader's browser does, to a routed page or a file served as it is."""
        if site.renderer not in (JEKYLL, DOCUSAURUS, HUGO):
            return None
        url = self.index.routes(ref.repo, site).by_file.get(ref.path)
        if url is None:
            return None
        folder = url if url.endswith("/") else posixpath.dirname(url)
        joined = posixpath.normpath(posixpath.join(folder, path.partition("#")[0]))
        if not joined.startswith("/"):
            return None
        page = self._routed(ref, joined, site)
        source = joined.lower().endswith((".md", ".markdown", ".mdx"))
        if page is None and not joined.endswith("/") and not source:
            # A file the site copies as it is (an image beside its page); a page's source
            # is served at its route only (`../components.md` is no URL of Hugo's).
            page = self._page(ref.repo, posixpath.join(site.root, joined.lstrip("/")), None)
        return page

    def _from_page_url(self, ref: Reference, path: str, site: Site) -> str | None:
        """A relative link that a site resolves from the page's URL, not its file: Hugo,
        and MkDocs for what is no `.md` file, publish `guide/setup.md` as `guide/setup/`,
        so its `../install/` is `guide/install.md` and its `../diagram.svg` is
        `guide/diagram.svg` (Grafana's Loki docs: 69 false AC105). Tried first on a Hugo
        site with no link render hook, else only when the link does not resolve from
        the file (a hook may resolve it so); an index page's URL is its directory already,
        and a page at the repo's root (CONTRIBUTING.md) is GitHub's, not a site's:
        consul-k8s's `[changelog entry](../.changelog)` there is broken. Nor for a link to
        a `.md` file: MkDocs resolves those from the file, and so does GitHub."""
        if language_of(ref.path) != "markdown" or "/" not in ref.path or path.lower().endswith(".md"):
            return None
        if site.renderer not in (HUGO, MKDOCS, ANY_SITE.renderer):
            return None  # (VitePress and Docusaurus resolve links from the file)
        stem = posixpath.splitext(posixpath.basename(ref.path))[0]
        # (An index page's URL is its folder, from which the link was read already.)
        index_page = stem.lower() in ("index", "_index", "readme")
        page_url = self._blog_post_url(ref, site) or (
            posixpath.dirname(ref.path) if index_page else posixpath.splitext(ref.path)[0])
        if site.root and page_url.startswith(site.root + "/"):
            # In the site's URL space, where a browser drops a `..` past the root
            # (textual's styles/grid/index.md, at /styles/grid/, links
            # `../../../css_types/integer`: /css_types/integer).
            url = posixpath.normpath(posixpath.join(page_url[len(site.root):], path))
            joined = posixpath.join(site.root, url.lstrip("/")) if url != "/" else site.root
            # (An index page's link that stays in the site was read from its folder already.)
            clamped = posixpath.normpath(posixpath.join(page_url, path)) != joined
        else:
            joined, clamped = posixpath.normpath(posixpath.join(page_url, path)), False
        if joined.startswith("../") or joined in (".", ".."):
            return None
        found = None if index_page and not clamped else self._page(ref.repo, joined, site)
        if found is None and site.static and site.holds(joined):
            # A file the site serves from its static folder at that URL (kind's home
            # page, site/content/_index.md, shows `./logo/logo.png` from site/static/).
            rel = joined[len(site.root) + 1:] if site.root else joined
            found = next((f for f in (posixpath.join(d, rel) for d in site.static)
                          if self.index.has_file(ref.repo, f)), None)
        return found

    def _blog_post_url(self, ref: Reference, site: Site) -> str | None:
        """A MkDocs Material blog post's URL, as a path in the repo: the blog plugin
        serves `blog/posts/x.md` at `blog/YYYY/MM/DD/<slug>/` by its front matter's
        date (textual's posts link `../../../../images/...`, which is `blog/images/`).
        None for any other page, or a post whose date cannot be read."""
        if site.renderer != MKDOCS or not site.blog_dir:
            return None
        blog = posixpath.join(site.root, site.blog_dir) if site.root else site.blog_dir
        if not ref.path.startswith(f"{blog}/posts/"):
            return None
        where = (ref.repo, ref.path)
        if where not in self._post_urls:  # (one read of a post for all its links)
            date = front_matter(self.index.text(ref.repo, ref.path) or "").get("date")
            if isinstance(date, dict):
                date = date.get("created")
            self._post_urls[where] = None if not isinstance(date, datetime.date) else \
                f"{blog}/{date:%Y/%m/%d}/{posixpath.splitext(posixpath.basename(ref.path))[0]}"
        return self._post_urls[where]

    def _in_default_language(self, ref: Reference, path: str, site: Site) -> str | None:
        """A link in a translated page that resolves in the English page's place: a
        site translated into `docs/de/` beside `docs/en/` shows the English page where
        no translation exists (MkDocs' i18n, fastapi: 30 false AC105 for
        `release-notes.md` and `newsletter.md`, written in English only)."""
        if language_of(ref.path) != "markdown":
            return None
        parts = ref.path.split("/")
        for i, part in enumerate(parts[:-1]):
            if part != "en" and LANGUAGE_DIR.fullmatch(part) and \
                    "/".join([*parts[:i], "en"]) in self.index.dirs(ref.repo):
                english = "/".join([*parts[:i], "en", *parts[i + 1:]])
                joined = posixpath.normpath(posixpath.join(posixpath.dirname(english), path))
                if not joined.startswith("../"):
                    return self._page(ref.repo, joined, site)
        return None

    def _page(self, repo: str, path: str, site: Site | None = ANY_SITE) -> str | None:
        """The file or directory a link's path names in `repo`, or, on a site, the page
        it builds there: `guide` or `guide/` from `guide.md`, `guide/index.md`,
        `guide/README.md` or `guide/_index.md`, `guide.html` from `guide.md`, a page
        its redirects send elsewhere. None when there is none. (GitHub shows files and
        folders only.)"""
        bare = path.rstrip("/")
        if not bare:
            return ""  # the root
        if self.index.has_file(repo, bare):
            return bare
        if site is None:
            return None
        if site.redirects and site.holds(bare):
            rel = bare[len(site.root) + 1:] if site.root else bare
            moved = next((site.redirects[k] for k in (rel, f"{rel}.md", f"{rel}/index.md",
                                                      rel.removesuffix(".html") + ".md")
                          if k in site.redirects), None)
            if moved is not None:
                target = posixpath.normpath(posixpath.join(site.root, moved)) if site.root else moved
                return target if self.index.has_file(repo, target) else None
        base = bare.rpartition("/")[2]
        _, dot, ext = base.rpartition(".")
        if dot and not ext.isalnum():
            dot = ""  # `1.0-roadmap`: a page named with a dot, not a file's extension
        if not dot:
            routes: tuple[str, ...] = (f"{bare}.md", f"{bare}/index.md", f"{bare}/README.md",
                                       f"{bare}/_index.md")  # (Hugo's section page)
            if site.renderer in (SPHINX, ANY_SITE.renderer):
                # MyST reads a link to no file as a document's name: pip's `[pip](pip)`
                # in cli/index.md is cli/pip.rst.
                routes += (f"{bare}.rst", f"{bare}/index.rst")
            if site.renderer == HUGO and site.languages:  # translated by its file's name: `_index.en.md`
                named = self.index.name_languages(repo)
                routes += tuple(f"{r[:-3]}.{language}.md" for r in routes for language in site.languages
                                if language in named)
        elif f".{ext.lower()}" in PAGES:
            routes = (bare[:len(bare) - len(ext) - 1] + ".md",)
        elif site.renderer == MDBOOK and base == "index.md":
            # mdBook renders a chapter's README.md as its folder's index.html: a link to
            # `index.md` is that page (clippy's continuous_integration/index.md).
            routes = (posixpath.join(posixpath.dirname(bare), "README.md"),)
        elif site.renderer == HUGO and site.get_page and ext.lower() == "md":
            # A link render hook's GetPage drops the `.md` and finds a section or a
            # bundle (contour's `/getting-started.md` is getting-started/_index.md).
            routes = (f"{bare[:-3]}/_index.md", f"{bare[:-3]}/index.md")
        elif (published := self._hugo_file(repo, bare, site)) is not None:
            return published
        elif site.renderer in OPAQUE_ROUTES and ext.lower() == "md":
            # A web app's link plugin turns a page's source into its URL, dropping `.md`
            # and `/README` (cert-manager.io's lib/remark-plugins/links): `x/README.md`
            # is x's page, which `x.md` may be, and `x.md` may be `x/README.md`.
            stem = bare[:-3]
            folder, _, name = stem.rpartition("/")
            routes = (folder + ".md",) if name.lower() in ("readme", "index") and folder else \
                (f"{stem}/README.md", f"{stem}/index.md")
        else:
            return None
        found = next((r for r in routes if self.index.has_file(repo, r)), None)
        if found is None and not dot and site.renderer in (HUGO, ANY_SITE.renderer):
            # Hugo publishes pages at lower-cased URLs: loki's `2020-02-promtail-push-api/`
            # is 2020-02-Promtail-Push-API.md.
            found = self.index.page_ignoring_case(repo, f"{bare}.md")
        return found

    def _hugo_file(self, repo: str, path: str, site: Site | None) -> str | None:
        """A file a Hugo site publishes at a lower-cased URL: tekton.dev's
        `concept-runs.png` beside content/en/docs/Concepts/concept-model.md is
        /docs/concepts/concept-runs.png."""
        if site is None or site.renderer != HUGO or not site.holds(path):
            return None
        found = self.index.page_ignoring_case(repo, path)
        return found if found is not None and not found.endswith(".md") else None
