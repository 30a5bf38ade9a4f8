"""Locations: the files a reference's path names, before any fragment is asked of
them. A blob URL's repo and path, a `repo:path`, a bundler's alias, a link's path
relative to its file (or to the page a docstring is shown on, or to the repos checked
out beside its own), an issue template's links as the forge shows them, and a path
written with no file to be relative to (looked for by its ending in every repo). A
site's pages and URLs are pages.py's; this module decides what to ask, and reads a
miss as a dangling path, an ambiguity, or not ours."""

from __future__ import annotations

import posixpath
import re
from dataclasses import replace

from anchorcheck.extract.languages import language_of
from anchorcheck.model.anchor import AnchorKind
from anchorcheck.model.reference import Reference, RefKind
from anchorcheck.resolve.pages import PAGES, Pages
from anchorcheck.resolve.resolution import FileId, Resolution, Status, Unchecked
from anchorcheck.resolve.sites import (
    ANY_SITE,
    HUGO,
    OPAQUE_ROUTES,
    SPHINX,
    Site,
)

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


# A bundler's alias heading a path (`@assets/a.svg`), not a URL typed after an `@`
# (knative's `[@nealhu](@https://github.com/nealhu)`, a broken link).
_ALIAS = re.compile(r"@[A-Za-z_][\w.-]*/")
# MyST's link schemes (its docs: "Cross-references"), which read as a `repo:path`.
_MYST_SCHEMES = frozenset({"project", "path", "inv"})
# More files than this named as a bare `FILE:N` names: no one of them is meant.
_MANY_NAMESAKES = 5


def without_dots(path: str) -> str:
    """The path without its leading `/`, `./` and `../` parts: what is looked for where
    there is no file to be relative to."""
    path = path.lstrip("/")
    while path.startswith(("./", "../")):
        path = path.partition("/")[2]
    return path


class Locations(Pages):
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
            return self._relative(ref, path)
        # Outside a Markdown link a path has no file to be relative to (pydantic's
        # docstrings: `[Unions]: ../concepts/unions.md#...`): what follows is looked for.
        path = without_dots(path)
        return self._looked_for(ref, path)

    def _relative(self, ref: Reference, path: str) -> tuple[FileId, ...] | Resolution:
        """A link's path relative to its file: an issue template's forge URL, a root-relative
        path, the page it names from the file or, on a site, from the page's URL, its
        translation, its route or its content root."""
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
        return self._not_a_page(ref, path, joined, site)

    def _not_a_page(
        self, ref: Reference, path: str, joined: str, site: Site | None,
    ) -> tuple[FileId, ...] | Resolution:
        """A relative path that names no page from its file or its site: a MyST target's
        name or a reST label, a path from the page that shows a module's docstrings or
        written without its `../`; else a forge page, a place in a sibling repo, or a
        dangling path."""
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
            bare = without_dots(path)
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

    def _looked_for(self, ref: Reference, path: str) -> tuple[FileId, ...] | Resolution:
        """A path with no file to be relative to: in the repo it may name, else the files
        of any repo whose paths end so, one of them singled out where the rest are not meant."""
        named = self._in_named_repo(ref, path)
        if named is not None:
            return named
        if path.lower().endswith(PAGES):
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
