"""Shared phrasing for rule messages, so every rule names places the same way."""

from __future__ import annotations

from anchorcheck.model.anchor import Anchor
from anchorcheck.model.reference import Reference
from anchorcheck.resolve.workspace_index import WorkspaceIndex

FileIds = tuple[tuple[str, str], ...]


def anchor_place(anchor: Anchor) -> str:
    return f"{anchor.repo}:{anchor.path}:{anchor.line}"


def file_text(files: FileIds, ref: Reference) -> str:
    if not files:
        return ref.location_text or "this file"
    return ", ".join(f"{repo}:{path}" for repo, path in files)


def did_you_mean(suggestions: tuple[str, ...]) -> str:
    if not suggestions:
        return ""
    return " (did you mean " + " or ".join(repr(s) for s in suggestions[:3]) + "?)"


def unread_note(index: WorkspaceIndex, files: FileIds) -> str:
    """Why a cited file has no anchors when it was never read (binary, too large,
    excluded, an unreadable object): the reader should know the finding may not be the
    file's fault."""
    notes = []
    for repo, path in files:
        reason = index.unread_reason(repo, path)
        if reason:
            notes.append(f"{repo}:{path} was not read: {reason}")
    return f" ({'; '.join(notes)})" if notes else ""
