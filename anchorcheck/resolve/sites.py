"""Which renderer shows a Markdown page: a documentation site, or GitHub.

A link is right or wrong only for the renderer that shows the page it is on. MkDocs,
Hugo, VitePress, Docusaurus and Sphinx (MyST) sites each have rules GitHub has not:
their own heading ids (`build.target` is `#build-target` on VitePress and
`#buildtarget` on GitHub), page URLs (`../install/` from `guide/setup.md` on Hugo),
extension-less links, a `public/` or `static/` folder served at the root, translated
pages falling back to English, redirects. So each repo's sites are found from their
config files, and every Markdown file under a site's content directory is judged by
that site's rules; every other Markdown file by GitHub's. Code files (docstrings, doc
comments) are shown by whatever documentation tool builds them: any site rule holds
there (ANY_SITE).

Found from the tree: `mkdocs.yml` (its `docs_dir`, default `docs`, and the
mkdocs-redirects plugin's `redirect_maps`), Hugo's `hugo.toml|yaml|json` or a
`config.toml|yaml` beside a `content/` folder (its `contentDir`), a `.vitepress/`
folder's config (its `srcDir`), `docusaurus.config.*` (`docs/`, `blog/`, `src/pages/`),
a Sphinx `conf.py` (its folder), mdBook's `book.toml` (its `src`), and Jekyll's
`_config.yml` (its folder, with its collections and permalink style: resolve/routes.py
builds the URLs). `[[site]]` tables in the workspace config declare one the detection
misses. The configs' keys are read from their text by resolve/site_config.py.
"""

from __future__ import annotations

import functools
import posixpath
import re
from collections.abc import Callable, Iterable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field, replace
from typing import Any

from anchorcheck.resolve.routes import JekyllConfig, hugo_permalinks, read_structured
from anchorcheck.resolve.site_config import (
    JS_KEY,
    TOML_KEY,
    YAML_KEY,
    braced,
    join,
    js_block,
    js_list,
    json_strings,
    key_value,
    mapping,
    mkdocs_config,
    mkdocs_redirects,
    top_level,
)

MKDOCS = "mkdocs"
HUGO = "hugo"
VITEPRESS = "vitepress"
DOCUSAURUS = "docusaurus"
SPHINX = "sphinx"
JEKYLL = "jekyll"
# Astro: its content collections (`src/content/`) are routed by code (`src/pages/[...slug].astro`),
# which cannot be read: a page URL into it is counted, not judged; `public/` is served as is.
ASTRO = "astro"
# Web frameworks whose page URLs are code too (prometheus.io: Next.js' `src/app/docs/
# [...slug]/page.tsx` serves docs/ and blog/ and other repos' docs fetched at build
# time): their whole app folder is the site; its static folder is served at the root.
NEXT = "nextjs"
NUXT = "nuxt"
GATSBY = "gatsby"
SVELTEKIT = "sveltekit"
REMIX = "remix"
ELEVENTY = "eleventy"
# Config file stem -> (framework, the folders it serves as they are).
_CODE_ROUTED_CONFIGS = {
    "next.config": (NEXT, ("public",)), "nuxt.config": (NUXT, ("public", "static")),
    "gatsby-config": (GATSBY, ("static",)), "svelte.config": (SVELTEKIT, ("static",)),
    "remix.config": (REMIX, ("public",)), "eleventy.config": (ELEVENTY, ()), ".eleventy": (ELEVENTY, ()),
}
_JS_CONFIG = re.compile(r"(?P<stem>[\w.-]+?)\.(?:[cm]?js|[cm]?ts)")
# Documentation generators whose URLs and ids anchorcheck does not model: their folder is
# a site (which keeps a page URL into it from being read as a file of GitHub's), its
# links to files are judged as files, its page URLs counted, and its folder is held to
# the site-model-gap rule.
VUEPRESS = "vuepress"  # `.vuepress/config.js`: the folder holding .vuepress/, its public/
DOCSIFY = "docsify"  # an `index.html` that loads docsify: its folder
ZOLA = "zola"  # `config.toml` with `base_url` beside content/: content/, its static/
QUARTO = "quarto"  # `_quarto.yml`: its folder
GITBOOK = "gitbook"  # `.gitbook.yaml`: its `root:` folder
HEXO = "hexo"  # `_config.yml` beside scaffolds/: source/
MINTLIFY = "mintlify"  # `mint.json`, or a `docs.json` of Mintlify's: its folder
RETYPE = "retype"  # `retype.yml`: its `input:` folder
# Sites whose page URLs anchorcheck cannot derive: routed by code, or by a generator it
# does not model.
OPAQUE_ROUTES = frozenset({ASTRO, NEXT, NUXT, GATSBY, SVELTEKIT, REMIX, ELEVENTY, VUEPRESS, DOCSIFY, ZOLA,
                           QUARTO, GITBOOK, HEXO, MINTLIFY, RETYPE})
# mdBook: `book.toml`'s `[book] src` (default `src`) holds the pages and SUMMARY.md, the
# book's table of contents, where `[Title]()` is a draft chapter (listed, not linked).
MDBOOK = "mdbook"
RENDERERS = (MKDOCS, HUGO, VITEPRESS, DOCUSAURUS, SPHINX, JEKYLL, ASTRO, MDBOOK, NEXT, NUXT, GATSBY,
             SVELTEKIT, REMIX, ELEVENTY, VUEPRESS, DOCSIFY, ZOLA, QUARTO, GITBOOK, HEXO, MINTLIFY, RETYPE)
# Folders and keys only a Jekyll site's source has beside its `_config.yml` (Jupyter
# Book also names its config `_config.yml`, beside a `_toc.yml`).
_JEKYLL_DIRS = ("_layouts", "_includes", "_posts", "_data", "_sass", "_drafts")
_JEKYLL_KEYS = re.compile(r"(?m)^(?:collections|permalink|baseurl|theme|remote_theme|plugins|gems|kramdown|"
                          r"markdown|exclude|include|defaults)\s*:")


@dataclass(frozen=True, slots=True)
class Site:
    """A documentation site built from a repo: its renderer, the folder its pages come
    from ("" for the repo's root), the config that says so, and the redirects it
    declares (old page path -> new, both relative to `root`)."""

    renderer: str
    root: str
    config: str = ""
    redirects: Mapping[str, str] = field(default_factory=dict, hash=False, compare=False)
    # pymdownx.tabbed's `combine_header_slug`: a tab's id starts with its heading's.
    tab_slugs: bool = False
    # Folders a site serves at its root (Docusaurus' `staticDirectories`).
    static: tuple[str, ...] = ()
    # The URL its pages are served under (Docusaurus' `routeBasePath`: `docs` by default).
    base_url: str = ""
    # markdown-it-attrs' delimiters where a VitePress config changes them from `{` `}`.
    attrs: tuple[str, str] | None = None
    # A Jekyll site's collections and permalink style (its URLs: resolve/routes.py).
    jekyll: JekyllConfig | None = field(default=None, hash=False, compare=False)
    # A Hugo site's own link render hook (`layouts/_markup/render-link.html`): the
    # destinations its code treats as its own (hugoDocs' `eq $u.String "g"`: `[slice](g)`
    # is a glossary entry), and whether it looks paths up with GetPage.
    hook_destinations: tuple[str, ...] = ()
    get_page: bool = False
    # Whether it has one at all: without one, Hugo writes a link as it is, and the
    # reader's browser resolves it from the page's URL (`guide/setup/` for setup.md).
    link_hook: bool = False
    # Goldmark's `autoDefinitionTermID`: each definition list term has an id.
    term_ids: bool = False
    # A Docusaurus locale's folder: the content folder it translates, where a page it
    # lacks is taken from (`versioned_docs/version-3` for `i18n/de/.../version-3`).
    translates: str = ""
    # Whether the site's build fails on a link to no page or file (Docusaurus'
    # `onBrokenLinks: 'throw'`, its default; VitePress' dead-link check, on unless
    # `ignoreDeadLinks: true`; MkDocs' `strict: true`): such a link cannot be on a site
    # that deploys, so one anchorcheck cannot follow is its model's gap, not the site's.
    checks_links: bool = False
    # URL folders a Hugo site mounts from files the repo does not hold (opentelemetry.io's
    # `tmp/otel/specification` -> `content/docs/specs/otel`, copied from submodules at
    # build time): its pages there are a build's.
    built_urls: tuple[str, ...] = ()
    # A Hugo site's `permalinks`: section -> URL pattern (linkerd.io's blog posts at
    # `/:year/:month/:day/:slug/`).
    permalinks: tuple[tuple[str, str], ...] = ()
    # A Hugo site's languages, its `defaultContentLanguage` (`en` unless set) first,
    # then those of `[languages.x]`: a page translated by its file's name is
    # `about.en.md`, served as `about/` (the relearn theme's exampleSite:
    # `_index.en.md` in each section).
    languages: tuple[str, ...] = ()
    # A Hugo site's `autoHeadingIDType` (goldmark's heading ids): "github" (its default),
    # "github-ascii" or "blackfriday".
    heading_ids: str = ""
    # A Hugo site's pages mounted from one file each: (the page's path under the
    # content folder, the file it is), buildpacks.io's `.common/concepts/buildpack.md`
    # shown as three sections' `concepts/buildpack.md`.
    mounted_pages: tuple[tuple[str, str], ...] = ()
    # A MkDocs Material site's blog plugin: its folder under the docs (`blog`), whose
    # `posts/` are served at `blog/YYYY/MM/DD/slug/` by their date; "" without one, or
    # where the config changes the posts' URL format.
    blog_dir: str = ""
    # More URL bases a Docusaurus docs folder is served under: the current version's
    # `docs/next` (where versions.json lists released versions, the latest one is at
    # `docs/`).
    aliases: tuple[str, ...] = ()

    def holds(self, path: str) -> bool:
        return not self.root or path.startswith(self.root + "/")

    @property
    def name(self) -> str:
        return f"{self.renderer} site {self.config or self.root or '.'}"


# A code file's links: any site's rules may be the ones that hold.
ANY_SITE = Site("any", "")

_CONFIG_NAMES = {
    "mkdocs.yml", "mkdocs.yaml", "hugo.toml", "hugo.yaml", "hugo.yml", "hugo.json",
    "config.toml", "config.yaml", "config.yml", "config.json", "conf.py",
    "docusaurus.config.js", "docusaurus.config.ts", "docusaurus.config.mjs", "docusaurus.config.cjs",
    "_config.yml", "_config.yaml",
    "astro.config.mjs", "astro.config.js", "astro.config.ts", "astro.config.mts", "astro.config.cjs",
    "book.toml", "_quarto.yml", "_quarto.yaml", ".gitbook.yaml", "mint.json", "docs.json", "retype.yml",
    "retype.yaml", "index.html",
    *(f"{stem}.{ext}" for stem in _CODE_ROUTED_CONFIGS for ext in ("js", "mjs", "cjs", "ts", "mts")),
}
# `.vitepress/config.ts`, or a config split into `.vitepress/config/index.ts` and its
# siblings (pinia's: config/shared.ts holds its markdown options).
_VITEPRESS_CONFIG = re.compile(r"(?:^|/)\.v(?:ite|ue)press/config(?:/index)?\.(?:[cm]?js|[cm]?ts)$")
# A destination a link render hook compares with a literal: its own (`eq $u.String "g"`).
_HOOK_LITERAL = re.compile(r"""\beq\s+[$.\w]+\s+["']([^"'\s]+)["']""")
# A Docusaurus locale's docs (current or a version's) or blog folder, under `i18n/`.
_DOCUSAURUS_I18N = re.compile(r"(?P<locale>[^/]+)/docusaurus-plugin-content-"
                              r"(?:(?P<docs>docs)(?P<id>-[^/]+)?/(?P<version>current|version-[^/]+)"
                              r"|(?P<blog>blog)(?P<bid>-[^/]+)?)")
_IGNORE_DEAD_LINKS = re.compile(r"\bignoreDeadLinks['\"]?\s*:\s*true\b")
_STRICT = re.compile(r"(?m)^strict\s*:\s*true\b")
_NOT_FOUND_IGNORED = re.compile(r"(?m)^\s+(?:not_found|unrecognized_links)\s*:\s*ignore\b")
# A file of Hugo's config directory (`config/_default/hugo.yaml`, `config/production/...`).
_HUGO_CONFIG_DIR = re.compile(r"(?:^|/)config/[^/]+/(?:hugo|config)\.(?:toml|ya?ml|json)$")
# Every `contentDir` a Hugo config gives, its languages' too (not a commented one).
_HUGO_CONTENT_DIR = re.compile(r"""(?m)^[ \t]*['"]?contentDir['"]?\s*[=:]\s*['"]?([^'"#\s]+)""")
# A module mount: its source and its target (`source: content/en` / `target: content`).
_HUGO_MOUNT = re.compile(r"""(?m)^[ \t]*(?:-[ \t]*)?['"]?source['"]?\s*[=:]\s*['"]?([^'"#\s]+)['"]?[ \t]*\n"""
                         r"""[ \t]*['"]?target['"]?\s*[=:]\s*['"]?([^'"#\s]+?)/?['"]?[ \t]*$""")
# Zola's config: `base_url` (Hugo's is `baseURL`).
_ZOLA = re.compile(r"(?m)^base_url\s*=")
# `useEmbedded` set to anything but its default ("auto") or "always" for link hooks.
_USE_EMBEDDED_HOOK = re.compile(r"""(?mi)^\s*['"]?useEmbedded['"]?\s*[=:]\s*['"]?(?:never|fallback)""")
_HEADING_ID_TYPE = re.compile(r"""(?mi)^\s*['"]?autoHeadingIDType['"]?\s*[=:]\s*['"]?([\w-]+)""")
_TERM_IDS = re.compile(r"(?mi)^\s*autoDefinitionTermID\s*[=:]\s*true\b")
_TOML_SECTION = re.compile(r"(?ms)^\[book\][^\n]*\n.*?(?=^\[|\Z)")  # mdBook's `[book]` table
# A MkDocs config under another name, built with `mkdocs build -f` (textual's
# mkdocs-online.yml and mkdocs-offline.yml, each `INHERIT: mkdocs-common.yml`).
_MKDOCS_VARIANT = re.compile(r"mkdocs[-_.][\w.-]+\.ya?ml")
_MKDOCS_BLOG = re.compile(r"(?m)^[ \t]+(?:-[ \t]*)?(?:material/)?blog[ \t]*:?[ \t]*$")


def candidates(paths: Iterable[str]) -> list[str]:
    """The paths that may be a site's config. (Asked of every path of every repo: the
    name by slicing, and the pattern only where `.vitepress/` is, a quarter of the
    time of posixpath's basename and a search of every path.)"""
    return sorted(p for p in paths if (p[p.rfind("/") + 1:] in _CONFIG_NAMES
                                       and (not p.endswith("index.html") or p.count("/") <= 1))
                  or ((".vitepress/" in p or ".vuepress/" in p) and _VITEPRESS_CONFIG.search(p))
                  or ("mkdocs" in p and _MKDOCS_VARIANT.fullmatch(p[p.rfind("/") + 1:]) is not None))


def detect(paths: Iterable[str], read: Callable[[str], str | None], dirs: set[str]) -> tuple[Site, ...]:
    """The sites a tree builds: `paths` its files, `read` a file's text (None when it
    cannot be read), `dirs` its directories."""
    found: list[Site] = []
    known = paths if isinstance(paths, AbstractSet) else frozenset(paths)
    for config in candidates(known):
        where = posixpath.dirname(config)
        base = posixpath.basename(config)
        if _VITEPRESS_CONFIG.search(config) and "/.vuepress/" in f"/{config}":
            vuepress = posixpath.dirname(where) if where.endswith("/config") else where
            site_dir = posixpath.dirname(vuepress)
            found.append(Site(VUEPRESS, site_dir, config, static=(join(vuepress, "public"),)))
        elif _VITEPRESS_CONFIG.search(config):
            _add_vitepress_site(config, where, read, known, found)
        elif base.startswith("mkdocs"):
            _add_mkdocs_site(config, where, read, known, found)
        elif base == "config.toml" and join(where, "content") in dirs and _ZOLA.search(read(config) or ""):
            found.append(Site(ZOLA, join(where, "content"), config, static=(join(where, "static"),)))
        elif base == "index.html":
            if "docsify" in (read(config) or ""):
                found.append(Site(DOCSIFY, where, config))
        elif base in ("_quarto.yml", "_quarto.yaml"):
            found.append(Site(QUARTO, where, config))
        elif base == ".gitbook.yaml":
            found.append(Site(GITBOOK, join(where, key_value(YAML_KEY, "root", read(config))), config))
        elif base in ("retype.yml", "retype.yaml"):
            found.append(Site(RETYPE, join(where, key_value(YAML_KEY, "input", read(config))), config))
        elif base == "mint.json" or (base == "docs.json" and "mintlify" in (read(config) or "")):
            found.append(Site(MINTLIFY, where, config))
        elif base.startswith("_config.") and join(where, "scaffolds") in dirs:
            found.append(Site(HEXO, join(where, "source"), config))  # (a Hexo blog's, not Jekyll's)
        elif base.startswith("hugo.") or (base.startswith("config.") and join(where, "content") in dirs) \
                or (base.startswith("config.") and _HUGO_CONFIG_DIR.search(config)):
            _add_hugo_sites(config, where, base, read, known, dirs, found)
        elif base.startswith("docusaurus.config."):
            _add_docusaurus_sites(config, where, read, dirs, found)
        elif base.startswith("astro.config."):
            public = (join(where, "public"),)
            found.append(Site(ASTRO, join(where, "src/content"), config, static=public))
            found.append(Site(ASTRO, join(where, "src/pages"), config, static=public))
        elif (app := _JS_CONFIG.fullmatch(base)) is not None and app.group("stem") in _CODE_ROUTED_CONFIGS:
            renderer, statics = _CODE_ROUTED_CONFIGS[app.group("stem")]
            if renderer == SVELTEKIT and "kit" not in (read(config) or ""):
                continue  # a Svelte app's config without SvelteKit: no routes of its own
            found.append(Site(renderer, where, config, static=tuple(join(where, d) for d in statics)))
        elif base.startswith("_config."):
            text = read(config) or ""
            if join(where, "_toc.yml") in known or not (
                    any(join(where, d) in dirs for d in _JEKYLL_DIRS) or _JEKYLL_KEYS.search(text)):
                continue
            found.append(Site(JEKYLL, where, config, jekyll=JekyllConfig.parse(text)))
        elif base == "book.toml":
            book = _TOML_SECTION.search(read(config) or "")
            src = key_value(TOML_KEY, "src", book.group(0)) if book is not None else None
            found.append(Site(MDBOOK, join(where, src or "src"), config))
        elif base == "conf.py":
            text = read(config) or ""
            if "extensions" in text or "sphinx" in text.lower():
                found.append(Site(SPHINX, where, config))
    return tuple(found)


def _add_vitepress_site(config: str, where: str, read: Callable[[str], str | None],
                        known: AbstractSet[str], found: list[Site]) -> None:
    """The VitePress site of a `.vitepress/` config (one file, or a folder of them):
    its pages' folder (`srcDir`), its markdown-it-attrs delimiters, its dead-link check."""
    split = where.endswith("/config")
    vitepress = posixpath.dirname(where) if split else where
    site_dir = posixpath.dirname(vitepress)  # the folder holding .vitepress/
    scripts = (".js", ".ts", ".mjs", ".mts", ".cjs", ".cts")
    texts = [read(p) or "" for p in sorted(known) if posixpath.dirname(p) == where
             and p.endswith(scripts)] if split else [read(config) or ""]
    script = "\n".join(texts)
    src = key_value(JS_KEY, "srcDir", script)
    # markdown-it-attrs' delimiters, when the config changes them (pinia's
    # `%{` and `}%`: `### StateTree %{#statetree}%`).
    left, right = key_value(JS_KEY, "leftDelimiter", script), key_value(JS_KEY, "rightDelimiter", script)
    found.append(Site(VITEPRESS, join(site_dir, src), config,
                      attrs=(left or "{", right or "}") if left or right else None,
                      checks_links=_IGNORE_DEAD_LINKS.search(script) is None))


def _add_mkdocs_site(config: str, where: str, read: Callable[[str], str | None],
                     known: AbstractSet[str], found: list[Site]) -> None:
    """The MkDocs site of a config (its `docs_dir`, redirects, tabs' slugs, strict
    build and blog), or what the config adds to the site of a docs folder another
    config already builds."""
    text = mkdocs_config(config, read, known)
    if text is None:
        return
    docs = key_value(YAML_KEY, "docs_dir", text) or "docs"
    tabs = bool(text and re.search(r"combine_header_slug:\s*true", text))
    strict = bool(text and _STRICT.search(text) and not _NOT_FOUND_IGNORED.search(text))
    blog = "" if not text or _MKDOCS_BLOG.search(text) is None or "post_url_" in text \
        else key_value(YAML_KEY, "blog_dir", text) or "blog"
    same = next((i for i, s in enumerate(found)
                 if s.renderer == MKDOCS and s.root == join(where, docs)), None)
    if same is not None:
        # Another config's build of the same folder (textual's mkdocs-offline.yml
        # and mkdocs-online.yml, mkdocs.insiders.yml): a page is served by either,
        # so what either build adds holds (the online build's blog).
        found[same] = replace(found[same], blog_dir=found[same].blog_dir or blog.strip("./"),
                              redirects={**mkdocs_redirects(text), **found[same].redirects})
        return
    found.append(Site(MKDOCS, join(where, docs), config, mkdocs_redirects(text), tabs,
                      checks_links=strict, blog_dir=blog.strip("./")))


def _add_hugo_sites(config: str, where: str, base: str, read: Callable[[str], str | None],
                    known: AbstractSet[str], dirs: set[str], found: list[Site]) -> None:
    """A Hugo config's sites: each content folder, and each folder of the repo mounted
    or copied into the content, served by the same rules (its static folders, link
    render hook, permalinks, languages, heading ids)."""

    def _holds(path: str) -> bool:
        return path in dirs or path in known
    configured = _hugo_config_files(config, where, read, known)
    if configured is None:
        return
    where, files = configured
    text = "\n".join(files.values())
    settings = read_structured(config, files[config])
    permalinks, default, languages = _hugo_permalinks_and_languages(config, settings, files)
    syntax = TOML_KEY if base.endswith(".toml") else JS_KEY if base.endswith(".json") else YAML_KEY
    if base.startswith("config.") and "baseURL" not in text and "baseurl" not in text:
        return  # a config.toml beside content/ that is no Hugo site's
    statics = _hugo_statics(where, syntax, text, settings)
    # Its link render hook, its own or its theme's (`themes/x/layouts/...`).
    hooks = "".join(read(p) or "" for p in sorted(known) if p.endswith("/_markup/render-link.html")
                    and (not where or p.startswith(where + "/")) and "/layouts/" in f"/{p}")
    # Mounts into the content from what the repo does not hold: built pages.
    mounts = _HUGO_MOUNT.findall(text)
    outside = tuple(sorted({target.removeprefix("content/") for source, target in mounts
                            if target.startswith("content/") and not _holds(join(where, source))}))
    pages = tuple((target.removeprefix("content/"), join(where, source)) for source, target in mounts
                  if target.startswith("content/") and join(where, source) in known)
    # Without a hook of its own, a multilingual site on one host gets Hugo's
    # embedded one (`renderHooks.link.useEmbedded`, "auto" by default), which
    # looks a link up with GetPage, from the page then the content root (kueue's
    # `docs/tasks/run/multikueue/deployment` from docs/concepts/multikueue.md).
    language_tables = {str(code).lower(): t for code, t in mapping(settings.get("languages")).items()
                       if isinstance(t, Mapping)}
    tables = list(language_tables.values())
    one_host = not any("baseURL" in t or "baseurl" in t for t in tables)
    embedded = not hooks and len(tables) > 1 and one_host and _USE_EMBEDDED_HOOK.search(text) is None
    hugo = functools.partial(Site, HUGO, config=config, static=statics, mounted_pages=pages,
                             built_urls=outside, permalinks=tuple(sorted(permalinks.items())),
                             hook_destinations=tuple(sorted(set(_HOOK_LITERAL.findall(hooks)))),
                             get_page="GetPage" in hooks or embedded,
                             link_hook=bool(hooks) or embedded,
                             languages=(default, *sorted(languages - {default})),
                             term_ids=_TERM_IDS.search(text) is not None,
                             heading_ids=(m.group(1).lower() if (m := _HEADING_ID_TYPE.search(text))
                                          else ""))
    # Its content folders: the folders its module mounts as content (which
    # replace the default), else each language's `contentDir` (glossary's
    # content/en, content/bn, ...), else `content`.
    mounted = [source for source, target in mounts if target == "content"]
    folders = mounted or _HUGO_CONTENT_DIR.findall(text) or ["content"]
    # A language's own content folder is served under its code, lower-cased
    # (kueue's `[languages.zh-CN] contentDir = "content/zh-CN"`: /zh-cn/docs/),
    # the default language's at the root unless defaultContentLanguageInSubdir.
    in_subdir = settings.get("defaultContentLanguageInSubdir") is True
    prefixes = {str(table.get("contentDir")).strip("/"): code
                for code, table in language_tables.items()
                if table.get("contentDir") and (in_subdir or code != default)}
    for folder in dict.fromkeys(folders):
        found.append(hugo(join(where, folder), base_url=prefixes.get(folder.strip("/"), "")))
    # A folder of the repo mounted into the content is its pages under that URL
    # (gateway-api's site/hugo.toml mounts `../geps` at `content/geps`: the GEPs
    # are the site's /geps/ pages, and link its /docs/ pages so).
    # (Not a content folder's part mounted again, opentelemetry.io's
    # `content/en/docs` at `content/docs` for each language, nor one file.)
    content_roots = [join(where, folder) for folder in folders]
    for source, target in mounts:
        sub, held = target.removeprefix("content/"), join(where, source)
        if target.startswith("content/") and sub and _holds(held) and held in dirs \
                and not any(held == r or held.startswith(r + "/") for r in content_roots):
            found.append(hugo(held, base_url=sub))
    _add_hugo_copied_content(where, content_roots, hugo, read, known, dirs, found)


def _hugo_config_files(config: str, where: str, read: Callable[[str], str | None],
                       known: AbstractSet[str]) -> tuple[str, dict[str, str]] | None:
    """A Hugo site's folder and the text of each file that configures it: its config,
    or every file of its config directory's `_default/`; None for the folder of
    another environment."""
    files = {config: read(config) or ""}
    if _HUGO_CONFIG_DIR.search(config):
        # Hugo's config directory (opentelemetry.io's config/_default/hugo.yaml):
        # the site is the folder holding config/, configured by every file in
        # _default/ (module.yaml's mounts, languages.toml, permalinks.yaml); another
        # environment's folder (config/production/) only overrides.
        if posixpath.basename(where) != "_default":
            return None
        files.update((p, read(p) or "") for p in sorted(known) if posixpath.dirname(p) == where)
        where = posixpath.dirname(posixpath.dirname(where))
    return where, files


def _hugo_permalinks_and_languages(
    config: str, settings: Mapping[str, Any], files: Mapping[str, str],
) -> tuple[dict[str, str], str, set[str]]:
    """A Hugo site's `permalinks` (section -> URL pattern), its default language and
    all its languages, from its config and the other files of its config directory."""
    permalinks = hugo_permalinks(settings)
    default = str(settings.get("defaultContentLanguage") or "en").lower()
    languages = {default}
    languages.update(str(k).lower() for k in mapping(settings.get("languages")))
    for name, data in files.items():  # (a config directory's permalinks.yaml is that table)
        if posixpath.basename(name).startswith("permalinks."):
            permalinks.update(hugo_permalinks({"permalinks": read_structured(name, data)}))
        elif posixpath.basename(name).startswith("languages."):
            languages.update(str(k).lower() for k in read_structured(name, data))
        elif name != config:
            table = mapping(read_structured(name, data).get("languages"))
            languages.update(str(k).lower() for k in table)
    return permalinks, default, languages


def _hugo_statics(where: str, syntax: str, text: str, settings: Mapping[str, Any]) -> tuple[str, ...]:
    """The folders a Hugo site serves at its root: its `staticDir`, its themes'."""
    served = key_value(syntax, "staticDir", text) or "static"
    # Its themes' static folders are served at the root too (buildpacks.io's
    # /images/ are themes/buildpacks/static/images/).
    theme = settings.get("theme")
    themes = [theme] if isinstance(theme, str) else [t for t in theme if isinstance(t, str)] \
        if isinstance(theme, list) else []
    statics = (join(where, served), *(join(where, f"themes/{t}/static") for t in themes))
    return statics


def _add_hugo_copied_content(where: str, content_roots: list[str], hugo: Callable[..., Site],
                             read: Callable[[str], str | None], known: AbstractSet[str], dirs: set[str],
                             found: list[Site]) -> None:
    """A Hugo site's content folders that a build fills, each a site of its own by the
    site's rules (`hugo`)."""
    # A content folder a build script fills with a copy of a top-level folder of
    # the repo, and .gitignore names (cortex's website/content/en/docs, from
    # docs/ by tools/website/web-pre.sh): that folder's pages are the site's.
    ignores = read(".gitignore") if ".gitignore" in known else None  # (read once)
    for root in content_roots:
        for sub in _ignored_under(root, ignores):
            name = sub.rpartition("/")[2]
            if name in dirs and name != where and not any(s.root == name for s in found):
                found.append(hugo(name, base_url=sub))


def _add_docusaurus_sites(config: str, where: str, read: Callable[[str], str | None], dirs: set[str],
                          found: list[Site]) -> None:
    """A Docusaurus config's sites: its docs and blog plugins' folders (each version's
    and each locale's too), more docs plugin instances', and `src/pages`."""
    text = read(config) or ""
    broken = key_value(JS_KEY, "onBrokenLinks", text)
    throws = broken is None or broken == "throw"  # (Docusaurus 3's default: throw)
    # Its docs and blog plugins' folders and URL bases (redux's docs are
    # `path: '../docs'` at `routeBasePath: '/'`), its static folders.
    static = tuple(join(where, d) for d in js_list(text, "staticDirectories") or ("static",))
    # Every folder of this site: its config, static folders and build's link check.
    docusaurus = functools.partial(Site, DOCUSAURUS, config=config, static=static,
                                   checks_links=throws)
    roots = {}  # the docs and blog plugins' folders, which locales translate
    for folder, base_url in (("docs", "docs"), ("blog", "blog")):
        options = js_block(text, folder)
        options = top_level(options) if options else None
        path = key_value(JS_KEY, "path", options) if options else None
        route = key_value(JS_KEY, "routeBasePath", options) if options else None
        base = (route if route is not None else base_url).strip("/")
        roots[folder] = join(where, path or folder)
        versions = json_strings(read(join(where, "versions.json"))) if folder == "docs" else []
        # (With versions, the current docs are `next`, unless `lastVersion` says so.)
        current = ("/".join(p for p in (base, "next") if p),) if versions else ()
        found.append(docusaurus(roots[folder], base_url=base, aliases=current))
        if folder == "docs":
            # Versioned docs: `versioned_docs/version-7.2/` beside the config,
            # built when versions.json lists it (react-redux keeps old versions'
            # folders it no longer builds: GitHub shows those), served under the
            # version's name (links within one version are relative: the prefix
            # only needs to be the same for all its pages).
            for name in versions:
                version = join(where, f"versioned_docs/version-{name}")
                if version in dirs:
                    url = "/".join(p for p in (base, name) if p)
                    found.append(docusaurus(version, base_url=url))
    # More docs plugin instances (pnpm.io's registry docs: `path: './pnpr-docs'`
    # at `routeBasePath: 'pnpr'`).
    for m in re.finditer(r"plugin-content-docs['\"]\s*,\s*\{", text):
        options = top_level(braced(text, m.end()))
        path = key_value(JS_KEY, "path", options)
        if path:
            route = key_value(JS_KEY, "routeBasePath", options)
            found.append(docusaurus(join(where, path),
                                    base_url=(route if route is not None else "docs").strip("/")))
    found.append(docusaurus(join(where, "src/pages")))
    # Translations (`i18n/de/docusaurus-plugin-content-docs/version-3/`): a
    # locale's copy of a docs or blog folder, built by the same rules.
    prefix = join(where, "i18n") + "/"
    for d in sorted(x for x in dirs if x.startswith(prefix)):
        local = _DOCUSAURUS_I18N.fullmatch(d[len(prefix):])
        if local is not None:
            plugin, version = local.group("docs") or local.group("blog"), local.group("version")
            # (Another docs instance's `-id` folder: which folder it translates is
            # that instance's `path`, not matched here.)
            source = "" if local.group("id") or local.group("bid") \
                else roots[plugin] if version in (None, "current") \
                else join(where, f"versioned_docs/{version}")
            url = f"{local.group('locale')}/{plugin}"
            # (A locale's current docs: `/zh/docs/next/...` too.)
            nexts = (f"{url}/next",) if plugin == "docs" and version in (None, "current") \
                and json_strings(read(join(where, "versions.json"))) else ()
            found.append(docusaurus(d, translates=source, base_url=url, aliases=nexts))


def _ignored_under(root: str, ignores: str | None) -> list[str]:
    """The folders under a content folder that the repo's root `.gitignore` (its text,
    `ignores`) names (`website/content/en/docs` under `website/content/en`: `docs`), a
    build's."""
    out = []
    for line in (ignores or "").splitlines():
        entry = line.strip().strip("/")
        if entry.startswith(root + "/") and not any(ch in entry for ch in "*?[!#"):
            out.append(entry[len(root) + 1:])
    return out


def site_of(sites: Iterable[Site], path: str) -> Site | None:
    """The site that shows `path` (the one with the deepest root holding it), if any.
    A web app's folder is its site, but the README and the files beside it at its root
    are GitHub's to show (prometheus/docs' CONTRIBUTING.md beside next.config.ts)."""
    best: Site | None = None
    for site in sites:
        if site.holds(path) and (best is None or len(site.root) > len(best.root)):
            best = site
    if best is not None and best.renderer in OPAQUE_ROUTES and best.renderer != ASTRO \
            and github_page(rel := path[len(best.root) + 1:] if best.root else path) \
            and not (rel.startswith(APP_CONTENT) and "/" in rel):
        return None
    return best


# The folders a web app renders its Markdown pages from: a README there is a section's
# page (cert-manager.io's content/docs/tutorials/*/README.md), not GitHub's.
APP_CONTENT = ("content/", "src/content/")


def github_page(path: str) -> bool:
    """Whether GitHub is surely where a Markdown file is read: a README, a file at the
    repo's root (CONTRIBUTING.md) or under `.github/`. A page deeper in may be built by
    a site whose config is kept elsewhere (another repo's)."""
    return "/" not in path or path.startswith(".github/") or \
        posixpath.basename(path).lower().startswith("readme")
