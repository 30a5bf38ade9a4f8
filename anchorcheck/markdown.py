"""Markdown: headings are anchors (cited by GitHub slug), prose blocks hold references.

markdown-it-py gives block structure with source line maps; prose is taken from the
source lines themselves so link syntax and columns survive. Code blocks are not prose.
"""

from __future__ import annotations

from markdown_it import MarkdownIt
from markdown_it.token import Token

from anchorcheck.anchor import Anchor, AnchorKind, fold_space, github_slug
from anchorcheck.comment import Comment, CommentLine

# Block structure only: inline parsing of every paragraph costs most of the time and
# is superlinear on hostile emphasis runs; only headings need it (see _plain_text).
_PARSER = MarkdownIt("commonmark").disable("inline")
_INLINE = MarkdownIt("commonmark")
_MAX_HEADING = 500
_PROSE_OPEN = frozenset({"paragraph_open", "html_block"})


def read_markdown(text: str) -> tuple[list[Comment], list[Anchor]]:
    tokens = _PARSER.parse(text)
    lines = text.split("\n")
    comments: list[Comment] = []
    anchors: list[Anchor] = []
    seen_slugs: dict[str, int] = {}
    for i, tok in enumerate(tokens):
        if tok.type == "heading_open" and tok.map is not None:
            title = fold_space(_plain_text(tokens[i + 1].content))
            if not title:
                continue
            slug = github_slug(title)
            # GitHub numbers repeated slugs: the second "Usage" is #usage-1.
            n = seen_slugs.get(slug, 0)
            seen_slugs[slug] = n + 1
            if n:
                slug = f"{slug}-{n}"
            line = tok.map[0] + 1
            col = len(lines[tok.map[0]]) - len(lines[tok.map[0]].lstrip())
            anchors.append(Anchor.make(title, AnchorKind.MARKDOWN, line, col, slug))
            comments.append(_block(lines, tok.map[0], tok.map[1], "heading"))
        elif tok.type in _PROSE_OPEN and tok.map is not None:
            comments.append(_block(lines, tok.map[0], tok.map[1], "prose"))
    return comments, anchors


def _block(lines: list[str], start: int, end: int, kind: str) -> Comment:
    body = tuple(
        CommentLine(n + 1, 0, lines[n].rstrip("\r")) for n in range(start, min(end, len(lines)))
    )
    return Comment(body or (CommentLine(start + 1, 0, ""),), own_line=True, kind=kind)


def _plain_text(source: str) -> str:
    """The heading as GitHub renders it: emphasis and link markup gone, code kept."""
    if len(source) > _MAX_HEADING:
        return source
    tokens = _INLINE.parseInline(source)
    children: list[Token] = (tokens[0].children or []) if tokens else []
    parts = []
    for child in children:
        if child.type in ("text", "code_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
        elif child.type == "html_inline":
            continue
    return "".join(parts)
