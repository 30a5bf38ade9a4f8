"""Markdown: headings are anchors (cited by GitHub slug), prose blocks hold references.

The heading and prose blocks come from a reader of CommonMark's block rules
(markdown_blocks.py); here they become Comments, and anchors: each heading by its
GitHub slug, and the ids given by hand (`{#id}`, `id="x"`, MyST targets and names).

markdown-it-py still renders a heading's inline markup to the text GitHub slugs
(`_plain_text`).
"""

from __future__ import annotations

import html
import itertools
import re
from collections.abc import Callable, Iterator

from markdown_it import MarkdownIt
from markdown_it.token import Token

from anchorcheck.extract.markdown_blocks import Block, document_lines, read_blocks
from anchorcheck.model.anchor import Anchor, AnchorKind, fold_space, github_slug, rendered_text
from anchorcheck.model.comment import Comment, CommentLine
from anchorcheck.model.reference import Reference
from anchorcheck.patterns import compiled_on_use

_INLINE = MarkdownIt("commonmark")
_MAX_HEADING = 500
# markdown-it-py's inline parser costs 40-100 µs a heading: a file of 10,000 short
# headings with markup took a second. Past this many parsed headings a file's further
# headings are rendered by `rendered_text` instead (no real document comes close).
_MAX_PARSED_HEADINGS = 1000
# A heading without any of these renders as its own source text (folded later), so
# the inline parser, the costliest step per heading, is skipped for it.
_INLINE_MARKUP = frozenset("*_`[]<>!&\\")


def read_markdown(
    text: str, keep: Callable[[str, int, int], bool] | None = None
) -> tuple[list[Comment], list[Anchor]]:
    """Comments for the heading and prose blocks, and an anchor per heading. With
    `keep`, a block becomes a Comment only if `keep(block text, 0, len)` holds
    (headings are anchors either way), as `scanners.scan` does for code comments; a
    KeepTest is asked of all the blocks at once."""
    lines = text.split("\n")
    comments: list[Comment] = []
    anchors: list[Anchor] = []
    seen_slugs: dict[str, int] = {}
    parsed = 0
    blocks = read_blocks(document_lines(lines))
    starts = [0, *itertools.accumulate(map((1).__add__, map(len, lines)))]  # line offsets
    last = len(lines)
    spans = [(starts[b.start], starts[min(b.end, last)] - 1) for b in blocks]
    select = getattr(keep, "select", None)
    if select is not None:  # a KeepTest: every block tested at once
        kept = select(text, spans)
    else:
        kept = [keep is None or keep(body := "\n".join(lines[b.start:b.end]), 0, len(body)) for b in blocks]
    # Ids given by hand need a `{`, a `)=` or an HTML attribute (`<`, `=`) in their block:
    # most blocks of most files have none, and each line of each was tested in Python.
    ids = "{" in text or ")=" in text or ("<" in text and "=" in text)
    find = text.find
    for block, keep_block, (a, b) in zip(blocks, kept, spans, strict=True):
        if block.kind == "heading":
            source, custom = block.title, _ATTRIBUTES.search(block.title)
            if custom is not None:  # `## Type hints {#type-hints}`: its id is the fragment
                source = source[:custom.start()]
            if parsed < _MAX_PARSED_HEADINGS or _INLINE_MARKUP.isdisjoint(source):
                parsed += not _INLINE_MARKUP.isdisjoint(source)
                title = fold_space(_plain_text(source))
            else:
                title = fold_space(rendered_text(source))
            if not title:
                continue
            if custom is not None:
                slug = custom.group(1) or custom.group(2)
            else:
                slug = github_slug(title)
                # GitHub numbers repeated slugs: the second "Usage" is #usage-1.
                n = seen_slugs.get(slug, 0)
                seen_slugs[slug] = n + 1
                if n:
                    slug = f"{slug}-{n}"
            first = lines[block.start]
            col = len(first) - len(first.lstrip())
            anchors.append(Anchor.make(title, AnchorKind.MARKDOWN, block.start + 1, col, slug))
        # (A heading's own `<a name="x"></a>` too.)
        if ids and (find("{", a, b) >= 0 or find(")=", a, b) >= 0
                    or (find("<", a, b) >= 0 and find("=", a, b) >= 0)):
            anchors.extend(_explicit_anchors(lines, block))
        if keep_block:
            comments.append(_comment(lines, block))
    if "{" in text and ("```" in text or "~~~" in text or ":::" in text):
        anchors.extend(_fence_ids(lines))
    if ":name:" in text or "{figure-md}" in text:
        anchors.extend(_directive_names(lines))
    return comments, anchors


# A MyST directive's target: its `:name:` option (`:name: a-tip-reference` under
# ```` ```{tip} ````, or an `eval-rst` figure's), or figure-md's argument (`:::{figure-md}
# fig-target`). Sphinx links `#a-tip-reference` and `[](a-tip-reference)` to it from any
# page, as it does a `(target)=` (MyST-Parser's own docs: 5 links so).
_NAME_OPTION = compiled_on_use(r"[ \t>]*:name:[ \t]+([^\s`]{1,200})[ \t]*")
_FIGURE_MD = compiled_on_use(r"[ \t>]*(?:`{3,}|:{3,})\{figure-md\}[ \t]+([^\s`]{1,200})[ \t]*")


def _directive_names(lines: list[str]) -> Iterator[Anchor]:
    for n, line in enumerate(lines):
        if ":name:" in line or "{figure-md}" in line:
            m = _NAME_OPTION.fullmatch(line) or _FIGURE_MD.fullmatch(line)
            if m is not None:
                yield Anchor.make(m.group(1), AnchorKind.MARKDOWN, n + 1, m.start(1), m.group(1))


# Ids given by hand, which sites and GitHub link to as they do to headings: a heading's
# `{#id}` (attribute lists: MkDocs, Pandoc, kramdown, Hugo), an attribute list alone on
# its line (`{: #id }`, MkDocs' for the block above it), and HTML's `id="x"` or
# `name="x"`, in a heading or not. (pydantic's docs link 33 such ids; ripgrep's FAQ
# links 31 `<h3 name="config">`: not only an `<a>`'s name, as GitHub scrolls to any.)
# `{#id}`, `{: #id .class }`, `{ .sh .no-copy #example }`, `{ id=navigation-path }`
_ID_LIST = (r"\{:?[ \t]*(?:[^{}\n#=]*?[ \t])?(?:#([\w.:-]+)|id=[\"']?([\w.:-]+)[\"']?)"
            r"(?:[ \t]+[^{}\n]*)?[ \t]*\}")
_ATTRIBUTES = compiled_on_use(rf"[ \t]*{_ID_LIST}[ \t]*$")
_INLINE_ID = compiled_on_use(r"(?<=[^\s{$%])\{:?[ \t]*#([\w.:-]+)(?:[ \t]+[^{}\n]*)?[ \t]*\}(?!\})")
# A MyST target (Sphinx), `(labels/line-length)=` over a heading: linked to by name
# from any page, `[line length](labels/line-length)` (black's docs: 24 such links).
_MYST_TARGET = compiled_on_use(r" {0,3}\(([^()\s]{1,200})\)=[ \t]*")
# mkdocs-autorefs' anchor: an empty link given an id, `[](){#typeddict}`.
_ANCHOR_LINE = compiled_on_use(rf"[ \t]*(?:\[\]\(\))?{_ID_LIST}[ \t]*")
# (Quoted or not: `<a name=install>` is an anchor too, as HTML and GitHub read it.)
_HTML_ID = compiled_on_use(
    r"""<[A-Za-z][\w-]*[^<>]*?\s(?:id|name)[ \t]*=[ \t]*(?:["']([^"'<>]+)["']|([^\s"'<>=`]+))""")

# A Hugo shortcode given an id (linkerd.io's `{{< warning id=open-relay-warning >}}`):
# its theme's template gives the element that id.
_SHORTCODE_ID = compiled_on_use(r"""\{\{[<%]-?[ \t]*[\w/.-]+[ \t][^{}\n]*?\bid=["']?([\w.:-]+)""")


def html_ids(text: str) -> list[Anchor]:
    """The ids and names an HTML document's elements carry (`<p id="a-word">`), as
    anchors: what a link into an `.html` file may name."""
    found = []
    for n, line in enumerate(text.split("\n"), 1):
        if "=" in line and "<" in line:
            for m in _HTML_ID.finditer(line):
                value = html.unescape(m.group(1) or m.group(2))
                found.append(Anchor.make(value, AnchorKind.MARKDOWN, n, m.start(), value))
    return found


# A definition list's term: a line, then one opening with `: ` (PHP Markdown Extra's
# syntax, Goldmark's definition lists).
_TERM = re.compile(r"(?m)^ {0,3}([^\s:][^\n]*)\n:[ \t]")


def definition_terms(text: str) -> list[Anchor]:
    """A Markdown page's definition list terms, as anchors with GitHub's slug of their
    text: the ids Goldmark gives them with `autoDefinitionTermID` (a Hugo site's
    `parser.autoIDType` is GitHub's by default)."""
    return [Anchor.make(name, AnchorKind.MARKDOWN, text.count("\n", 0, m.start()) + 1, 0, github_slug(name))
            for m in _TERM.finditer(text) if (name := rendered_text(m.group(1)).strip())]


def _explicit_anchors(lines: list[str], block: Block) -> Iterator[Anchor]:
    """The ids given by hand in a prose or HTML block: each an anchor named and slugged
    by its id."""
    for n in range(block.start, min(block.end, len(lines))):
        line = lines[n]
        found: list[re.Match[str]] = []
        if "{" in line:
            attribute = _ANCHOR_LINE.fullmatch(line)
            # (else an attribute list given to the inline element before it:
            # ``**`locale`**{ #mkdocs-locale }``, attr_list's)
            found = [attribute] if attribute is not None else list(_INLINE_ID.finditer(line))
        elif line.rstrip().endswith(")="):
            target = _MYST_TARGET.fullmatch(line)
            found = [target] if target is not None else []
        if not found and "=" in line and "<" in line:
            found = list(_HTML_ID.finditer(line))
        if not found and "{{" in line and "id=" in line:
            found = list(_SHORTCODE_ID.finditer(line))
        for m in found:
            group = 1 if m.group(1) is not None else 2
            name = m.group(group)
            yield Anchor.make(name, AnchorKind.MARKDOWN, n + 1, m.start(group), name)


# A fenced code block given an id (attr_list on the fence: `` ``` { .sh #example } ``).
# (And a custom container's, VitePress' `::: warning In-Source Testing {#in-source-testing}`.)
_FENCE_ID = compiled_on_use(r"[ \t]*(?:`{3,}|~{3,}|:{3,})[^`\n]*?" + _ID_LIST + r"[ \t]*")


def _fence_ids(lines: list[str]) -> Iterator[Anchor]:
    """The ids fenced code blocks are given on their opening fence."""
    for n, line in enumerate(lines):
        if "{" in line and (m := _FENCE_ID.fullmatch(line)) is not None:
            group = 1 if m.group(1) is not None else 2
            yield Anchor.make(m.group(group), AnchorKind.MARKDOWN, n + 1, m.start(group), m.group(group))


def _comment(lines: list[str], block: Block) -> Comment:
    texts = [lines[n].rstrip("\r") for n in range(block.start, min(block.end, len(lines)))]
    if any("<!--" in t for t in texts):
        texts = _without_html_comments(texts)
    body = tuple(CommentLine(block.start + 1 + i, 0, t) for i, t in enumerate(texts))
    return Comment(body or (CommentLine(block.start + 1, 0, ""),), own_line=True, kind=block.kind)


_HTML_COMMENT = compiled_on_use(r"<!--.*?(?:-->|\Z)", re.DOTALL)


_DIRECTIVE = compiled_on_use(r"anchorcheck:[^\n]*?(?=-->|\n|\Z)")


def _without_html_comments(texts: list[str]) -> list[str]:
    """The lines with `<!-- ... -->` blanked (spaces, line breaks kept): what an HTML
    comment holds is not rendered, so its links are no links. An `anchorcheck:`
    directive in one stays: Markdown's suppressions are written so."""
    def blank(m: re.Match[str]) -> str:
        text = m.group(0)
        out = "".join(ch if ch == "\n" else " " for ch in text)
        for d in _DIRECTIVE.finditer(text):
            out = out[:d.start()] + d.group(0) + out[d.end():]
        return out

    return _HTML_COMMENT.sub(blank, "\n".join(texts)).split("\n")


def _single_code_spans(source: str) -> str:
    """Text with single-backtick code spans and no other markup, rendered: `a` b -> a b.
    (Each pair of backticks is a span; an odd one out stays literal.)"""
    parts = source.split("`")
    if len(parts) % 2 == 0:  # an odd number of backticks: the last one stays literal
        parts[-2:] = ["`".join(parts[-2:])]
    out = []
    for i, part in enumerate(parts):
        if i % 2 and len(part) > 1 and part[0] == part[-1] == " " and part.strip(" "):
            part = part[1:-1]  # CommonMark strips one space each side of a code span
        out.append(part)
    return "".join(out)


def _plain_text(source: str) -> str:
    """The heading as GitHub renders it: emphasis and link markup gone, code kept."""
    if len(source) > _MAX_HEADING or _INLINE_MARKUP.isdisjoint(source):
        return source
    if _INLINE_MARKUP.isdisjoint(source.replace("`", "")) and "``" not in source:
        return _single_code_spans(source)
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


_DEFINITION_LABEL = compiled_on_use(r"\[(?P<label>[^\[\]\n]{1,300})\]:")
# A label in brackets, not a definition's (one opening its line, up to 3 spaces in, then
# `:`); kubernetes/community's "selected ... as [election officers]:" is a use.
_DEFINITION_LINE = compiled_on_use(r"[ ]{0,3}\[(?P<label>[^\[\]\n]{1,300})\]:")  # (a line of one)
_LABEL_USE = compiled_on_use(r"\[(?P<label>[^\[\]\n]{1,300})\](?!:)|(?<![^\n])[ ]{0,3}\[[^\[\]\n]{1,300}\]:"
                             r"|\[(?P<used>[^\[\]\n]{1,300})\]:")


def _label_key(label: str) -> str:
    return " ".join(label.split()).casefold()  # CommonMark's label matching


def used_definitions(text: str, refs: list[Reference]) -> list[Reference]:
    """The references without the link reference definitions (`[label]: target`) that
    GitHub renders no link from: one no link uses, or a repeat of a label defined
    before (the first definition wins). Checking those reported links nobody sees. (A
    definition's blob URL the URL scanner read as a reference of its own goes with it:
    kubebuilder's unused `[project]: https://github.com/.../testdata/project-v3/PROJECT`.)"""
    defined = {i: _label_key(m.group("label")) for i, r in enumerate(refs)
               if r.text.startswith("[") and (m := _DEFINITION_LABEL.match(r.text)) is not None}
    urls = [i for i, r in enumerate(refs) if "://" in r.text] if "]:" in text else []
    if urls:
        lines = text.split("\n")
        for i in urls:
            m = _DEFINITION_LINE.match(lines[refs[i].line - 1]) if refs[i].line <= len(lines) else None
            if m is not None:
                defined[i] = _label_key(m.group("label"))
    if not defined:
        return refs
    used = {_label_key(m.group("label") or m.group("used")) for m in _LABEL_USE.finditer(text)
            if m.group("label") or m.group("used")}
    seen: set[str] = set()
    kept = []
    for i, ref in enumerate(refs):
        key = defined.get(i)
        if key is not None:
            if key in seen or key not in used:
                continue
            seen.add(key)
        kept.append(ref)
    return kept
