"""What every part of the Resolver shares: the index it asks, the workspace's options
(`ignore-targets`, `ignore-evidence`, heading options), the caches its parts fill, and
whose rules a reference is judged by (the site that shows its file, or GitHub). The
Resolver (resolver.py) is put together by concern from subclasses of this one
(locations.py, pages.py, fragments.py, names.py): one constructor, one set of caches."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence

from anchorcheck.extract.headings import HeadingOptions
from anchorcheck.extract.languages import language_of
from anchorcheck.model.anchor import Anchor
from anchorcheck.model.reference import Reference
from anchorcheck.resolve.resolution import FileId, Resolution
from anchorcheck.resolve.sites import ANY_SITE, Site
from anchorcheck.resolve.suggest import Suggester
from anchorcheck.resolve.workspace_index import WorkspaceIndex


class ResolverBase:
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
