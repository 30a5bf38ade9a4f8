"""Extraction: one blob's text in, its anchors and references out.

The output depends only on the blob's content, its language and the options, never
on its path or repo, so it can be cached by blob id.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from anchorcheck.anchor import Anchor
from anchorcheck.citations import TRIGGER, find_references
from anchorcheck.headings import ANCHOR_HINT, HeadingOptions, find_anchors
from anchorcheck.markdown import read_markdown
from anchorcheck.reference import Reference
from anchorcheck.scanners import scan

EXTRACTOR_VERSION = 1

# A comment block is only built when it may hold an anchor or a reference.
_INTEREST = re.compile(f"{ANCHOR_HINT.pattern}|{TRIGGER.pattern}")


@dataclass(frozen=True, slots=True)
class ExtractOptions:
    headings: HeadingOptions = field(default_factory=HeadingOptions)
    markdown: bool = True


@dataclass(frozen=True, slots=True)
class BlobIndex:
    anchors: tuple[Anchor, ...]
    references: tuple[Reference, ...]
    comments: int
    line_count: int


def extract(text: str, language: str, options: ExtractOptions) -> BlobIndex:
    if language == "markdown":
        comments, md_anchors = read_markdown(text)
        anchors = md_anchors if options.markdown else []
    else:
        comments = scan(text, language, keep=_INTEREST)
        anchors = list(find_anchors(comments, options.headings))
    refs = [ref for comment in comments for ref in find_references(comment)]
    return BlobIndex(
        tuple(anchors), tuple(refs), len(comments), text.count("\n") + (not text.endswith("\n"))
    )
