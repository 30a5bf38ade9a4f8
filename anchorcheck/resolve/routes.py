"""Routes: the URL a site serves each page at, and the page a URL is.

A link on a site page is followed by the reader's browser, from the page's URL, not
from its file. Where a site's URLs follow its folders (MkDocs, VitePress, Hugo's
defaults), the resolver's page rules (`guide/` from `guide.md`) are enough. Where the
site decides URLs from its config and each page's front matter, they are not: Jekyll's
`_docs/history.md` is `/docs/history/` by its collection's `permalink` pattern or its
own `permalink:`, a post `_posts/2013-05-08-x.md` is `/news/2013/05/08/x/`, and
jekyll-redirect-from's `redirect_from:` serves a page at its old URLs too; Hugo's
`url:` and `aliases:`, Docusaurus' `slug:` do the same. This module builds that table
from the site's config and the pages' front matter.

URLs are compared by key (`url_key`): no slashes around, no `.html`, no `index`, so
`/docs/history/`, `/docs/history.html` and `docs/history/index.html` are one page, as
a static server serves them.
"""

from __future__ import annotations

import json
import posixpath
import re
import tomllib
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import yaml

# Front matter: a YAML block between `---` lines at the very top of the file.
_FRONT_MATTER = re.compile(r"\A---[ \t]*\r?\n(.*?)^(?:---|\.\.\.)[ \t]*$", re.DOTALL | re.MULTILINE)
_TOML_FRONT_MATTER = re.compile(r"\A\+\+\+[ \t]*\r?\n(.*?)^\+\+\+[ \t]*$", re.DOTALL | re.MULTILINE)
# Jekyll's post file names: the date, then the title.
_POST_NAME = re.compile(r"(\d{4})-(\d{2})-(\d{2})-(.+)")
# Jekyll's built-in permalink styles (its docs: "Permalinks", built-in formats).
_STYLES = {
    "date": "/:categories/:year/:month/:day/:title:output_ext",
    "pretty": "/:categories/:year/:month/:day/:title/",
    "ordinal": "/:categories/:year/:y_day/:title:output_ext",
    "weekdate": "/:categories/:year/W:week/:short_day/:title:output_ext",
    "none": "/:categories/:title:output_ext",
}
_PAGE_EXTS = (".md", ".markdown", ".mkdown", ".mkd", ".html", ".htm")
_PLACEHOLDER = re.compile(r":([a-z_]+)")

_Loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml where the wheel has it


def url_key(url: str) -> str:
    """A URL's path as a key: `/docs/history/`, `docs/history.html` and
    `/docs/history/index.html` are all `docs/history`."""
    key = url.partition("#")[0].partition("?")[0].strip("/")
    for suffix in (".html", ".htm"):
        if key.endswith(suffix):
            key = key[: -len(suffix)]
    if key == "index":
        return ""
    return key.removesuffix("/index")


def front_matter(text: str) -> dict[str, Any]:
    """A page's front matter, or {} when it has none or it is not a mapping: YAML
    between `---` lines, or TOML between `+++` lines (Hugo's)."""
    if text.startswith("+++"):
        m = _TOML_FRONT_MATTER.match(text)
        try:
            return tomllib.loads(m.group(1)) if m is not None else {}
        except (tomllib.TOMLDecodeError, RecursionError):
            return {}
    if not text.startswith("---"):
        return {}
    m = _FRONT_MATTER.match(text)
    return read_config(m.group(1)) if m is not None else {}


def read_config(text: str | None) -> dict[str, Any]:
    """A YAML document as a mapping ({} when it is none): a site's config, a page's
    front matter. (A list of collections, `collections: [docs]`, outputs none of them.)"""
    if not text:
        return {}
    try:
        found = yaml.load(text, Loader=_Loader)  # (a safe loader)
    except yaml.YAMLError:
        return {}
    return found if isinstance(found, dict) else {}


def read_structured(path: str, text: str) -> dict[str, Any]:
    """A config file as a mapping, by its extension: TOML, JSON or YAML ({} when it
    cannot be read as one)."""
    try:
        if path.endswith(".toml"):
            found = tomllib.loads(text)
        else:
            found = json.loads(text) if path.endswith(".json") else read_config(text)
    except (tomllib.TOMLDecodeError, ValueError, RecursionError):
        return {}
    return found if isinstance(found, dict) else {}


@dataclass(frozen=True, slots=True)
class JekyllConfig:
    """What of a Jekyll `_config.yml` decides URLs: the output collections and their
    permalink patterns (None: the default), the global permalink style, the base URL."""

    collections: Mapping[str, str | None] = field(default_factory=dict, hash=False, compare=False)
    permalink: str = _STYLES["date"]
    baseurl: str = ""

    @classmethod
    def parse(cls, text: str | None) -> JekyllConfig:
        config = read_config(text)
        collections: dict[str, str | None] = {"posts": None}
        declared = config.get("collections")
        if isinstance(declared, dict):
            for name, options in declared.items():
                options = options if isinstance(options, dict) else {}
                if name == "posts" or options.get("output") is True:
                    pattern = options.get("permalink")
                    collections[str(name)] = str(pattern) if isinstance(pattern, str) else None
        style = config.get("permalink")
        permalink = _STYLES.get(str(style), str(style)) if isinstance(style, str) else _STYLES["date"]
        baseurl = config.get("baseurl")
        return cls(collections, permalink, baseurl.strip("/") if isinstance(baseurl, str) else "")


@dataclass(frozen=True, slots=True)
class Routes:
    """A site's URL table: `by_url` a URL key to its page's path in the repo, `by_file`
    a page's path to the URL it is served at."""

    by_url: Mapping[str, str] = field(default_factory=dict)
    by_file: Mapping[str, str] = field(default_factory=dict)

    def page(self, url: str) -> str | None:
        return self.by_url.get(url_key(url))


def _expand(pattern: str, values: Mapping[str, str]) -> str:
    url = _PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), pattern)
    return re.sub(r"/{2,}", "/", url if url.startswith("/") else "/" + url)


def _categories(matter: Mapping[str, Any], folders: str) -> str:
    given = matter.get("categories", matter.get("category"))
    if isinstance(given, str):
        parts = given.split()
    elif isinstance(given, list):
        parts = [str(c) for c in given]
    else:
        parts = []
    return "/".join([*(p for p in folders.split("/") if p), *parts]).lower()


def jekyll_url(rel: str, matter: Mapping[str, Any], config: JekyllConfig) -> str | None:
    """The URL Jekyll serves `rel` (a path under the site's source) at; None for a
    file it does not output (layouts, includes, data, drafts, a collection not output)."""
    permalink = matter.get("permalink")
    folder, _, base = rel.rpartition("/")
    stem, dot, ext = base.rpartition(".")
    stem = stem if dot else base
    output_ext = ".html" if f".{ext.lower()}" in _PAGE_EXTS else (f".{ext}" if dot else "")
    first = rel.split("/", 1)[0]
    if first.startswith("_"):
        name = first[1:]
        if name not in config.collections:
            return None
        inner = rel[len(first) + 1:]
        inner_dir = posixpath.dirname(inner)
        values = {"collection": name, "path": posixpath.splitext(inner)[0], "name": stem,
                  "output_ext": output_ext, "title": str(matter.get("slug") or stem)}
        pattern = config.collections[name]
        if name == "posts":
            m = _POST_NAME.fullmatch(stem)
            if m is None:
                return None  # Jekyll skips a post with no date in its name
            year, month, day, title = m.groups()
            values.update(year=year, month=month, day=day, i_month=str(int(month)), i_day=str(int(day)),
                          short_year=year[2:], title=str(matter.get("slug") or title),
                          categories=_categories(matter, inner_dir))
            pattern = pattern or config.permalink
        else:
            pattern = pattern or "/:collection/:path:output_ext"
        if isinstance(permalink, str) and permalink:
            pattern = permalink
        return _expand(pattern, values)
    if isinstance(permalink, str) and permalink:
        return _expand(permalink, {"path": posixpath.splitext(rel)[0], "basename": stem, "name": stem,
                                   "output_ext": output_ext, "title": stem, "categories": ""})
    if output_ext != ".html":
        return "/" + rel  # a static file, served as it is
    if stem == "index":
        return f"/{folder}/" if folder else "/"
    pretty = config.permalink.endswith("/")
    return f"/{folder + '/' if folder else ''}{stem}{'/' if pretty else '.html'}"


def _old_urls(matter: Mapping[str, Any], *keys: str) -> list[str]:
    urls: list[str] = []
    for key in keys:
        given = matter.get(key)
        if isinstance(given, str):
            urls.append(given)
        elif isinstance(given, list):
            urls.extend(str(u) for u in given if isinstance(u, str))
    return urls


def jekyll_routes(root: str, paths: Iterable[str], read: Callable[[list[str]], Mapping[str, str]],
                  config: JekyllConfig) -> Routes:
    """The URL of every page a Jekyll site at `root` outputs. `read` gives the texts of
    the pages asked (their front matter decides their URLs)."""
    prefix = f"{root}/" if root else ""
    pages = [p for p in paths if p.startswith(prefix) and p.lower().endswith(_PAGE_EXTS)
             and not any(part.startswith(".") for part in p[len(prefix):].split("/"))]
    texts = read(pages)
    by_url: dict[str, str] = {}
    by_file: dict[str, str] = {}
    for path in pages:
        matter = front_matter(texts.get(path, ""))
        url = jekyll_url(path[len(prefix):], matter, config)
        if url is None:
            continue
        by_file[path] = url
        by_url.setdefault(url_key(url), path)
        for old in _old_urls(matter, "redirect_from"):  # jekyll-redirect-from
            by_url.setdefault(url_key(old), path)
    return Routes(by_url, by_file)


def _declared_routes(matters: Mapping[str, Mapping[str, Any]], keys: tuple[str, ...]) -> Routes:
    """The URLs a Hugo site's pages declare in their front matter (`url:` and
    `aliases:`; `matters` each page's), beside the URLs its folders give."""
    by_url: dict[str, str] = {}
    by_file: dict[str, str] = {}
    for path, matter in matters.items():
        urls = [u for u in _old_urls(matter, *keys) if u.startswith("/")]
        for url in urls:
            by_url.setdefault(url_key(url), path)
        if urls and isinstance(matter.get(keys[0]), str):
            by_file[path] = urls[0]
    return Routes(by_url, by_file)


# Docusaurus drops a number prefix from a doc's file name (`01-intro.md` is `intro`).
_NUMBER_PREFIX = re.compile(r"^\d+[-_.]\s*")


def docusaurus_routes(root: str, base_url: str, paths: Iterable[str],
                      read: Callable[[list[str]], Mapping[str, str]], aliases: Iterable[str] = ()) -> Routes:
    """The URLs of a Docusaurus docs (or blog) folder's pages: under its `routeBasePath`,
    each at its folder and its id (the front matter's `id:`, else its file name without
    a number prefix), or at its `slug:` (absolute, or relative to its folder); an
    `index`/`README` page, or one named as its folder, at the folder's URL. Under each
    of `aliases` too (the current version's `docs/next`)."""
    prefix = f"{root}/" if root else ""
    pages = [p for p in paths if p.startswith(prefix) and p.lower().endswith((".md", ".mdx"))]
    texts = read(pages)
    base = f"/{base_url.strip('/')}" if base_url.strip("/") else ""
    others = [f"/{a.strip('/')}" for a in aliases]
    by_url: dict[str, str] = {}
    by_file: dict[str, str] = {}
    for path in pages:
        matter = front_matter(texts.get(path, ""))
        folder, _, name = path[len(prefix):].rpartition("/")
        stem = _NUMBER_PREFIX.sub("", posixpath.splitext(name)[0])
        folder = "/".join(_NUMBER_PREFIX.sub("", part) for part in folder.split("/")) if folder else ""
        slug, given = matter.get("slug"), matter.get("id")
        if isinstance(slug, str) and slug:
            url = slug if slug.startswith("/") else posixpath.join("/", folder, slug)
        elif not isinstance(given, str) and (stem.lower() in ("index", "readme")
                                             or (folder and stem == folder.rpartition("/")[2])):
            url = f"/{folder}/" if folder else "/"
        else:
            url = posixpath.join("/", folder, str(given) if isinstance(given, str) and given else stem)
        for other in others:
            by_url.setdefault(url_key(f"{other}{url}"), path)
        url = f"{base}{url}" if url != "/" else f"{base}/"
        by_file[path] = url
        by_url.setdefault(url_key(url), path)
    return Routes(by_url, by_file)


def hugo_url(rel: str, languages: Collection[str] = ()) -> str:
    """The URL Hugo serves a content file at, by its path (`urlize`d: lower case, spaces
    to `-`): `docs/Reference/API/Kustomization File/bases.md` is
    `/docs/reference/api/kustomization-file/bases/`, a section's `_index.md` its folder;
    a page translated by its name (`about.en.md`, one of the site's `languages`) is
    `about`'s."""
    folder, _, name = rel.rpartition("/")
    stem = hugo_stem(name, languages)
    parts = [*(p for p in folder.split("/") if p), *([] if stem.lower() in ("_index", "index") else [stem])]
    return "/" + "/".join(re.sub(r"\s+", "-", p.strip()).lower() for p in parts) + "/"


def hugo_stem(name: str, languages: Collection[str] = ()) -> str:
    """A Hugo content file's name without its extension and its language's (`_index`
    for `_index.en.md`, where `en` is one of the site's languages)."""
    stem = posixpath.splitext(name)[0]
    base, dot, language = stem.rpartition(".")
    return base if dot and base and language.lower() in languages else stem


def hugo_permalinks(config: Mapping[str, Any]) -> dict[str, str]:
    """A Hugo config's `permalinks`, section -> pattern: the old form (`blog =
    "/:year/:month/:day/:title/"`) and the page kind's table of the new one
    (`page: {blog: /:year/:month/:day/:slug/}`)."""
    given = config.get("permalinks")
    if not isinstance(given, Mapping):
        return {}
    scoped = given.get("page")
    found = {str(k): v for k, v in given.items() if isinstance(v, str)}
    if isinstance(scoped, Mapping):
        found.update({str(k): v for k, v in scoped.items() if isinstance(v, str)})
    return found


def _urlize(text: str) -> str:
    """Hugo's `urlize`, near enough: lower case, spaces to `-`, punctuation dropped."""
    return re.sub(r"\s+", "-", re.sub(r"[^\w\s./-]", "", text.strip().lower()))


def _permalink(rel: str, matter: Mapping[str, Any], pattern: str, languages: Collection[str]) -> str | None:
    """The URL a Hugo permalink pattern gives a page (`rel`, under the content root)."""
    folder, _, name = rel.rpartition("/")
    stem = hugo_stem(name, languages)
    if stem.lower() in ("index", "_index"):  # a bundle: its folder's name
        if stem.lower() == "_index":
            return None
        folder, _, stem = folder.rpartition("/")
    date = str(matter.get("date", ""))
    year, month, day = (date[0:4], date[5:7], date[8:10]) if re.match(r"\d{4}-\d{2}-\d{2}", date) \
        else ("", "", "")
    title = str(matter.get("title", "") or "")
    slug = str(matter.get("slug", "") or "")
    values = {"year": year, "month": month, "day": day, "section": rel.partition("/")[0],
              "sections": folder, "title": _urlize(title) or stem, "filename": stem, "contentbasename": stem,
              "slug": _urlize(slug) if slug else _urlize(title) or stem,
              "slugorfilename": _urlize(slug) if slug else stem,
              "slugorcontentbasename": _urlize(slug) if slug else stem}
    if any(f":{k}" in pattern and not v for k, v in values.items()):
        return None  # (a date or title it needs is not there)
    return _expand(pattern, values)


def hugo_routes(root: str, paths: Iterable[str], read: Callable[[list[str]], Mapping[str, str]],
                permalinks: Mapping[str, str] | None = None, languages: Collection[str] = (),
                base: str = "", mounted: Iterable[tuple[str, str]] = ()) -> Routes:
    """A Hugo site's pages at the URLs their paths give, at those their front matter
    gives (`url:`, `aliases:`), and at those its `permalinks` patterns give a
    section's pages (linkerd.io's blog: `/:year/:month/:day/:slug/`); `base`: the URL a
    mounted folder's pages are under; `mounted`: (a page's path in the content, the
    file mounted there)."""
    prefix = f"{root}/" if root else ""
    # (Each Markdown page's front matter, read once for what it declares and for the
    # permalink patterns.)
    sources = [p for p in paths if p.startswith(prefix) and p.lower().endswith((".md", ".markdown"))]
    # (Hugo skips blank lines before a page's front matter: buildpacks.io's pack/_index.md
    # starts with one, then its `aliases`.)
    matters = {p: front_matter(t) for p, t in ((p, t.lstrip()) for p, t in read(sources).items())
               if t.startswith(("---", "+++"))}
    declared = _declared_routes(matters, ("url",))
    by_url = dict(declared.by_url)
    by_file = dict(declared.by_file)
    pages = [p for p in paths if p.startswith(prefix) and p.lower().endswith((".md", ".markdown", ".html"))]
    for path in pages:
        url = hugo_url(path[len(prefix):], languages)
        if base:  # (a folder mounted under that URL)
            url = f"/{base.strip('/')}{url}"
        by_url.setdefault(url_key(url), path)
        by_file.setdefault(path, url)
    # An alias is a redirect page, which a page at that URL overwrites (porter's
    # `/wiring/`: wiring.md, not the alias in using-templates.md).
    for key, path in _declared_routes(matters, ("aliases",)).by_url.items():
        by_url.setdefault(key, path)
    for target, source in mounted:
        by_url.setdefault(url_key(hugo_url(target, languages)), source)
    for path in pages if permalinks else ():
        rel = path[len(prefix):]
        pattern = permalinks.get(rel.partition("/")[0]) if permalinks else None
        link = _permalink(rel, matters.get(path, {}), pattern, languages) if pattern else None
        if link is not None:
            by_url.setdefault(url_key(link), path)
    return Routes(by_url, by_file)
