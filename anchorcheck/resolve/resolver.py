"""Resolution: each reference against the anchors and files of the whole workspace."""

from __future__ import annotations

import datetime
import functools
import posixpath
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace

from anchorcheck.config.excludes import git_ignores
from anchorcheck.extract.headings import HeadingOptions, caps_heading_text
from anchorcheck.extract.languages import TEST_DIRS, language_of
from anchorcheck.extract.locations import copied_path
from anchorcheck.extract.modules import defines_module, is_module
from anchorcheck.index.plan import is_history
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
from anchorcheck.resolve.resolution import FileId, Resolution, Status, Unchecked
from anchorcheck.resolve.routes import (
    front_matter,
)
from anchorcheck.resolve.sites import (
    ANY_SITE,
    DOCUSAURUS,
    GITBOOK,
    HUGO,
    JEKYLL,
    MDBOOK,
    MKDOCS,
    OPAQUE_ROUTES,
    SPHINX,
    VITEPRESS,
    VUEPRESS,
    Site,
    github_page,
)
from anchorcheck.resolve.sites import APP_CONTENT as _APP_CONTENT
from anchorcheck.resolve.suggest import Suggester, suggest
from anchorcheck.resolve.workspace_index import LANGUAGE_DIR, WorkspaceIndex, language_root

# What a heading's slug is made of (anchor.github_slug: word characters, dashes and
# combining marks); a fragment with anything else can name no heading, only an id
# (indexed when given by hand: markdown.py).
_SLUG_SHAPE = re.compile(r"[\w-]*")


# How many of a site's page links must lead nowhere, at the least, for its routes to be
# taken as unknown to the model (_model_gaps): fewer are judged one by one.
_GAP_LINKS = 20


def _slug_shaped(frag: str) -> bool:
    return _SLUG_SHAPE.fullmatch(frag) is not None or all(slug_char(c) and c != " " for c in frag)
# What a site or a documentation generator writes: a link to one is a page, maybe of
# a Markdown file (`guide.html` from `guide.md`), maybe generated.
_PAGES = (".html", ".htm")
# A site's feed or sitemap (`feed.xml`, `blog/feed_rss_created.xml`, `index.xml`).
_FEED = re.compile(r"(?i)(?:^|/)(?:[\w.-]*(?:feed|rss|atom|sitemap)[\w.-]*|index)\.xml$")
# Images: a fragment on one is a hook of the page's stylesheet (mkdocs-material's
# `logo.svg#only-dark`), or an SVG's view, never a heading.
# (anchorcheck: ignore[AC105]: examples, not citations)
_IMAGES = (".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".avif", ".ico", ".bmp")
# The page shown for a directory: GitHub's README below its listing; a site's index.
_DIR_PAGES_GITHUB = ("README.md", "readme.md", "Readme.md", "README.markdown", "README")
_DIR_PAGES_SITE = ("index.md", "README.md", "_index.md", "readme.md")


# GitHub's own pages of a repo, which a relative link from a file it shows reaches by
# leaving the `blob/BRANCH/` part of the URL (`../../graphs/contributors`).
_FORGE_PAGES = frozenset({"graphs", "issues", "pulls", "pull", "wiki", "actions", "releases", "discussions",
                          "security", "network", "pulse", "compare", "commits", "commit", "tags", "labels",
                          "milestones", "projects", "settings", "stargazers", "watchers", "forks", "blob",
                          "tree", "raw", "edit", "community", "contributors", "branches", "activity"})


# The templates a forge fills an issue's or pull request's body from: shown on the forge's
# site, not as a file of the repo.
_FORGE_TEMPLATE = re.compile(r"(?i)(?:^|/)(?:\.github/|docs/)?(?:pull_request_template|issue_template|"
                             r"discussion_template)(?:\.md$|/)")


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


# A Hugo site's `autoHeadingIDType` other than GitHub's: how it makes a heading's id.
_HUGO_HEADING_IDS: dict[str, Callable[[str], str]] = {
    "blackfriday": blackfriday_slug, "github-ascii": github_ascii_slug}


def _parents(path: str) -> Iterator[str]:
    """A path's folders, the deepest first (`a/b` and `a` for `a/b/c`)."""
    path = path.rstrip("/")
    while "/" in path:
        path = path.rpartition("/")[0]
        yield path


def _version_copy(path: str) -> bool:
    """Whether a site page lies in one version's folder."""
    return _VERSION_FOLDER.search(path) is not None


# A bundler's alias heading a path (`@assets/a.svg`), not a URL typed after an `@`
# (knative's `[@nealhu](@https://github.com/nealhu)`, a broken link).
_ALIAS = re.compile(r"@[A-Za-z_][\w.-]*/")
# MyST's link schemes (its docs: "Cross-references"), which read as a `repo:path`.
_MYST_SCHEMES = frozenset({"project", "path", "inv"})
# Placeholder names (`../foo/bar.md` in an example message, `path/to/file.md`).
_PLACEHOLDERS = frozenset({"foo", "bar", "baz", "qux", "path", "to", "file", "example", "my", "your", "some"})
# More files than this named as a bare `FILE:N` names: no one of them is meant.
_MANY_NAMESAKES = 5


# A Haskell identifier, maybe qualified (`Data.Map.insert`, `process`, `Step`).
_HADDOCK_IDENT = re.compile(r"(?:[A-Z][\w']*\.)*[A-Za-z_][\w']*")


@functools.cache
def _given_id(delimiters: tuple[str, str]) -> re.Pattern[str]:
    """markdown-it-attrs' id at the end of a heading, with these delimiters."""
    left, right = map(re.escape, delimiters)
    return re.compile(rf"[ \t]*{left}[^\n]*?#([\w.:-]+)[^\n]*?{right}[ \t]*$")


def caps_shaped(name: str) -> bool:
    """Whether a heading's name is written in capitals (ROLLBACK ON THE DEGRADED PATH)."""
    return name == name.upper() and any(ch.isalpha() for ch in name)


def _without_dots(path: str) -> str:
    """The path without its leading `/`, `./` and `../` parts: what is looked for where
    there is no file to be relative to."""
    path = path.lstrip("/")
    while path.startswith(("./", "../")):
        path = path.partition("/")[2]
    return path


class Resolver:
    def __init__(
        self, index: WorkspaceIndex, headings: HeadingOptions | None = None,
        ignore_targets: Sequence[str] = (), ignore_evidence: Sequence[str] = (),
    ) -> None:
        self.index = index
        # `ignore-evidence`: the syntaxes whose references are not checked ("prose": all
        # the shapes read from free prose).
        self._ignored_evidence = frozenset(ignore_evidence)
        self._linked: set[str] | None = None  # see _named_by_a_link()
        self.headings = headings or HeadingOptions()
        # `ignore-targets`: references whose target as written matches are not checked.
        self._ignored = re.compile("|".join(f"(?:{p})" for p in ignore_targets)) if ignore_targets else None
        self._heading_names: Suggester | None = None
        self._note_names: Suggester | None = None
        self._folded: defaultdict[str, list[Anchor]] | None = None  # Markdown headings by folded name
        self._github_only = False  # resolving as GitHub shows a site's page (AC108)
        self._gaps: set[tuple[str, Site]] | None = None  # see _model_gaps()
        self._post_urls: dict[FileId, str | None] = {}  # see _blog_post_url()
        # Where _model_gaps located a reference, by its id: resolve() takes it from there.
        self._located: dict[int, tuple[FileId, ...] | Resolution] = {}
        self._tops: dict[str, str] = {}  # see _top()

    def _renderer(self, ref: Reference) -> Site | None:
        """Whose rules the reference is judged by: the site that shows its Markdown
        file, or None for GitHub (a file no site shows, or a blob URL: a GitHub page);
        a code file's links by any site's (ANY_SITE: its docs may be built by any)."""
        if ref.via_url:
            return None  # a page on GitHub, whoever links it
        if language_of(ref.path) != "markdown":
            return ANY_SITE
        if self._github_only:
            return None
        return self.index.site_of(ref.repo, ref.path)

    def _suggest_heading(self, name: str) -> list[str]:
        if self._heading_names is None:
            self._heading_names = Suggester(self.index.by_name)
        return self._heading_names.suggest(name)

    def _suggest_note(self, name: str) -> list[str]:
        if self._note_names is None:
            self._note_names = Suggester(self.index.notes)
        return self._note_names.suggest(name)

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
        located = self._located.pop(id(ref), None) or self._locate(ref)  # (_model_gaps may have)
        if isinstance(located, Resolution):
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
            if located.status is Status.DANGLING_PATH and ref.target_path.lower().endswith(_PAGES):
                # An HTML page that is no file here is a page of generated documentation
                # (rustdoc's `../tokio/runtime/struct.Builder.html`, docutils' `cf.
                # config.html#stylesheet-path`): 26 false AC105/AC103 in tokio alone.
                return Resolution(ref, Status.EXTERNAL, unchecked=Unchecked.HTML_PAGE)
            return located
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
        return self._in_files(ref, located)

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
        path = _without_dots((ref.target_path or "").strip())
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
            self._linked = {_without_dots(r.target_path) for r in self.index.references
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
        path = _without_dots((ref.target_path or "").strip())
        # Under a directory whose .gitignore names a part of this path (`/rules/` for
        # `rules/x.md`), not one that ignores all it holds (`*`: any path would do).
        return bool(path) and any(ignore.directory and ignore.names(path)
                                  and not self.index.unread_reason(ref.repo, f"{ignore.directory}/.gitignore")
                                  for ignore in self.index.ignore_files(ref.repo))

    # -- locations ---------------------------------------------------------------

    def _locate(self, ref: Reference) -> tuple[FileId, ...] | Resolution:
        path = (ref.target_path or "").strip()
        if "\\" in path and ref.relative and not ref.via_url and ref.target_repo is None \
                and str(ref.text).startswith("<"):
            # A browser reads a URL's `\` as `/` (WHATWG URL), and GitHub leaves an HTML
            # tag's `src` to it: porter's README shows `<img src="docs\static\images\
            # plugins\hashicorp.png">` (OrcaSlicer's sponsors table, shown so in 2026).
            # A Markdown link's `\` GitHub escapes when it rewrites the URL: that one
            # stays broken.
            return self._locate(replace(ref, target_path=path.replace("\\", "/")))
        if ref.via_url:
            repo = self._repo_for_url(ref.target_repo or "")
            if repo is None:
                return Resolution(ref, Status.EXTERNAL, unchecked=Unchecked.OUTSIDE)
            # GitHub reads `tree/main//test/e2e/a.go` as `test/e2e/a.go` (ingress-nginx's
            # generated e2e docs link 560 files so).
            return self._in_repo(ref, repo, "/".join(part for part in path.split("/") if part))
        if ref.target_repo is not None:
            if ref.target_repo not in self.index.snapshots:
                site = self._renderer(ref)
                if site is not None and site.renderer == SPHINX and ref.target_repo in _MYST_SCHEMES:
                    # MyST's `<project:../intro.md#x>` and `<path:example.txt>` name a
                    # file of the project, relative to the page; `inv:` another
                    # project's Sphinx inventory.
                    # (anchorcheck: ignore[AC104]: examples, not citations)
                    if ref.target_repo == "inv":
                        return Resolution(ref, Status.EXTERNAL, unchecked=Unchecked.OUTSIDE)
                    return self._locate(replace(ref, target_repo=None, relative=True))
                if ref.relative:  # `[x](zotero:item)`: a link by a scheme no repo is named
                    return Resolution(ref, Status.EXTERNAL, unchecked=Unchecked.URL_SCHEME)
                return Resolution(ref, Status.UNKNOWN_REPO)
            return self._in_repo(ref, ref.target_repo, path.lstrip("/"))
        if ref.relative and _ALIAS.match(path):
            return self._aliased(ref, path)
        if ref.relative:
            site = self._renderer(ref)
            if path.startswith("/") and _FORGE_TEMPLATE.search(ref.path):
                # An issue or pull request template becomes the body of one on the
                # forge's own site, where `/OWNER/REPO/blob/main/x.md` is that URL
                # (tldr's PULL_REQUEST_TEMPLATE.md links its CONTRIBUTING.md so).
                owner, name, kind, rest = [*path.strip("/").split("/", 3), "", "", ""][:4]
                if kind in ("blob", "tree") and rest:
                    repo = self._repo_for_url(f"{owner}/{name}")
                    if repo is None:
                        return Resolution(ref, Status.EXTERNAL, unchecked=Unchecked.OUTSIDE)
                    return self._in_repo(ref, repo, rest.partition("/")[2])
                if kind in _FORGE_PAGES or not kind:
                    return Resolution(ref, Status.EXTERNAL, unchecked=Unchecked.FORGE_PAGE)
            if path.startswith("/"):
                # (A server reads `/docs//using-dex/` as `/docs/using-dex/`.)
                return self._from_a_root(ref, re.sub(r"/{2,}", "/", path.lstrip("/")), site)
            joined = posixpath.normpath(posixpath.join(posixpath.dirname(ref.path), path))
            page = None
            if site is not None and site.renderer == HUGO and not site.link_hook:
                # A Hugo page with no link render hook: its link is the browser's to
                # resolve, from the page's URL (longhorn.io's `../#installation-requirements`
                # in deploy/install/install-with-helm.md is deploy/install/: 24 false
                # AC101 of 60 in set 21), and from its file only where that finds nothing.
                page = self._from_page_url(ref, path, site)
            if page is None and not (joined.startswith("../") or joined == ".."):
                page = self._page(ref.repo, "" if joined == "." else joined, site)  # `./`: the root
            if page is not None:
                return ((ref.repo, page),)
            if _FORGE_TEMPLATE.search(ref.path):
                body = self._in_forge_body(ref, path)
                if body is not None:
                    return body
            if site is not None:  # a site's page URLs and languages
                page = self._from_page_url(ref, path, site) or self._in_default_language(ref, path, site) \
                    or self._from_routed_page(ref, path, site) or self._from_content_root(ref, path, site)
                if page is not None:
                    return ((ref.repo, page),)
                if site.renderer in OPAQUE_ROUTES and self._app_url_redirected(ref, joined, site):
                    return Resolution(ref, Status.EXTERNAL, unchecked=Unchecked.HOST_REDIRECT)
            targets = {(a.repo, a.path) for a in self.index.by_name.get(path.removeprefix("./"), ())
                       if a.kind is AnchorKind.MARKDOWN and a.slug == a.name and a.repo == ref.repo}
            if targets and site is not None and site.renderer in (SPHINX, ANY_SITE.renderer):
                # a MyST target's name (`(labels/line-length)=`), linked from any page
                return tuple(sorted(targets))
            by_label = site is not None and site.renderer == SPHINX and "." not in path.rpartition("/")[2]
            labels = self.index.sphinx_labels(ref.repo, site) if by_label and site is not None else {}
            if path.strip() in labels:
                # a reST label (`.. _api-validators:` in api.rst), which MyST links by name
                return ((ref.repo, labels[path.strip()]),)
            if language_of(ref.path) == "python":
                # The page whose mkdocstrings directive shows this module's docstrings:
                # their links are relative to it (hatch's `reference.md#...` in
                # env/plugin/interface.py is docs/plugins/environment/reference.md).
                # (Several pages may show parts of one module: the link is the one file
                # it names from all those where it names one.)
                shown = {self._page(ref.repo, posixpath.normpath(posixpath.join(posixpath.dirname(p), path)),
                                    self.index.site_of(ref.repo, p))
                         for p in self.index.rendering_pages(ref.repo, ref.path)}
                shown.discard(None)
                if len(shown) == 1:
                    return ((ref.repo, str(shown.pop())),)
            if language_of(ref.path) != "markdown":
                # A link in a docstring or doc comment is relative to the page it is
                # shown on, not to the source file (mkdocstrings: pydantic's
                # `[Alias](../concepts/alias.md)` in pydantic/aliases.py is docs/concepts/
                # alias.md): looked for as a path written without its `../`.
                bare = _without_dots(path)
                found = self._locate(replace(ref, target_path=bare, relative=False)) if bare else None
                if found is not None and not isinstance(found, Resolution):
                    return found
                if isinstance(found, Resolution) and found.status is Status.AMBIGUOUS:
                    return found.files  # (which page shows it decides: it is there)
            if site is None and joined.startswith("../../") and joined[6:].partition("/")[0] in _FORGE_PAGES:
                return Resolution(ref, Status.EXTERNAL, unchecked=Unchecked.FORGE_PAGE)
            if joined.startswith("../") or joined == "..":
                return self._in_sibling_repo(ref, joined)
            return Resolution(ref, Status.DANGLING_PATH, files=((ref.repo, joined),))
        # Outside a Markdown link a path has no file to be relative to (pydantic's
        # docstrings: `[Unions]: ../concepts/unions.md#...`): what follows is looked for.
        path = _without_dots(path)
        named = self._in_named_repo(ref, path)
        if named is not None:
            return named
        if path.lower().endswith(_PAGES):
            return Resolution(ref, Status.DANGLING_PATH)  # an HTML page: not looked for elsewhere
        matches = self.index.ending_with(path)
        if ref.kind is RefKind.LINES and matches:
            # A bare `FILE:N` is a place in the citing repo: another repo's file of that
            # name is not what it meant (glog's `server.go:1048]` pasted into a chart
            # matched helm's server.go). Named with its repo, it is looked for there.
            mine = [m for m in matches if m[0] == ref.repo]
            if not mine:
                return Resolution(ref, Status.EXTERNAL, unchecked=Unchecked.FOREIGN_LINE)
            matches = mine
        if len(matches) == 1:
            return (matches[0],)
        if len(matches) > 1:
            if ref.kind in (RefKind.HEADING, RefKind.SLUG):
                return tuple(matches)  # the heading may single one out
            local = tuple(m for m in matches if m[0] == ref.repo)
            if len(local) == 1:
                return local
            # A file beside the citing one: loki's index_set_test.go cites
            # `index_set.go:114`, one of four index_set.go, the one in its directory.
            beside = posixpath.join(posixpath.dirname(ref.path), path)
            if (ref.repo, beside) in local:
                return ((ref.repo, beside),)
            if ref.kind is RefKind.LINES and "/" not in path and len(matches) > _MANY_NAMESAKES:
                # A bare `Foo.hs:7` that 62 files are named: a compiler's output quoted
                # in a test, not a place in one of them.
                return Resolution(ref, Status.EXTERNAL, unchecked=Unchecked.COMPILER_OUTPUT)
            return Resolution(ref, Status.AMBIGUOUS, files=tuple(sorted(matches)))
        return Resolution(ref, Status.DANGLING_PATH)

    def _in_sibling_repo(self, ref: Reference, joined: str) -> tuple[FileId, ...] | Resolution:
        """A relative link that leaves its repo (`../app/README.md#health-checks` in the
        docs repo), read as GitHub Pages, MkDocs' monorepo plugin and editors read it
        where the repos are checked out side by side: the place on disk it names, in
        the workspace repo whose folder holds that place. Where none does, dangling,
        with the links from here to the repos that hold the rest of the path, if any
        (what would have resolved).
        (anchorcheck: ignore[AC105]: examples, not citations)"""
        spec = self.index.repos.get(ref.repo)
        if spec is None:
            return Resolution(ref, Status.DANGLING_PATH)
        top = self._top(ref.repo)
        place = posixpath.normpath(posixpath.join(top, joined))
        holders = [(len(self._top(name)), name) for name in self.index.repos
                   if name != ref.repo and (place + "/").startswith(self._top(name).rstrip("/") + "/")]
        if holders:
            name = max(holders)[1]
            inside = posixpath.relpath(place, self._top(name))
            found = self._page(name, "" if inside == "." else inside, None)
            if found is not None:
                return ((name, found),)
            return Resolution(ref, Status.DANGLING_PATH, files=((name, inside),))
        # The path past the folder it steps into (`appx/README.md` -> `README.md`),
        # linked from the citing file's folder to each repo that holds it.
        rest = posixpath.relpath(place, posixpath.dirname(top)).partition("/")[2]
        here = posixpath.join(top, posixpath.dirname(ref.path))
        hints = tuple(f"{posixpath.relpath(posixpath.join(self._top(name), rest), here)} (repo {name})"
                      for name in self.index.repos
                      if name != ref.repo and rest and self._page(name, rest, None) is not None)
        return Resolution(ref, Status.DANGLING_PATH, suggestions=hints)

    def _top(self, repo: str) -> str:
        """The folder a repo is checked out in, as an absolute path (a bare repo's
        own folder)."""
        if repo not in self._tops:
            self._tops[repo] = str(self.index.repos[repo].path.resolve())
        return self._tops[repo]

    def _aliased(self, ref: Reference, path: str) -> tuple[FileId, ...] | Resolution:
        """A path through a bundler's alias (`@snippets/x.sh`, `@assets/a.svg`: Vite's,
        VuePress', tsconfig's `paths`), which the site's config maps to a folder: the
        folder of the alias's name that holds the rest (nushell.sh's snippets/, tauri's
        src/assets/), missing where that folder lacks it; with no such folder, counted
        (path-alias), as the mapping is code."""
        alias, _, rest = path.partition("/")
        name = alias[1:]
        folders = sorted(d for d in self.index.dirs(ref.repo) if d == name or d.endswith("/" + name))
        for folder in folders:
            if self.index.has_file(ref.repo, posixpath.join(folder, rest)):
                return ((ref.repo, posixpath.join(folder, rest)),)
        if folders:  # (the folder is there, the file is not)
            missing = posixpath.join(folders[0], rest)
            return Resolution(ref, Status.DANGLING_PATH, files=((ref.repo, missing),))
        return Resolution(ref, Status.EXTERNAL, unchecked=Unchecked.ALIAS)

    def _in_named_repo(self, ref: Reference, path: str) -> tuple[FileId, ...] | Resolution | None:
        """A path that may name a repo by its first segment, tried in order: as a path
        in the citing repo; as a full path in the repo its first segment names (a chart
        repo `client` keeps its chart in `client/`: `client/templates/x.yaml`); with that
        segment stripped (`client/templates/x.yaml` for the repo's `templates/x.yaml`).
        The first hit wins; where the named repo holds both readings, neither is more
        likely meant: AMBIGUOUS, with both (AC103). None: look in every repo."""
        if self.index.has_file(ref.repo, path):
            return ((ref.repo, path),)
        head, _, rest = path.partition("/")
        if not rest or head not in self.index.snapshots:
            return None
        readings = tuple((head, p) for p in (path, rest) if self.index.has_file(head, p))
        if len(readings) > 1:
            return Resolution(ref, Status.AMBIGUOUS, files=readings)
        return readings or None

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

    def _in_forge_body(self, ref: Reference, path: str) -> tuple[FileId, ...] | Resolution | None:
        """A relative link in an issue or pull request template that does not resolve
        from the file: the body the template fills is shown at `/OWNER/REPO/pull/N`, from
        which `../blob/master/CONTRIBUTING.md` is that file and `../security/policy` the
        repo's security page (ory's templates). None when it leads nowhere from there
        either."""
        url = posixpath.normpath(posixpath.join("/o/r/pull", path.partition("#")[0]))  # (from /o/r/pull/1)
        if not url.startswith("/o/r/"):
            return None
        kind, _, rest = url[len("/o/r/"):].partition("/")
        if kind in ("blob", "tree") and "/" in rest:
            found = self._page(ref.repo, rest.partition("/")[2], None)
            return ((ref.repo, found),) if found is not None else None
        if kind in _FORGE_PAGES and kind != "pull":
            return Resolution(ref, Status.EXTERNAL, unchecked=Unchecked.FORGE_PAGE)
        return None

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
        elif f".{ext.lower()}" in _PAGES:
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

    def _in_repo(self, ref: Reference, repo: str, path: str) -> tuple[FileId, ...] | Resolution:
        if self.index.has_file(repo, path):
            return ((repo, path.rstrip("/")),)
        return Resolution(ref, Status.DANGLING_PATH, files=((repo, path),))

    def _repo_for_url(self, owner_name: str) -> str | None:
        """The workspace repo a blob URL's `owner/name` is: the one whose `url` says
        so, else the one whose git remote `origin` does, else the repo of that name
        unless its `url` or origin names another (prometheus-community's helm-charts,
        checked as `charts`, links to helm/charts, which is not in the workspace)."""
        key = owner_name.lower()
        if key in self.index.url_slugs:
            return self.index.url_slugs[key]
        homes = self.index.homes()
        found = next((repo for repo, home in homes.items() if home == key), None)
        if found is not None:
            return found
        name = key.rsplit("/", 1)[-1]
        return next((r for r in self.index.snapshots if r.lower() == name and homes.get(r) is None), None)

    # -- anchors -----------------------------------------------------------------

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
            if not hits and all(path.lower().endswith(_PAGES) for _, path in files):
                # An HTML file's ids (`<p id="a-word">`), read when one is linked.
                hits = [a for f in files for a in self.index.html_ids(*f) if a.slug == name]
            if not hits and len(files) == 1:
                hits = [a for a in self.index.shortcode_ids(files[0]) if a.slug == name]
        if len({(a.repo, a.path) for a in hits}) == 1:
            return Resolution(ref, Status.RESOLVED, tuple(hits), files=((hits[0].repo, hits[0].path),))
        if hits:
            return Resolution(ref, Status.AMBIGUOUS, tuple(hits), files=files)
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

    def _moved_to(self, name: str) -> tuple[list[Anchor], list[str]]:
        """Where a heading cited in a file that lacks it is instead, and the names of
        near misses. A caps heading is only ever a caps heading: a Markdown heading
        whose text matches it but for case (a backend doc's `## Rollback on the
        degraded path`) is another page's title, not where it moved; at most a
        did-you-mean."""
        found = self._named(name)
        if not caps_shaped(name):
            return found, []
        moved = [a for a in found if a.kind is not AnchorKind.MARKDOWN or a.name == name]
        near = sorted({a.name for a in found if a not in moved})
        return moved, near

    def _named(self, name: str) -> list[Anchor]:
        """The anchors named `name`: caps headings and Notes as written, Markdown
        headings in any case (prose titles: tokio cites its `//! # Deadlock safety` as
        'deadlock safety'; GitHub's fragments ignore case too)."""
        exact = list(self.index.by_name.get(name, []))
        if self._folded is None:
            self._folded = defaultdict(list)
            for key, anchors in self.index.by_name.items():
                for a in anchors:
                    if a.kind is AnchorKind.MARKDOWN:
                        self._folded[key.casefold()].append(a)
        return exact + [a for a in self._folded.get(name.casefold(), ()) if a.name != name]

    def _anywhere(self, ref: Reference) -> Resolution:
        """A quoted heading with no location: resolves anywhere in the workspace,
        preferring the citing file, then the citing repo."""
        name = ref.name or ""
        found = self._named(name)
        if not found:
            # A section of its own file, named in sentence case (stb_ds.h's "see
            # 'Compile-time options'" for its `COMPILE-TIME OPTIONS`).
            found = [a for a in self.index.by_file.get((ref.repo, ref.path), [])
                     if a.kind is AnchorKind.CAPS and a.name.casefold() == name.casefold()]
        for scope in (
            [a for a in found if (a.repo, a.path) == (ref.repo, ref.path)],
            [a for a in found if a.repo == ref.repo],
            found,
        ):
            if len(scope) == 1:
                return Resolution(ref, Status.RESOLVED, tuple(scope))
            if len(scope) > 1:
                files = {(a.repo, a.path) for a in scope}
                if (len(files) > 1 or all(is_history(path) for _, path in files)) \
                        and all(a.kind is AnchorKind.MARKDOWN for a in scope):
                    # A title many documents share, named with no location ('Appears
                    # under "Features" header': vue's 100 changelog sections, vitepress's
                    # in its one CHANGELOG.md), is prose about such sections, not a
                    # citation of one.
                    return Resolution(ref, Status.EXTERNAL, unchecked=Unchecked.SHARED_TITLE)
                return Resolution(ref, Status.AMBIGUOUS, tuple(scope))
        suggestions = self._suggest_heading(name)
        # Quoted prose ("see 'Effective Java'") is not a citation: only a heading-shaped
        # quote, or one close to a real heading, is reported as dangling. A quoted word
        # alone is most often code or a word (Haddock's `see 'Step'` links the type
        # Step; mypy's `see the "miscellaneous" sections`, its option groups): close to
        # a heading ("STEPS", "Miscellaneous") it is no evidence of a citation.
        if (suggestions and len(name.split()) > 1) or caps_heading_text(name, self.headings) == name:
            return Resolution(ref, Status.DANGLING, suggestions=tuple(suggestions))
        return Resolution(ref, Status.EXTERNAL, unchecked=Unchecked.QUOTED_PROSE)

    @staticmethod
    def _note_in(anchor: Anchor, written: str) -> bool:
        """Whether a Note defined at `anchor` is in the place written after it."""
        if is_module(written):
            return defines_module(anchor.path, written)
        path = written.removeprefix("./")
        return anchor.path == path or anchor.path.endswith("/" + path)

    def _module_here(self, module: str) -> bool:
        """Whether some repo of the workspace holds the source of this module."""
        base = module.rpartition(".")[2]
        return any(defines_module(path, module) for _, path in self.index.ending_with_stem(base))

    def _note(self, ref: Reference) -> Resolution:
        name = ref.name or ""
        found = self.index.notes.get(name)
        if not found and ref.target_path and is_module(ref.target_path) \
                and not self._module_here(ref.target_path):
            # `Note [async] in GHC.IO.Handle.Internals`: a module of another project
            # (base's), whose Notes are its own to check.
            return Resolution(ref, Status.EXTERNAL, unchecked=Unchecked.FOREIGN_MODULE)
        if found and ref.target_path and not any(self._note_in(a, ref.target_path) for a in found):
            # `Note [X] in typecheck/TcRnDriver.hs`, `in MkId`: the Note is elsewhere (a
            # module renamed, a Note moved), or the place names no file at all.
            return Resolution(ref, Status.WRONG_LOCATION, tuple(found))
        if found:
            return Resolution(ref, Status.RESOLVED, tuple(found))
        titled = self.index.titled_notes(ref.repo).get(name)
        if titled is not None:
            return Resolution(ref, Status.RESOLVED, (titled,))
        if copied_path(ref.path):
            # A copy of another project's code cites its upstream's Notes (Clash's
            # `src-bin-9.10.1/` copy of GHCi cites GHC's): not ours to check.
            return Resolution(ref, Status.EXTERNAL, unchecked=Unchecked.UPSTREAM_COPY)
        return Resolution(ref, Status.DANGLING, suggestions=tuple(self._suggest_note(name)))
