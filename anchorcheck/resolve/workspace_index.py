"""The workspace index: every repo's snapshot, with what resolution asks of it
(anchors by name and by file, paths by name, the pages a site builds, the files a
page includes, a file's text read on demand). The resolver (resolver.py) reads it.

WorkspaceIndex is built in three layers, each its own module: snapshot_files.py
(SnapshotFiles: paths, directories, texts read from git), site_pages.py (SitePages:
what the sites build of the pages), and here the anchors (by name, Notes, by file,
and those read on need: a lone heading, a titled Note, an m4 page's) and the files a
page includes."""

from __future__ import annotations

import posixpath
import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import replace

from anchorcheck.config.workspace import RepoSpec, hosted_slug
from anchorcheck.extract.headings import HeadingOptions, caps_heading_text
from anchorcheck.extract.languages import language_of
from anchorcheck.extract.scanners import scan
from anchorcheck.index.lazy import of_kind
from anchorcheck.model.anchor import (
    Anchor,
    AnchorKind,
)
from anchorcheck.model.reference import Reference, RefKind
from anchorcheck.model.snapshot import SnapshotIndex
from anchorcheck.resolve.resolution import FileId
from anchorcheck.resolve.site_pages import SitePages
from anchorcheck.resolve.sites import (
    HUGO,
    MKDOCS,
    site_of,
)

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


# pymdownx.snippets' base path(s) in a MkDocs config: `base_path: docs/snippets`, `[a, b]`.
_SNIPPET_BASES = re.compile(r"(?m)^[ \t]+base_path[ \t]*:[ \t]*(\[[^\]\n]*\]|[^\s#\[][^#\n]*?)"
                            r"[ \t]*(?:#.*)?$")


# m4 (in its prefixed mode, `m4 -P`) preprocessing a Markdown page: its includes and macros.
_M4 = re.compile(r"\bm4_(?:include|dnl|define)\b")


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



class WorkspaceIndex(SitePages):
    """Lookup tables over every snapshot of the workspace."""

    def __init__(
        self, snapshots: Sequence[SnapshotIndex], repos: Sequence[RepoSpec],
        share: WorkspaceIndex | None = None,
    ) -> None:
        """`share`: another index over some of the same snapshots (merge order builds
        one per set of changes), whose per-repo lookup tables are reused for them."""
        super().__init__(snapshots, repos, share)
        # The anchor tables (by_name, notes, by_file), built when first read: a run that
        # a stored result answers reads none (nor decodes a stored snapshot's anchors).
        self._by_name: dict[str, list[Anchor]] = defaultdict(list)
        self._notes: dict[str, list[Anchor]] = defaultdict(list)
        self._by_file: dict[FileId, list[Anchor]] = defaultdict(list)
        self._built = False
        self._m4: dict[FileId, list[Anchor]] = {}  # see m4_anchors()
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
            self._homes = {name: (spec.url_slug or hosted_slug(spec.path) or "").lower() or None
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

    @property
    def anchors(self) -> Iterable[Anchor]:
        for snap in self.snapshots.values():
            yield from snap.anchors

    @property
    def references(self) -> Iterable[Reference]:
        for snap in self.snapshots.values():
            yield from snap.references

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
