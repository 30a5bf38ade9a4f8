"""Shared phrasing for rule messages, so every rule names places the same way."""

from __future__ import annotations

from anchorcheck.anchor import Anchor
from anchorcheck.reference import Reference

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
