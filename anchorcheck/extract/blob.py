"""Extraction: one blob's text in, its anchors and references out.

The output depends only on the blob's content, its language and the options, never
on its path or repo, so it can be cached by blob id.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from anchorcheck.extract.citations import find_references
from anchorcheck.extract.claims import find_mentions
from anchorcheck.extract.headings import (
    HeadingOptions,
    find_anchors,
    haddock_anchors,
    markdown_notes,
    raw_notes,
    rust_doc_headings,
)
from anchorcheck.extract.scanners import scan
from anchorcheck.extract.triggers import MARKDOWN_KEEP, keep_test
from anchorcheck.model.anchor import Anchor, AnchorKind
from anchorcheck.model.comment import JoinedText
from anchorcheck.model.pickling import by_constructor
from anchorcheck.model.reference import Reference, RefKind
from anchorcheck.model.suppression import Suppression, find_suppressions

EXTRACTOR_VERSION = 75  # 74: source FILE#name( a symbol; 75: a quoted name after a URL is its page's


@dataclass(frozen=True, slots=True)
class ExtractOptions:
    """The settings that change what extraction finds (part of every cache key)."""

    headings: HeadingOptions = field(default_factory=HeadingOptions)
    markdown: bool = True


@by_constructor
@dataclass(frozen=True, slots=True)
class BlobIndex:
    """What one blob holds, whatever its path: the extraction's result, cached by blob id."""

    anchors: tuple[Anchor, ...]
    references: tuple[Reference, ...]
    comments: int
    line_count: int
    # Code-shaped mentions (`name`, name()), first place of each name in the blob.
    mentions: tuple[tuple[str, int, int], ...] = ()
    suppressions: tuple[Suppression, ...] = ()


def extract(text: str, language: str, options: ExtractOptions) -> BlobIndex:
    titled: set[int] = set()  # lines of Markdown headings that define a Note
    if language == "markdown":
        # Imported here: markdown-it costs every run its import time, and most runs
        # (warm ones, PRs that touch no Markdown) parse no Markdown at all.
        from anchorcheck.extract.markdown import read_markdown, used_definitions

        # Caps headings are not read in Markdown (its anchors are its headings).
        comments, md_anchors = read_markdown(text, keep=MARKDOWN_KEEP)
        anchors = md_anchors if options.markdown else []
        definitions = None
        joined = [JoinedText.of(comment) for comment in comments]
        if options.headings.notes and ("Note [" in text or "Note[" in text):
            styles = options.headings.note_styles
            notes = [*(markdown_notes(md_anchors) if "markdown" in styles else ()),
                     *(raw_notes(text) if "rule" in styles and "~~~" in text else ())]
            anchors = [*anchors, *notes]
            titled = {a.line for a in notes}  # (a heading's own `Note [X]` cites nothing)
    else:
        comments = scan(text, language, keep=keep_test(options.headings, language == "haskell"))
        # Each block's lines joined once, for all that reads them whole.
        joined = [JoinedText.of(comment) for comment in comments]
        anchors = list(find_anchors(comments, options.headings, [j.text for j in joined]))
        # Where the Note definitions are, for find_references (which skips them): found
        # here already, when Notes are anchors.
        definitions = {(a.line, a.col) for a in anchors if a.kind is AnchorKind.NOTE} \
            if options.headings.notes else None
        if language == "haskell":
            anchors.extend(haddock_anchors(comments))
        elif language == "rust" and options.markdown and "//" in text:
            anchors.extend(rust_doc_headings(text))
    refs: list[Reference] = []
    mentions: dict[str, tuple[str, int, int]] = {}
    suppressions: list[Suppression] = []
    markdown = language == "markdown"  # (its blocks were kept for their triggers: MARKDOWN_KEEP)
    for comment, whole in zip(comments, joined, strict=True):
        found = find_references(comment, whole, definitions, triggered=markdown)
        if titled:  # (a Markdown heading's own `Note [X]` defines it, cites nothing)
            found = (r for r in found if not (r.kind is RefKind.NOTE and r.line in titled))
        refs.extend(found)
        for name, line, col in find_mentions(whole):
            mentions.setdefault(name, (name, line, col))
        if "anchorcheck:" in whole.text:  # (no marker is cut by a line break)
            suppressions.extend(find_suppressions(comment))
    if language == "markdown" and "]:" in text:
        refs = used_definitions(text, refs)
    return BlobIndex(
        tuple(anchors), tuple(refs), len(comments), text.count("\n") + (not text.endswith("\n")),
        tuple(mentions.values()), tuple(suppressions),
    )
