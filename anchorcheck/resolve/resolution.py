"""What resolving a reference gives: its status, why it was not judged, and the
files and anchors it landed on (the vocabulary the resolver, the rules and the
reports share)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from anchorcheck.model.anchor import (
    Anchor,
)
from anchorcheck.model.reference import Reference

FileId = tuple[str, str]  # (repo, path)


class Status(StrEnum):
    RESOLVED = "resolved"
    DANGLING = "dangling"  # AC101
    WRONG_LOCATION = "wrong-location"  # AC102
    AMBIGUOUS = "ambiguous"  # AC103
    UNKNOWN_REPO = "unknown-repo"  # AC104
    DANGLING_PATH = "dangling-path"  # AC105
    # Not ours to check: a URL into a repo outside the workspace, or a page of generated
    # documentation (`struct.Runtime.html` in a Rust doc comment) that no file is.
    EXTERNAL = "external"


class Unchecked(StrEnum):
    """Why an extracted reference was not judged (issue 40: nothing dropped in silence).
    Every EXTERNAL resolution carries one, and so does a resolved one whose fragment
    was not checked; `refs --unresolved` lists them, `check -v` counts them."""

    ISSUE = "forge-issue"  # asked of the forge by AC106/AC107, with a token
    IGNORED = "config-ignored"  # the workspace config says so: `ignore-targets`, `ignore-evidence`
    OUTSIDE = "outside-workspace"  # a URL into a repo the workspace does not hold
    BUILT_PAGE = "built-page"  # a page or anchor a documentation tool builds from code
    BUILD_OUTPUT = "build-output"  # a path git ignores, or a site mounts from outside the repo: a build's
    PLACEHOLDER = "placeholder"  # `path/to/file.md`, `../foo/bar.md`
    HTML_PAGE = "generated-html"  # an `.html` page that no file is
    HADDOCK_IDENT = "haddock-identifier"  # Haddock's `'process'` links an identifier
    FOREIGN_LINE = "bare-file-line-elsewhere"  # `server.go:1048` pasted from another project's log
    COMPILER_OUTPUT = "many-namesakes"  # `Foo.hs:7` that dozens of files are named
    PROJECT_SITE = "project-site"  # a doc comment's root-relative link to the project's website
    SHARED_TITLE = "shared-title"  # a title many documents share, named with no place
    QUOTED_PROSE = "quoted-prose"  # a quoted phrase that is no heading's shape
    FOREIGN_MODULE = "module-outside-workspace"  # `Note [X] in GHC.IO.Unsafe`: base's
    UPSTREAM_COPY = "upstream-copy"  # a vendored copy cites its upstream's Notes and files
    CHANGELOG = "changelog"  # a changelog's links are records of the past (index/plan.is_history)
    SITE_ROUTE = "site-route-in-code"  # a page URL a site routes by code (Astro's `[...slug].astro`)
    SITE_BUILD = "site-build-checked"  # a page link of a site whose build fails on a broken one
    RENDER_HOOK = "link-render-hook"  # a destination a site's render hook makes its own (hugoDocs' `g`)
    ALIAS = "path-alias"  # `@assets/a.svg`: a bundler's alias that maps to no folder of that name
    HOST_REDIRECT = "host-redirect"  # a page URL the site's host redirects (netlify.toml, _redirects)
    SITE_GAP = "site-model-gap"  # a page link of a site most of whose links the model cannot follow
    PROSE_UNCONFIRMED = "prose-unconfirmed"  # a path in a sentence nothing else says is one
    TEST_INPUT = "test-input"  # a Markdown document in a test folder: a parser's or site's input
    DRAFT_CHAPTER = "draft-chapter"  # mdBook's `[Title]()` in its SUMMARY.md: a chapter not written yet
    INCLUDED = "included-file"  # an include file's `#x` or relative link: the including page's
    FORGE_PAGE = "forge-page"  # `../../graphs/contributors` from a README: a page of GitHub's own
    URL_SCHEME = "url-scheme"  # `[x](zotero:item)`: a link's scheme that names no workspace repo
    # Resolved, fragment not checked:
    BUILT_FRAGMENT = "built-fragment"  # an id a build generates (`#gateway.networking.k8s.io/v1`)
    RENDERER_UNKNOWN = "renderer-unknown"  # pandoc's id (`#module-pandoc.text`) in a repo with no site
    FILE_FRAGMENT = "file-fragment"  # an image's or data file's fragment (`logo.png#only-light`)
    FOLDER_FRAGMENT = "folder-without-page"  # a folder's fragment, and the folder shows no page


@dataclass(frozen=True, slots=True)
class Resolution:
    """`anchors` are what the reference resolved to; for a wrong location, where the
    anchor really is; for an ambiguous one, the candidates. `files` likewise."""

    reference: Reference
    status: Status
    anchors: tuple[Anchor, ...] = ()
    files: tuple[FileId, ...] = ()
    suggestions: tuple[str, ...] = ()
    # Resolved by a documentation site's rules only: where GitHub shows the page too
    # (a folder's README), the link is broken there (AC108). The site's name.
    site_only: str | None = None
    github_lacks: str = ""  # with site_only: "file", or "fragment" where GitHub shows the file
    # Why it was not judged (EXTERNAL), or why a resolved one's fragment was not.
    unchecked: Unchecked | None = None

    def __post_init__(self) -> None:
        if self.status is Status.EXTERNAL and self.unchecked is None:
            raise ValueError(f"an unchecked reference needs its reason: {self.reference.text!r}")
