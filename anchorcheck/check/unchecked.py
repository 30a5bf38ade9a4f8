"""The references extracted and not judged, each with its reason (issue 40: nothing
dropped in silence). The resolver gives most of them a reason as it declines them; a
changelog's references are dropped before that (index/plan.is_history: records of the
past), so they are extracted again here, for the few commands that list or count them
(`refs --unresolved`, `check -v`)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from anchorcheck.config.workspace import Settings
from anchorcheck.extract.blob import extract
from anchorcheck.extract.languages import language_of
from anchorcheck.index.plan import extract_options, is_history
from anchorcheck.resolve.resolution import Resolution, Status, Unchecked
from anchorcheck.resolve.workspace_index import WorkspaceIndex


def changelog_references(index: WorkspaceIndex, settings: Settings) -> Iterator[Resolution]:
    """Each reference in a changelog or release notes, as not judged (CHANGELOG)."""
    options = extract_options(settings)
    for repo, snap in index.snapshots.items():
        for path in sorted(p for p in snap.paths if is_history(p)):
            language = language_of(path)
            text = index.text(repo, path) if language is not None else None
            if text is None or language is None:
                continue
            for ref in extract(text, language, options).references:
                yield Resolution(replace(ref, repo=repo, path=path), Status.EXTERNAL,
                                 unchecked=Unchecked.CHANGELOG)
