"""The workspace index: every repo's snapshot, with what resolution asks of it
(anchors by name and by file, paths by name, the pages a site builds, the files a
page includes, a file's text read on demand). The resolver (resolver.py) reads it."""

from __future__ import annotations

import functools
import posixpath
import re
import weakref
from collections import defaultdict
from collections.abc import Iterable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import replace
from pathlib import Path

from anchorcheck.config.excludes import IgnoreFile, excluded_by, git_ignores
from anchorcheck.config.workspace import RepoSpec, remote_slug
from anchorcheck.errors import GitError
from anchorcheck.extract.headings import HeadingOptions, caps_heading_text
from anchorcheck.extract.languages import language_of
from anchorcheck.extract.locations import copied_path, generated_text
from anchorcheck.extract.scanners import scan
from anchorcheck.git.blobtext import decode_blob
from anchorcheck.git.process import BlobReader
from anchorcheck.git.repo import GitRepo
from anchorcheck.index.lazy import LazyPaths, of_kind
from anchorcheck.model.anchor import (
    Anchor,
    AnchorKind,
)
from anchorcheck.model.reference import Reference, RefKind
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

# A directory named for a language (`de`, `pt-BR`, `zh_CN`, `zh-hant`).
LANGUAGE_DIR = re.compile(r"[a-z]{2}(?:[-_][A-Za-z]{2,4})?")


def language_root(root: str, path: str) -> tuple[str, ...]:
    """The folder of the language a site's page is in, when its first folder under the
    site's root names one (hugoDocs' content/en/, which its config mounts as content)."""
    lang = path[len(root):].lstrip("/").partition("/")[0] if path.startswith(root) else ""
    return (posixpath.join(root, lang),) if LANGUAGE_DIR.fullmatch(lang) else ()


# A Hugo shortcode given a file to read (`{{% readfile file="/sources/x.md" %}}`).
_SHORTCODE_FILE = re.compile(r"""\{\{[%<]-?\s*[\w/.-]+\s[^}\n]*?\bfile\s*=\s*["']([^"'\n]+)["']""")


# VitePress' include (`<!--@include: ./parts/basics.md-->`).
_VITEPRESS_INCLUDE = re.compile(r"<!--\s*@include:\s*([^\n>]+?)\s*-->")


# Hugo's include shortcode, as hugoDocs and Docsy sites write it.
_HUGO_INCLUDE = re.compile(r"""\{\{[%<]-?\s*include\s+["']([^"'\n]+)["']\s*-?[%>]\}\}""")


# A directive that builds a page's content and anchors: mkdocstrings' and mkdocs-click's
# `::: identifier`, Sphinx's `.. automodule::`, MyST's ```` ```{autoclass} ````.
# (A VitePress container, `::: tip`, names no dotted object.)
_BUILD_DIRECTIVE = re.compile(r"(?m)^(?:[ \t]*:::[ \t]+(?:[A-Za-z_]\w*(?:\.\w+)+|mkdocs-click|mkdocs-typer)"
                              r"[ \t]*$|\.\. auto\w+::|[`:]{3,}\{auto\w+\})")


# On a MkDocs site, `::: name` on a line of its own is mkdocstrings' directive whatever
# the name (no VitePress container there).
_MKDOCS_DIRECTIVE = re.compile(r"(?m)^[ \t]*:::[ \t]+[A-Za-z_][\w:.<>()-]*[ \t]*$")


# pymdownx.snippets' base path(s) in a MkDocs config: `base_path: docs/snippets`, `[a, b]`.
_SNIPPET_BASES = re.compile(r"(?m)^[ \t]+base_path[ \t]*:[ \t]*(\[[^\]\n]*\]|[^\s#\[][^#\n]*?)"
                            r"[ \t]*(?:#.*)?$")


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


# A folder named with a version (`gateway-api-0.7.1-custom`), and a project's licence.
_VERSIONED_NAME = re.compile(r"\d+(?:\.\d+)+")


_LICENCES = ("LICENSE", "LICENSE.md", "LICENSE.txt", "LICENCE", "COPYING", "license")


# A section's own layout (`layouts/adopters/list.html`; not `_default/`, `shortcodes/`,
# `partials/`).
_SECTION_LAYOUT = re.compile(r"(?:^|/)layouts/(?!_|shortcodes/|partials/)([^/]+)/[^/]+\.html$")


_TEMPLATED_ID = re.compile(r"""\bid\s*=\s*["']?\{\{""")


_LITERAL_ID = re.compile(r"""\bid\s*=\s*["']([A-Za-z][\w:.-]*)["']""")


# m4 (in its prefixed mode, `m4 -P`) preprocessing a Markdown page: its includes and macros.
_M4 = re.compile(r"\bm4_(?:include|dnl|define)\b")


# mkdocstrings' directive naming a Python object: `::: hatch.env.plugin.interface.X`.
_MKDOCSTRINGS = re.compile(r"(?m)^[ \t]*:::[ \t]+([A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)+)[ \t]*$")


# A reST label: `.. _api-validators:` alone on its line.
_RST_LABEL = re.compile(r"(?m)^\.\. _([^:`\n]+):[ \t]*$")


# pymdownx.snippets' include line, `--8<-- "CONTRIBUTING.md"`.
_SNIPPET_LINE = re.compile(r"""(?m)^[ \t]*-{1,3}8<-{1,3}[ \t]+["']([^"'\n]+)["'][ \t]*$""")


def _line_title(text: str) -> str:
    """A comment line as a title cited by name (lone_heading): blanks single, a
    closing `.` or `:` dropped (its case kept: "Rollback On The Degraded Path" is no
    citation of the caps line ROLLBACK ON THE DEGRADED PATH); marked so that no caps
    line's key is one."""
    return "\0" + " ".join(text.strip().rstrip(".:").split())


# Any caps line counts for lone_heading (a citation names it and its file).
_LONE_OPTIONS = HeadingOptions(min_words=1, max_words=20, min_letters=1, needs_body=False)


@functools.cache
def origin_slug(path: Path) -> str | None:
    """`owner/name` of the git remote `origin` of the repo at `path`, if it is on a
    host (not a local path); None when there is none or the repo is not here (a check
    from index files made elsewhere)."""
    try:
        url = GitRepo(path).remote_url()
    except GitError:
        return None
    return remote_slug(url) if url else None


def _close_readers(readers: dict[Path, BlobReader]) -> None:
    """Close an index's cat-file processes (weakref.finalize: when it goes, or at exit)."""
    while readers:
        readers.popitem()[1].close()


class WorkspaceIndex:
    """Lookup tables over every snapshot of the workspace."""

    def __init__(
        self, snapshots: Sequence[SnapshotIndex], repos: Sequence[RepoSpec],
        share: WorkspaceIndex | None = None,
    ) -> None:
        """`share`: another index over some of the same snapshots (merge order builds
        one per set of changes), whose per-repo lookup tables are reused for them."""
        self.snapshots = {s.repo: s for s in snapshots}
        self._share = share
        self.repos = {r.name: r for r in repos}
        # The anchor tables (by_name, notes, by_file), built when first read: a run that
        # a stored result answers reads none (nor decodes a stored snapshot's anchors).
        self._by_name: dict[str, list[Anchor]] = defaultdict(list)
        self._notes: dict[str, list[Anchor]] = defaultdict(list)
        self._by_file: dict[FileId, list[Anchor]] = defaultdict(list)
        self._built = False
        # Paths by base name, per repo: a path reference matches the files it is a
        # suffix of. One entry per file (not one per suffix) keeps building this cheap
        # on big trees; built on first need.
        self._by_basename: dict[str, _FilesByName] = {}
        self._dirs: dict[str, set[str]] = {}
        self._skipped: dict[str, dict[str, str]] = {}  # see unread_reason()
        self._pages_by_lower: dict[str, dict[str, str | None]] = {}  # see page_ignoring_case()
        self._ignore_files: dict[str, list[IgnoreFile]] = {}  # see git_ignores()
        self._sites: dict[str, tuple[Site, ...]] = {}  # see sites()
        self._redirects: dict[str, HostRedirects] = {}  # see host_redirects()
        self._routes: dict[tuple[str, str, str], Routes] = {}  # see routes()
        self._html_ids: dict[FileId, list[Anchor]] = {}  # see html_ids()
        self._terms: dict[FileId, list[Anchor]] = {}  # see definition_terms()
        self._builds: dict[FileId, bool] = {}  # see builds_anchors()
        self._shortcodes: dict[str, frozenset[str]] = {}  # see _markdown_shortcodes()
        self._id_shortcodes: dict[str, dict[str, tuple[bool, tuple[str, ...]]]] = {}  # _html_id_shortcodes()
        self._id_layouts: dict[str, frozenset[str]] = {}  # see _sections_with_id_layouts()
        self._generated_files: dict[FileId, bool] = {}  # see generated()
        self._name_languages: dict[str, frozenset[str]] = {}  # see name_languages()
        self._m4: dict[FileId, list[Anchor]] = {}  # see m4_anchors()
        self._page_texts: dict[FileId, str | None] = {}  # see _page_text()
        self._readers: dict[Path, BlobReader] = {}  # see _reader()
        weakref.finalize(self, _close_readers, self._readers)
        self._labels: dict[tuple[str, str, str], dict[str, str]] = {}  # see sphinx_labels()
        self._rendering: dict[str, dict[str, list[str]]] = {}  # see rendering_pages()
        self._lone: dict[FileId, dict[str, Anchor]] = {}  # see lone_heading()
        self._titled: dict[str, dict[str, Anchor]] = {}  # see titled_notes()
        self._snippets: dict[FileId, list[FileId]] = {}  # see snippets()
        self.url_slugs = {r.url_slug.lower(): r.name for r in repos if r.url_slug}
        self._homes: dict[str, str | None] | None = None  # see homes()

    def _build(self) -> None:
        self._built = True
        share = self._share
        kept = set()
        if share is not None and list(self.snapshots) == list(share.snapshots):
            kept = {repo for repo, snap in self.snapshots.items() if share.snapshots[repo] is snap}
        if share is not None and kept:
            self._from(share, kept)
            return
        for snap in self.snapshots.values():
            self._add(snap.anchors)

    @property
    def by_name(self) -> dict[str, list[Anchor]]:
        """Anchors by name (Notes aside)."""
        if not self._built:
            self._build()
        return self._by_name

    @property
    def notes(self) -> dict[str, list[Anchor]]:
        """Notes by name."""
        if not self._built:
            self._build()
        return self._notes

    @property
    def by_file(self) -> dict[FileId, list[Anchor]]:
        """Anchors by (repo, path)."""
        if not self._built:
            self._build()
        return self._by_file

    def homes(self) -> dict[str, str | None]:
        """Each repo's `owner/name` in lower case: its `url`'s, else its git remote
        `origin`'s (asked of git once per repo, when a blob URL first needs it); None
        when neither says."""
        if self._homes is None:
            self._homes = {name: (spec.url_slug or origin_slug(spec.path) or "").lower() or None
                           for name, spec in self.repos.items()}
        return self._homes

    def _add(self, anchors: Iterable[Anchor]) -> None:
        by_file, notes, by_name = self._by_file, self._notes, self._by_name
        for anchor in anchors:
            by_file[(anchor.repo, anchor.path)].append(anchor)
            if anchor.kind is AnchorKind.NOTE:
                notes[anchor.name].append(anchor)
            else:
                by_name[anchor.name].append(anchor)

    def _from(self, share: WorkspaceIndex, kept: set[str]) -> None:
        """The anchor tables of `share`, whose snapshots of the `kept` repos are these
        ones', with the other repos' anchors replaced: a merge order builds an index per
        set of changes, and walking GHC's anchors for each was 2% of a PR run. The
        lists of names no changed repo touches are shared (never changed after
        building); the others are made anew, in snapshot order as _add makes them."""
        order = {repo: i for i, repo in enumerate(self.snapshots)}
        old = [a for repo, snap in share.snapshots.items() if repo not in kept for a in snap.anchors]
        new = [a for repo, snap in self.snapshots.items() if repo not in kept for a in snap.anchors]
        self._by_file = defaultdict(list, share.by_file)
        self._notes = defaultdict(list, share.notes)
        self._by_name = defaultdict(list, share.by_name)
        touched = {(a.repo, a.path) for a in old}
        for key in touched:
            del self._by_file[key]
        names = {(a.kind is AnchorKind.NOTE, a.name) for a in (*old, *new)}
        for note, name in names:
            table = self._notes if note else self._by_name
            table[name] = [a for a in table.get(name, ()) if a.repo in kept]
        self._add(new)
        for note, name in names:
            table = self._notes if note else self._by_name
            found = table[name]
            if not found:
                del table[name]
            else:
                found.sort(key=lambda a: order[a.repo])  # stable: each repo's own order

    def ending_with_stem(self, stem: str) -> list[FileId]:
        """Haskell sources named `stem` (`Internals.hs`, `.lhs`, `.hsc`...), in any repo."""
        return [f for ext in (".hs", ".lhs", ".hsc", ".hs-boot", ".hsig")
                for f in self.ending_with(stem + ext)]

    def ending_with(self, suffix: str) -> list[FileId]:
        """Files whose path is `suffix` or ends with `/suffix`."""
        tail = "/" + suffix
        base = suffix.rpartition("/")[2]
        return sorted((repo, p) for repo in self.snapshots for p in self._names(repo).named(base)
                      if p == suffix or p.endswith(tail))

    def _names(self, repo: str) -> _FilesByName:
        names = self._by_basename.get(repo)
        if names is None:
            snap = self.snapshots[repo]
            other = self._share
            if other is not None and other.snapshots.get(repo) is snap:
                names = other._names(repo)
            else:
                names = _FilesByName(snap.paths)
            self._by_basename[repo] = names
        return names

    def dirs(self, repo: str) -> set[str]:
        """The directories of a repo, built on first need (most runs cite no directory)."""
        found = self._dirs.get(repo)
        if found is None:
            found = set()
            snap = self.snapshots.get(repo)
            for path in snap.paths if snap is not None else ():
                cut = path.rfind("/")
                while cut > 0 and path[:cut] not in found:
                    found.add(path[:cut])
                    cut = path.rfind("/", 0, cut)
            self._dirs[repo] = found
        return found

    @property
    def anchors(self) -> Iterable[Anchor]:
        for snap in self.snapshots.values():
            yield from snap.anchors

    @property
    def references(self) -> Iterable[Reference]:
        for snap in self.snapshots.values():
            yield from snap.references

    def unread_reason(self, repo: str, path: str) -> str | None:
        """Why a file in the tree was not read (binary, too large, excluded...), or
        None when it was read: what such a file defines is not known."""
        snap = self.snapshots.get(repo)
        if snap is None:
            return None
        skipped = self._skipped.get(repo)
        if skipped is None:
            skipped = self._skipped[repo] = {s.path: s.reason for s in snap.skipped}
        if path in skipped:
            return skipped[path]
        pattern = excluded_by(snap.excluded, path)
        return None if pattern is None else f"excluded by {pattern!r}"

    def git_ignores(self, repo: str, path: str) -> bool:
        """Whether the repo's `.gitignore` files (at the snapshot's commit) ignore
        `path`: a file a build writes (ruff's docs/.gitignore lists the settings.md
        and rules/ its docs build generates). Read from git on first need; a repo git
        cannot read (gone, or only in an index file) ignores nothing."""
        files = self.ignore_files(repo)
        return bool(files) and git_ignores(files, path)

    def ignore_files(self, repo: str) -> list[IgnoreFile]:
        """The repo's `.gitignore` files, read on first need."""
        files = self._ignore_files.get(repo)
        if files is None:
            other, snap = self._share, self.snapshots.get(repo)
            if other is not None and snap is not None and other.snapshots.get(repo) is snap:
                files = other.ignore_files(repo)  # (a merge order's scenarios: read once)
            else:
                files = self._read_ignore_files(repo)
            self._ignore_files[repo] = files
        return files

    def _read_ignore_files(self, repo: str) -> list[IgnoreFile]:
        snap, spec = self.snapshots.get(repo), self.repos.get(repo)
        if snap is None or spec is None:
            return []
        where = {oid: path.rpartition("/")[0] for path, oid in snap.oids.items()
                 if path == ".gitignore" or path.endswith("/.gitignore")}
        try:
            return [IgnoreFile.parse(where[oid], data.decode("utf-8", errors="replace"))
                    for oid, data in GitRepo(spec.path).read_blobs(list(where)) if data is not None]
        except (GitError, OSError):
            return []

    def page_ignoring_case(self, repo: str, path: str) -> str | None:
        """The one file whose path is `path` but for case, if one is."""
        pages = self._pages_by_lower.get(repo)
        if pages is None:
            pages = {}
            snap = self.snapshots.get(repo)
            for p in snap.paths if snap is not None else ():
                key = p.lower()
                pages[key] = None if key in pages else p  # two such files: neither
            self._pages_by_lower[repo] = pages
        return pages.get(path.lower())

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

    def lone_heading(self, where: FileId, name: str) -> Anchor | None:
        """A caps line standing alone (no body: no anchor, by the body rule) that is
        exactly `name`, in this file, or a comment line that is `name` but for a
        closing `.` or `:`: read on first need, for a citation that names the file and
        this very line (the seed's `# ROLLBACK ON THE DEGRADED PATH` right above
        `strategy:`; libjpeg-turbo's `See "Creation of 2-D sample arrays" in jmemmgr.c`,
        whose block comment opens ` * Creation of 2-D sample arrays.`), which is
        evidence enough.
        (anchorcheck: ignore[AC105]: examples, not citations)"""
        found = self._lone.get(where)
        if found is None:
            found = self._lone[where] = {}
            repo, path = where
            language = language_of(path)
            # (An excluded file is not read: what it holds is not known.)
            text = self.text(repo, path) if language not in (None, "markdown") else None
            if text and language is not None:
                for comment in scan(text, language):
                    for cl in comment.lines:
                        if not cl.text.strip():
                            continue
                        col = cl.col + len(cl.text) - len(cl.text.lstrip())
                        for key, kind in ((caps_heading_text(cl.text, _LONE_OPTIONS), AnchorKind.CAPS),
                                          (_line_title(cl.text), AnchorKind.TITLE)):
                            if key and key not in found:
                                found[key] = replace(Anchor.make(cl.text.strip(), kind, cl.line, col),
                                                     repo=repo, path=path)
        return found.get(name) or found.get(_line_title(name))

    def titled_notes(self, repo: str) -> dict[str, Anchor]:
        """The Notes a repo defines by a title alone on its line (`-- Note [X]` over its
        body, Clash's and primitive's way, and not GHC's `~~~`), by name: only in a repo
        that writes Notes so at least a tenth as often as with a rule (GHC, with
        thousands ruled, cites Notes so: there they are citations).
        Built on first need from its title-shaped Note citations (citations.py)."""
        found = self._titled.get(repo)
        if found is None:
            found = self._titled[repo] = {}
            snap = self.snapshots.get(repo)
            titles = [r for r in of_kind(snap.references, RefKind.NOTE) if r.claim == "title"] if snap else []
            ruled = sum(a.kind is AnchorKind.NOTE for a in snap.anchors) if snap else 0
            if titles and len(titles) * 10 >= ruled:  # (GHC: thousands ruled, a few titles)
                for ref in titles:
                    title = Anchor.make(ref.name or "", AnchorKind.NOTE, ref.line, ref.col)
                    found.setdefault(ref.name or "", replace(title, repo=repo, path=ref.path))
        return found

    def snippets(self, where: FileId) -> list[FileId]:
        """The files a Markdown page includes with pymdownx.snippets (`--8<-- "x.md"`),
        from its site's folder (snippets' base path) or the repo's root; read on need."""
        found = self._snippets.get(where)
        if found is None:
            found = self._snippets[where] = []
            repo, path = where
            text = self.text(repo, path) if language_of(path) == "markdown" else None
            if text and "8<" in text:
                site = site_of(self.sites(repo), path)
                bases = [posixpath.dirname(site.config)] if site is not None and site.config else []
                if site is not None and site.renderer == MKDOCS and site.config:
                    # pymdownx.snippets' `base_path:` (knative's `docs/snippets`), from
                    # the config's folder.
                    config = self.text(repo, site.config) or ""
                    bases = [posixpath.normpath(posixpath.join(bases[0], b.strip("'\" ")))
                             for m in _SNIPPET_BASES.finditer(config)
                             for b in m.group(1).strip("[]").split(",") if b.strip("'\" ")] + bases
                for m in _SNIPPET_LINE.finditer(text):
                    for base in [*bases, ""]:
                        candidate = posixpath.normpath(posixpath.join(base, m.group(1)))
                        if self.has_file(repo, candidate):
                            found.append((repo, candidate))
                            break
            if text and "include" in text and "{{" in text:
                # A Hugo include shortcode (`{{% include "/_common/x.md" %}}`): GetPage's
                # path, from the page's folder or the content root, `.md` optional.
                site = site_of(self.sites(repo), path)
                # (A site mounting a language's folder as its content: hugoDocs' content/en.)
                root = site.root if site is not None else ""
                root = next(iter(language_root(root, path)), root)
                for m in _HUGO_INCLUDE.finditer(text):
                    target = m.group(1).strip()
                    names = (target,) if target.endswith(".md") else (f"{target}.md", f"{target}/index.md")
                    folders = (root,) if target.startswith("/") else (posixpath.dirname(path), root)
                    tried = (posixpath.normpath(posixpath.join(b, n.lstrip("/")))
                             for b in folders for n in names)
                    hit = next((c for c in tried if self.has_file(repo, c)), None)
                    if hit is not None:
                        found.append((repo, hit))
            if text and "file=" in text and "{{" in text:
                # A Hugo shortcode reading a file (porter's `{{% readfile
                # file="/sources/CONTRIBUTING.md" markdown="true" %}}`): from the site's
                # folder (readFile's working directory), else the page's; a symlink there
                # is its target's text.
                site = site_of(self.sites(repo), path)
                if site is not None and site.renderer == HUGO:
                    home = posixpath.dirname(site.config) if site.config else site.root
                    for m in _SHORTCODE_FILE.finditer(text):
                        target = m.group(1).strip()
                        tried = (posixpath.normpath(posixpath.join(b, target.lstrip("/")))
                                 for b in (home, posixpath.dirname(path)))
                        hit = next((c for c in tried if self.has_file(repo, c)), None)
                        hit = self.followed_link(repo, hit) if hit is not None else None
                        if hit is not None and language_of(hit) == "markdown":
                            found.append((repo, hit))
            if text and "@include:" in text:
                # VitePress' `<!--@include: ./cli-generated.md-->`, from the page's folder
                # (`@/` from the site's source root).
                site = site_of(self.sites(repo), path)
                for m in _VITEPRESS_INCLUDE.finditer(text):
                    target = m.group(1).strip().partition("{")[0].partition("#")[0]
                    root = site.root if site is not None else ""
                    candidate = posixpath.normpath(posixpath.join(root, target[2:]) if target.startswith("@/")
                                                   else posixpath.join(posixpath.dirname(path), target))
                    if self.has_file(repo, candidate):
                        found.append((repo, candidate))
        return found

    def followed_link(self, repo: str, path: str) -> str | None:
        """A file's path, or a symlink's target's within the repo (None where it leads
        out of it or nowhere): read from git on need."""
        if self.unread_reason(repo, path) != "symlink":
            return path
        snap, spec = self.snapshots.get(repo), self.repos.get(repo)
        oid = snap.oids.get(path) if snap is not None else None
        if oid is None or spec is None:
            return None
        try:
            data = next((d for _, d in GitRepo(spec.path).read_blobs([oid])), None)
        except GitError:
            return None
        if not data:
            return None
        target = posixpath.normpath(posixpath.join(posixpath.dirname(path), data.decode("utf-8", "replace")))
        return target if not target.startswith("../") and self.has_file(repo, target) else None

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

    def m4_anchors(self, where: FileId) -> list[Anchor]:
        """The anchors a page m4 preprocesses may show (hledger's manual, hledger.m4.md:
        its macros include each command's page from the folders below it): those of
        every Markdown file under its folder; [] for a page m4 does not read."""
        found = self._m4.get(where)
        if found is None:
            repo, path = where
            text = self._page_text(where)
            folder = posixpath.dirname(path)
            below = folder + "/" if folder else ""
            found = self._m4[where] = [] if not text or _M4.search(text) is None else [
                a for (r, p), anchors in self.by_file.items() if r == repo and p != path
                and p.startswith(below) and language_of(p) == "markdown" for a in anchors]
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

    def vendored_project(self, repo: str, path: str) -> bool:
        """Whether a file lies in another project's copy: a folder that holds its own
        licence and is named as a copy (`vendor/...`, or with a version:
        consul-k8s's `gateway-api-0.7.1-custom/`). A site's versioned docs
        (`v1.18-docs/`, `version-7.2/`) hold no licence: they are the repo's own."""
        parts = path.split("/")[:-1]
        for i in range(len(parts), 0, -1):
            folder = "/".join(parts[:i])
            if (copied_path(folder + "/") or _VERSIONED_NAME.search(parts[i - 1])) and any(
                    self.has_file(repo, f"{folder}/{name}") for name in _LICENCES):
                return True
        return False

    def generated(self, repo: str, path: str) -> bool:
        """Whether a tool wrote this file, as its text says near its top (happy's
        generated parsers, which copy its template's Notes): read on first need."""
        found = self._generated_files.get((repo, path))
        if found is None:
            text = self.text(repo, path)
            found = self._generated_files[(repo, path)] = text is not None and generated_text(text)
        return found

    def text(self, repo: str, path: str) -> str | None:
        """A file's text, read from git (a second, small read, for the few files a
        resolution needs more of)."""
        return self.texts(repo, [path]).get(path)

    def texts(self, repo: str, paths: list[str]) -> dict[str, str]:
        """Several files' texts, read from git in one pass (those it can read)."""
        snap, spec = self.snapshots.get(repo), self.repos.get(repo)
        if snap is None or spec is None:
            return {}
        oids: dict[str, list[str]] = defaultdict(list)
        for path in paths:
            oid = snap.oids.get(path)
            if oid is not None and self.unread_reason(repo, path) is None:
                oids[oid].append(path)
        found: dict[str, str] = {}
        if not oids:
            return found
        wanted = list(oids)
        try:
            reader = self._reader(spec.path)
            for oid, data in zip(wanted, reader.stream(wanted), strict=True):
                text = decode_blob(data)[0] if data is not None else None
                if text is not None:
                    found.update((path, text) for path in oids[oid])
        except GitError:
            self._drop_reader(spec.path)
            return found
        except BaseException:
            self._drop_reader(spec.path)  # (part of its answer may be unread: never reused)
            raise
        return found

    def _reader(self, path: Path) -> BlobReader:
        """One `git cat-file --batch` per repo for the index's life, for texts(): each
        page a fragment was not found on is read on its own (m4_anchors, builds_anchors),
        and a process started for each took 0.42 s of kubernetes/community's Markdown
        check (105 pages). Closed when the index goes."""
        reader = self._readers.get(path)
        if reader is None:
            reader = self._readers[path] = BlobReader(GitRepo(path).git_dir)
        return reader

    def _drop_reader(self, path: Path) -> None:
        reader = self._readers.pop(path, None)
        if reader is not None:
            reader.close()

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

    def site_of(self, repo: str, path: str) -> Site | None:
        """The site that shows this Markdown file, or None: GitHub shows it."""
        return site_of(self.sites(repo), path)

    def has_file(self, repo: str, path: str) -> bool:
        snap = self.snapshots.get(repo)
        return snap is not None and (path in snap.paths or path.rstrip("/") in self.dirs(repo))


class _FilesByName:
    """One snapshot's paths by base name, for path references (which match the files
    they are a suffix of). A table of every path costs GHC's 25k paths ~20 ms, a fifth
    of a merge-order run that asks about ~20 names; so the first questions are answered
    by `str.find` in all the paths joined into one text (~0.1 ms each; from the
    snapshot cache that text comes as it is stored, LazyPaths), and the table is built
    only for a repo asked more often (a check asks hundreds). The paths are joined by
    NUL, which no git path holds."""

    _SEARCHES = 32

    def __init__(self, paths: AbstractSet[str]) -> None:
        self._paths = paths
        self._joined: str | None = None
        self._table: dict[str, list[str]] | None = None
        self._found: dict[str, list[str]] = {}  # by base name, what _search found
        self._asked = 0  # different names searched

    def named(self, base: str) -> Sequence[str]:
        """The paths whose base name is `base`."""
        if self._table is None:
            # A name asked again is answered from what the search found: references
            # repeat names (the bench's PR cites one file 20 times: 160 searches of
            # every repo's joined paths, 21 ms, for 8 different questions).
            found = self._found.get(base)
            if found is not None:
                return found
            self._asked += 1
            if self._asked <= self._SEARCHES:
                found = self._found[base] = self._search(base)
                return found
            table: dict[str, list[str]] = defaultdict(list)
            for path in self._paths:
                table[path.rpartition("/")[2]].append(path)
            self._table = table
        return self._table.get(base, ())

    def _search(self, base: str) -> list[str]:
        if self._joined is None:
            paths = self._paths
            inner = paths.nul_joined if isinstance(paths, LazyPaths) else "\0".join(paths)
            self._joined = f"\0{inner}\0"
        text = self._joined
        if not base or "\0" in base:
            return []  # no path ends with a slash or holds a NUL
        out = []
        needle = base + "\0"
        i = text.find(needle, 1)
        while i >= 0:
            if text[i - 1] in "/\0":  # the whole base name, not the end of a longer one
                out.append(text[text.rfind("\0", 0, i) + 1:i + len(base)])
            i = text.find(needle, i + 1)
        return out
