"""Resolution: each reference against the anchors and files of the whole workspace.

The Resolver decides, reference by reference, what is judged and what is not ours to
judge (a test's input, a site's build output, a placeholder, a path named in prose
that nothing confirms). Its parts, each a class of its own module that it inherits:
locations.py finds the files a path names (with pages.py for a site's pages and
URLs), fragments.py a heading or fragment in them, names.py a name anywhere (quoted
headings, Notes); resolver_base.py holds what they share."""

from __future__ import annotations

import posixpath
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace

from anchorcheck.config.excludes import git_ignores
from anchorcheck.extract.languages import TEST_DIRS, language_of
from anchorcheck.extract.locations import copied_path
from anchorcheck.model.reference import Reference, RefKind
from anchorcheck.resolve.fragments import Fragments
from anchorcheck.resolve.locations import Locations, without_dots
from anchorcheck.resolve.pages import PAGES
from anchorcheck.resolve.resolution import FileId, Resolution, Status, Unchecked
from anchorcheck.resolve.sites import (
    ANY_SITE,
    HUGO,
    MDBOOK,
    MKDOCS,
    OPAQUE_ROUTES,
    Site,
)
from anchorcheck.resolve.workspace_index import LANGUAGE_DIR

# How many of a site's page links must lead nowhere, at the least, for its routes to be
# taken as unknown to the model (_model_gaps): fewer are judged one by one.
_GAP_LINKS = 20


# A site's feed or sitemap (`feed.xml`, `blog/feed_rss_created.xml`, `index.xml`).
_FEED = re.compile(r"(?i)(?:^|/)(?:[\w.-]*(?:feed|rss|atom|sitemap)[\w.-]*|index)\.xml$")
# Images: a fragment on one is a hook of the page's stylesheet (mkdocs-material's
# `logo.svg#only-dark`), or an SVG's view, never a heading.
# (anchorcheck: ignore[AC105]: examples, not citations)
_IMAGES = (".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".avif", ".ico", ".bmp")
# The page shown for a directory: GitHub's README below its listing; a site's index.
_DIR_PAGES_GITHUB = ("README.md", "readme.md", "Readme.md", "README.markdown", "README")
_DIR_PAGES_SITE = ("index.md", "README.md", "_index.md", "readme.md")


# Folders of files that are shown inside other pages, never alone (Jekyll's and Hugo
# themes' `_includes/`, pymdownx.snippets' and mkdocs-macros' `snippets/`, `partials/`).
_INCLUDE_DIRS = frozenset(("_includes", "includes", "snippets", "_snippets", "partials", "_partials"))


def _included(path: str) -> bool:
    """Whether a Markdown file is an include: under a folder of them, and no README
    (which GitHub shows as the folder's page)."""
    parts = path.split("/")
    return language_of(path) == "markdown" and not parts[-1].lower().startswith("readme") \
        and not _INCLUDE_DIRS.isdisjoint(parts[:-1])


def test_input(path: str) -> bool:
    """Whether a Markdown file is a test's input: under a test folder, or one named as
    fake (`fake-docs/`, cloudevents' link checker's inputs, broken on purpose), not its
    README. (MyST-Parser's tests/ held 13 of 60 sampled false findings, Jekyll's
    test/source/ 4.)"""
    low = path.lower()
    parts = low.split("/")
    return not parts[-1].startswith("readme") and (
        not TEST_DIRS.isdisjoint(parts[:-1])
        # (Asked of every link: the words are looked for before any folder is matched.)
        or (("fake" in low or "dummy" in low) and any(_FAKE_DIR.match(part) for part in parts[:-1])))


# A folder named as a test's stand-in: `fake-docs`, `fakes`, `dummy_site`.
_FAKE_DIR = re.compile(r"(?:fakes?|dummy)(?:[-_.]|$)")


# A site's folder of one version's pages: Docusaurus' `version-1.2`, Hugo's `v1.17.0`,
# `1.28`, `v0.6`.
_VERSION_FOLDER = re.compile(r"(?:^|/)(?:version-[^/]+|v?\d+(?:\.\d+)+(?:\.x)?)/")


def _parents(path: str) -> Iterator[str]:
    """A path's folders, the deepest first (`a/b` and `a` for `a/b/c`)."""
    path = path.rstrip("/")
    while "/" in path:
        path = path.rpartition("/")[0]
        yield path


def _version_copy(path: str) -> bool:
    """Whether a site page lies in one version's folder."""
    return _VERSION_FOLDER.search(path) is not None


# Placeholder names (`../foo/bar.md` in an example message, `path/to/file.md`).
_PLACEHOLDERS = frozenset({"foo", "bar", "baz", "qux", "path", "to", "file", "example", "my", "your", "some"})


# A Haskell identifier, maybe qualified (`Data.Map.insert`, `process`, `Step`).
_HADDOCK_IDENT = re.compile(r"(?:[A-Z][\w']*\.)*[A-Za-z_][\w']*")


class Resolver(Locations, Fragments):
    def resolve(self, ref: Reference) -> Resolution:
        found = self._resolve(ref)
        if found.status is Status.RESOLVED and posixpath.basename(ref.path).lower().startswith("readme") \
                and language_of(ref.path) == "markdown":
            site = self._renderer(ref)
            if site is not None and site is not ANY_SITE and site.renderer not in OPAQUE_ROUTES \
                    and not site.translates and not _version_copy(ref.path):
                # GitHub shows a folder's README below its listing: a link there must
                # work on GitHub too, not only on the site. (Not a web app's content
                # README, cert-manager.io's sections: its app's source, not the docs.
                # Nor a frozen version's or a translation's copy, which is read on the
                # site: kubevela.io's 79 in versioned_docs/ and i18n/, the current
                # page's warning once is enough.)
                self._github_only = True
                try:
                    on_github = self._resolve(ref)
                finally:
                    self._github_only = False
                if on_github.status is not Status.RESOLVED:
                    # (Whether GitHub lacks the file, or only the fragment's heading.)
                    lacks = "fragment" if on_github.status is Status.DANGLING else "file"
                    found = replace(found, site_only=site.name, github_lacks=lacks)
        return found

    def _resolve(self, ref: Reference) -> Resolution:
        if ref.kind is RefKind.ISSUE:  # on a forge, not in the workspace: AC106/AC107 ask it
            return Resolution(ref, Status.EXTERNAL, unchecked=Unchecked.ISSUE)
        if language_of(ref.path) == "markdown" and test_input(ref.path):
            return Resolution(ref, Status.EXTERNAL, unchecked=Unchecked.TEST_INPUT)
        if ref.kind is RefKind.PATH and ref.target_path == "":  # `[x]()`
            site = self._renderer(ref)
            if site is not None and site.renderer == MDBOOK and ref.path == f"{site.root}/SUMMARY.md":
                return Resolution(ref, Status.EXTERNAL, unchecked=Unchecked.DRAFT_CHAPTER)
            return Resolution(ref, Status.DANGLING_PATH)
        # (Before Notes: `ignore-evidence = ["note"]` for a project whose `Note [X]`
        # are all examples of the syntax, anchorcheck's own.)
        if self._ignored_evidence and (str(ref.evidence) in self._ignored_evidence or (
                ref.evidence.prose and "prose" in self._ignored_evidence)):
            return Resolution(ref, Status.EXTERNAL, unchecked=Unchecked.IGNORED)
        if ref.kind is RefKind.NOTE:
            return self._note(ref)
        if self._ignored is not None and ref.target_path is not None:
            written = ref.target_path + (f"#{ref.name}" if ref.kind is RefKind.SLUG and ref.name else "")
            if self._ignored.search(written):
                return Resolution(ref, Status.EXTERNAL, unchecked=Unchecked.IGNORED)  # the workspace says so
        if ref.target_path is None:
            return self._pathless(ref)
        located = self._located.pop(id(ref), None) or self._locate(ref)  # (_model_gaps may have)
        if isinstance(located, Resolution):
            left = self._left_to_the_site(ref, located)
            return left if left is not None else self._missing(ref, located)
        if ref.kind not in (RefKind.HEADING, RefKind.SLUG):  # a file, lines, a symbol, a fact
            return Resolution(ref, Status.RESOLVED, files=located)
        if ref.kind is RefKind.SLUG and all(
                (language_of(path) is None and path in self.index.snapshots[repo].paths)
                or path.lower().endswith(_IMAGES) for repo, path in located):
            # A fragment of an image or another file no heading is in: no heading's
            # (mkdocs-material's `logo.png#only-light` is a hook of its stylesheet).
            return Resolution(ref, Status.RESOLVED, files=located, unchecked=Unchecked.FILE_FRAGMENT)
        if ref.kind is RefKind.SLUG and all(path not in self.index.snapshots[repo].paths
                                            for repo, path in located):
            # A fragment of a directory's page: GitHub shows its README below the
            # listing, a site its index page. From a code file, which renderer is
            # meant cannot be told: only the directory is checked.
            return self._folder_fragment(ref, located)
        return self._in_files(ref, located)

    def _pathless(self, ref: Reference) -> Resolution:
        """A reference that names no path: a fragment of the citing file (or a MyST
        target, or the including page's), lines of it, or a heading anywhere."""
        if ref.kind is RefKind.SLUG:  # `(#slug)`: the citing file itself
            found = self._in_files(ref, ((ref.repo, ref.path),))
            if found.status is Status.DANGLING:
                targets = self._myst_targets(ref, ref.name or "")
                if targets:
                    return Resolution(ref, Status.RESOLVED, targets,
                                      files=tuple(sorted({(a.repo, a.path) for a in targets})))
            if found.status is Status.DANGLING and _included(ref.path):
                # An include file is shown inside the pages that include it: its
                # `#x` is theirs (opentelemetry.io's _includes/exporters/intro.md
                # links the including page's `{#otlp-dependencies}`).
                return Resolution(ref, Status.EXTERNAL, unchecked=Unchecked.INCLUDED)
            if found.status is Status.DANGLING and language_of(ref.path) not in ("markdown", "haskell"):
                # A doc comment's `[fix](#fix)` names an anchor of the page a tool
                # builds from the code (rustdoc's `#method.new`, ruff's settings
                # page: 49 false AC101), which the file does not hold. Haddock's
                # anchors are written in the source (`-- #laws#`): still checked.
                return Resolution(ref, Status.EXTERNAL, unchecked=Unchecked.BUILT_PAGE)
            return found
        if ref.kind is RefKind.LINES:  # `at :27-28` with no path named: this file
            return Resolution(ref, Status.RESOLVED, files=((ref.repo, ref.path),))
        if ref.kind is RefKind.HEADING and _HADDOCK_IDENT.fullmatch(ref.name or "") \
                and f"'{ref.name}'" in ref.text and language_of(ref.path) == "haskell":
            # Haddock's `see 'process'` links the identifier `process`: no heading
            # (it resolved, silently, to another repo's `## Process`).
            return Resolution(ref, Status.EXTERNAL, unchecked=Unchecked.HADDOCK_IDENT)
        return self._anywhere(ref)

    def _left_to_the_site(self, ref: Reference, located: Resolution) -> Resolution | None:
        """Why a path found nowhere is its site's to answer: a destination of its link
        render hook, a page it mounts from files the repo does not hold, a link its
        build checks, a site whose routes the model does not know (_model_gaps). None
        where it is not."""
        site = self._renderer(ref) if located.status is Status.DANGLING_PATH else None
        if site is not None and ref.relative and not ref.via_url \
                and ref.target_path in site.hook_destinations:
            # A destination the site's link render hook makes its own (hugoDocs'
            # `[slice](g)` is a glossary entry): its code decides where it goes.
            return Resolution(ref, Status.EXTERNAL, unchecked=Unchecked.RENDER_HOOK)
        if site is not None and site.built_urls and not ref.via_url and ref.target_repo is None \
                and located.status is Status.DANGLING_PATH and not located.files \
                and "/" not in (ref.target_path or "").strip("/") \
                and (ref.target_path or "").lower().endswith(".md"):
            # A page named alone (Hugo's `{{< ref "python-client.md" >}}`) that no
            # file here is, on a site that mounts pages from what the repo does not
            # hold (dapr's docs mount its SDKs' docs from submodules): theirs.
            return Resolution(ref, Status.EXTERNAL, unchecked=Unchecked.BUILD_OUTPUT)
        if site is not None and site.built_urls and ref.relative and not ref.via_url \
                and self._built_elsewhere(ref, site):
            # A page the site mounts from files the repo does not hold (Hugo's
            # mounts of submodules' docs copied at build time).
            return Resolution(ref, Status.EXTERNAL, unchecked=Unchecked.BUILD_OUTPUT)
        if site is not None and site.checks_links and ref.relative and not ref.via_url:
            # The site's build fails on a link to nothing (Docusaurus' default
            # `onBrokenLinks: 'throw'`): one anchorcheck cannot follow on a page of
            # a site that builds is a route it does not know (helm-www's 1,763).
            return Resolution(ref, Status.EXTERNAL, unchecked=Unchecked.SITE_BUILD)
        if site is not None and site is not ANY_SITE and ref.relative and not ref.via_url \
                and (ref.repo, site) in self._model_gaps():
            return Resolution(ref, Status.EXTERNAL, unchecked=Unchecked.SITE_GAP)
        return None

    def _missing(self, ref: Reference, located: Resolution) -> Resolution:
        """A path found nowhere that is not its site's to answer: a heading that moved,
        or why it is not judged (an upstream's or an include's path, a build's output, a
        placeholder, prose nothing confirms, a feed, an HTML page); else as located."""
        assert ref.target_path is not None  # (_resolve answered a reference with no path)
        if located.status is Status.DANGLING_PATH and ref.kind is RefKind.HEADING:
            elsewhere, _ = self._moved_to(ref.name or "")
            if elsewhere:
                return Resolution(ref, Status.WRONG_LOCATION, tuple(elsewhere))
        claim = ref.kind in (RefKind.LINES, RefKind.SYMBOL)
        if located.status is Status.DANGLING_PATH and (
                (copied_path(ref.path) and not ref.relative and claim)
                or (ref.relative and self.index.vendored_project(ref.repo, ref.path))):
            # A vendored copy's code claim names its upstream's files (valkey's
            # deps/hiredis/hiredis.c: `redis/src/util.c:string2ll()`), and a vendored
            # project's pages link its upstream's site (consul-k8s's
            # gateway-api-0.7.1-custom/geps/ link `/geps/gep-709`, a page of
            # gateway-api's MkDocs site): the upstream's to keep. (A citation of a
            # heading there is still checked when the copy is read.)
            # (anchorcheck: ignore[AC105]: examples, not citations)
            return Resolution(ref, Status.EXTERNAL, unchecked=Unchecked.UPSTREAM_COPY)
        if located.status is Status.DANGLING_PATH and ref.relative and not ref.via_url \
                and not (ref.target_path or "").startswith("/") and _included(ref.path):
            # So is its relative link: from the including page's place (knative's
            # docs/snippets/collecting-logs.md shows `system.svg` of the page
            # including it).
            return Resolution(ref, Status.EXTERNAL, unchecked=Unchecked.INCLUDED)
        if located.status is Status.DANGLING_PATH and self._generated(ref, located):
            # A path git ignores is a build's output (ruff's docs link the
            # settings.md and rules/ pages its docs build writes: 90 false AC105).
            return Resolution(ref, Status.EXTERNAL, unchecked=Unchecked.BUILD_OUTPUT)
        if located.status is Status.DANGLING_PATH and all(
                part.partition(".")[0].lower() in _PLACEHOLDERS
                for part in ref.target_path.split("/") if part not in ("", ".", "..")):
            # `../foo/bar.md` in a quoted example, `path/to/file.md`: no file meant.
            return Resolution(ref, Status.EXTERNAL, unchecked=Unchecked.PLACEHOLDER)
        if located.status is Status.DANGLING_PATH and ref.evidence.prose \
                and not self._confirmed(ref, located):
            # A path named in a sentence is a reference only where the workspace
            # says so: its folder is there, or a link names the same path.
            return Resolution(ref, Status.EXTERNAL, unchecked=Unchecked.PROSE_UNCONFIRMED)
        if located.status is Status.DANGLING_PATH and _FEED.search(ref.target_path) \
                and self._renderer(ref) is not None:
            # A site's feed or sitemap, which its build writes (knative's mkdocs rss
            # plugin: `blog/feed_rss_created.xml`; Hugo's `index.xml`).
            return Resolution(ref, Status.EXTERNAL, unchecked=Unchecked.BUILT_PAGE)
        if located.status is Status.DANGLING_PATH and ref.target_path.lower().endswith(PAGES):
            # An HTML page that is no file here is a page of generated documentation
            # (rustdoc's `../tokio/runtime/struct.Builder.html`, docutils' `cf.
            # config.html#stylesheet-path`): 26 false AC105/AC103 in tokio alone.
            return Resolution(ref, Status.EXTERNAL, unchecked=Unchecked.HTML_PAGE)
        return located

    def _folder_fragment(self, ref: Reference, located: tuple[FileId, ...]) -> Resolution:
        """A fragment of the page a folder shows, where the located paths are folders."""
        site = self._renderer(ref)
        if site is None and (ref.name or "").lower() == "readme":
            # GitHub's own anchor: the README box below a folder's listing.
            return Resolution(ref, Status.RESOLVED, files=located)
        stem = posixpath.splitext(posixpath.basename(ref.path))[0].lower()
        if site is not None and site.renderer in (MKDOCS, HUGO) and ref.relative \
                and (ref.target_path or "").strip() in ("", ".", "./") \
                and stem not in ("index", "_index", "readme"):
            # MkDocs and Hugo serve `tls/overview.md` at `tls/overview/`: its `./#x`
            # is its own fragment (traefik's docs: 4 such links).
            return self._in_files(ref, ((ref.repo, ref.path),))
        # (A folder with no README, served as a web page: its index.html, as lychee
        # and any static server read `sub_dir/#x`.)
        pages: tuple[str, ...] = (*_DIR_PAGES_GITHUB, "index.html") if site is None else \
            (*_DIR_PAGES_SITE, "index.html") if site is not ANY_SITE else ()
        if site is not None and site.languages:  # a Hugo section's `_index.en.md`
            named = self.index.name_languages(ref.repo)
            pages += tuple(f"{stem}.{language}.md" for language in site.languages if language in named
                           for stem in ("_index", "index"))
        shown = [(repo, f"{path}/{page}" if path else page) for repo, path in located for page in pages]
        page_of = next((f for f in shown if f[1] in self.index.snapshots[f[0]].paths), None)
        if page_of is None and site is not ANY_SITE and all(
                path and (site is None or path != site.root) for _, path in located):
            # A folder that shows no page has no ids: GitHub's listing has none
            # but its README box's, a site's folder with no index is no page. (A
            # site's home, `/#v060`, may be its theme's, built with no file.)
            return Resolution(ref, Status.DANGLING, files=located)
        if page_of is None:
            return Resolution(ref, Status.RESOLVED, files=located, unchecked=Unchecked.FOLDER_FRAGMENT)
        return self._in_files(ref, (page_of,))

    def _built_elsewhere(self, ref: Reference, site: Site) -> bool:
        """Whether a link leads into a folder of URLs its site builds from files the repo
        does not hold (Site.built_urls): read from the site's root (`/docs/specs/otel/x`,
        a language's `/ja/docs/...`), from the page's file or from its URL."""
        path = (ref.target_path or "").strip().partition("#")[0]
        if path.startswith("/"):
            rel = path.strip("/")
            head, _, rest = rel.partition("/")
            urls = [rel, rest] if LANGUAGE_DIR.fullmatch(head) else [rel]
        else:
            joined = (posixpath.normpath(posixpath.join(base, path))
                      for base in (posixpath.dirname(ref.path), posixpath.splitext(ref.path)[0]))
            urls = [j[len(site.root) + 1:] if site.root else j for j in joined if site.holds(j)]
        return any(url == prefix or url.startswith(prefix + "/")
                   for url in urls for prefix in site.built_urls)

    def _model_gaps(self) -> set[tuple[str, Site]]:
        """The sites whose page links anchorcheck's model of their routes mostly cannot
        follow: at least _GAP_LINKS of a site's links from its pages, and a fifth of
        them, lead to no file. A site that deploys has few broken links, so so many is
        a build the model does not know (hugoDocs' render hook: 1,025 false AC105;
        prometheus.io's Next.js routes: 264), not the site's. Its links are counted
        (site-model-gap, `check` says so once), not reported; a site with fewer is
        judged link by link. (One pass over the workspace's links, on the first
        missing page link of a site.)"""
        if self._gaps is None:
            total: Counter[tuple[str, Site]] = Counter()
            missing: Counter[tuple[str, Site]] = Counter()
            for ref in self.index.references:
                if not ref.relative or ref.via_url or not ref.target_path or ref.kind is RefKind.NOTE \
                        or language_of(ref.path) != "markdown" or test_input(ref.path):
                    continue
                site = self._renderer(ref)
                if site is None:
                    continue
                total[ref.repo, site] += 1
                located = self._located[id(ref)] = self._locate(ref)
                if isinstance(located, Resolution) and located.status is Status.DANGLING_PATH:
                    missing[ref.repo, site] += 1
            self._gaps = {key for key, n in missing.items() if n >= _GAP_LINKS and 5 * n >= total[key]}
        return self._gaps

    def _confirmed(self, ref: Reference, located: Resolution) -> bool:
        """Whether the workspace confirms that a missing path read from prose is meant
        as one: the folder it names is there (in the repo it was looked for in, or the
        citing one), or an explicit link of the workspace names the same path."""
        path = without_dots((ref.target_path or "").strip())
        folder = posixpath.dirname(path)
        places = {(repo, folder) for repo in {r for r, _ in located.files} or {ref.target_repo or ref.repo}}
        head, _, rest = folder.partition("/")
        if head in self.index.snapshots:  # a repo named by the first segment, as _in_named_repo reads it
            places |= {(head, folder), (head, rest)}
        if any(where and repo in self.index.snapshots and where in self.index.dirs(repo)
               for repo, where in places):
            return True
        return path in self._named_by_a_link()

    def _named_by_a_link(self) -> set[str]:
        if self._linked is None:
            self._linked = {without_dots(r.target_path) for r in self.index.references
                            if r.target_path and (r.relative or r.via_url)}
        return self._linked

    def _generated(self, ref: Reference, located: Resolution) -> bool:
        """Whether a missing path is one git ignores: where it was looked for, or, for
        a path looked for anywhere (a suffix; a doc comment's link, relative to a page
        built elsewhere), under some `.gitignore`'s directory."""
        if any(self.index.git_ignores(repo, path) for repo, path in located.files):
            return True
        site = self._renderer(ref)
        if site is not None and site is not ANY_SITE and not ref.via_url and any(
                self.index.unread_reason(repo, parent) == "symlink"
                for repo, path in located.files for parent in _parents(path)):
            # A site page's link under a symlinked folder, whose target the build fills in
            # (porter's docs/content/docs/operator, a clone of another repo's docs). Not
            # GitHub's: its URLs do not follow a symlinked folder (gateway-api's
            # `blob/main/conformance/reports/v1.5.1/istio-istio`, v1.5.1 a link to v1.5,
            # is a 404).
            return True
        if site is not None and site.renderer == HUGO and ref.relative and any(
                git_ignores([f.lowered() for f in self.index.ignore_files(repo)], path.lower())
                for repo, path in located.files):
            # Hugo's URLs are lower case: tekton.dev's `/docs/pipelines/install/` is a
            # page of content/en/docs/Pipelines/, which its build syncs from another repo
            # (its .gitignore names it so).
            return True
        in_page = ref.relative and language_of(ref.path) == "markdown"
        if ref.via_url or ref.target_repo is not None or in_page:
            return False  # it names one place, which was asked
        path = without_dots((ref.target_path or "").strip())
        # Under a directory whose .gitignore names a part of this path (`/rules/` for
        # `rules/x.md`), not one that ignores all it holds (`*`: any path would do).
        return bool(path) and any(ignore.directory and ignore.names(path)
                                  and not self.index.unread_reason(ref.repo, f"{ignore.directory}/.gitignore")
                                  for ignore in self.index.ignore_files(ref.repo))
