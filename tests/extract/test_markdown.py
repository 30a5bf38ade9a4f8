"""The Markdown block reader against markdown-it-py, the parser it replaced.

The reader is compared on generated documents (blocks of every kind, nested block
quotes and list items, lazy lines, tabs): the same headings at the same lines with the
same text, the same prose blocks. One known difference is left out of the grammar:
in a block quote nested in a block quote, markdown-it-py ends a paragraph at a lazy
line indented four or more columns (`> > a` then `    # t`), where CommonMark keeps
it as a lazy continuation; the reader does what CommonMark says.
"""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from anchorcheck.extract.blob import ExtractOptions, extract
from anchorcheck.extract.markdown import _MAX_PARSED_HEADINGS, _plain_text
from anchorcheck.extract.markdown_blocks import document_lines, read_blocks
from anchorcheck.model.anchor import fold_space
from tests.linear import assert_linear, repeated

_BLOCKS = MarkdownIt("commonmark").disable("inline")

_PIECES = [
    "# a", "## b ##", "a", "b c", "", "", "```", "~~~", "````", "    code", "- x", "* y", "+ z",
    "> q", ">", "> # h", "1. y", "2) w", "---", "===", "- - -", "***", "<div>", "</div>",
    "<!-- c", "-->", "  - z", "   # sp", "\t# t", "-", "1.", "<span>", "<pre>", "</pre>",
    "-\tb", "\ta", "  > n", "10. ten", "<script>", "</script>", "<?x", "?>", "```js",
    "``` `x`", "~~~ a`b", "   ```", "\\# esc", "  ---", " ***", '<a href="x">',
    "<DIV class=x>", "   - deep item", "     - five", "  a", "      deep", "> - l", "-    five",
    "#5", "#", "# #", "Title *em*", "# `code` and [link](x.md)",
]


def _reference(text: str) -> list[tuple[str, int, int, str]]:
    tokens = _BLOCKS.parse(text)
    out = []
    for i, tok in enumerate(tokens):
        assert tok.map is not None or tok.type not in ("heading_open", "paragraph_open", "html_block")
        if tok.type == "heading_open" and tok.map is not None:
            out.append(("heading", tok.map[0], tok.map[1], fold_space(tokens[i + 1].content)))
        elif tok.type in ("paragraph_open", "html_block") and tok.map is not None:
            out.append(("prose", tok.map[0], tok.map[1], ""))
    return out


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=12))
def test_blocks_agree_with_markdown_it(pieces: list[str]) -> None:
    text = "\n".join(pieces)
    lines = document_lines(text.split("\n"))
    mine = [(b.kind, b.start, b.end, fold_space(b.title)) for b in read_blocks(lines)]
    assert mine == _reference(text)
    assert read_blocks(lines) == read_blocks(lines, short_ways=False)


# List-heavy documents (meeting notes, four deep), for the short ways of item and blank
# lines in lists: every indentation against the items' content columns. (The reader
# differed from markdown-it-py on some of these until the twenty-sixth session: `-
# four` then `    - f` is a lazy line there, and was indented code here.)
_LIST_PIECES = [
    "- a", "* b", "+ c", "  - d", "   - e", "    - f", "     - g", "      - h", "        - i", "-  two",
    "-    four", "  -   x", "text", "  text", "    text", "      text", "", "", "   ", "1. o", "  2. p",
    "> q", "- > r", "```", "  ```", "- # h", "- ---", "<div>", "- <b>x</b>", "    code", "-", "  -",
    "- \x0cx", "-\ttab", "  * star", "- - nested", "---", "===",
]


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(_LIST_PIECES), min_size=1, max_size=16))
def test_the_short_ways_read_as_the_general_way(pieces: list[str]) -> None:
    lines = document_lines("\n".join(pieces).split("\n"))
    assert read_blocks(lines) == read_blocks(lines, short_ways=False)


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.sampled_from(_LIST_PIECES), min_size=1, max_size=16))
@example(["   - e", "    - f"])
@example(["*   Pulls", "    *    Removing (@x)", "        *   https://github.com/k/k/pull/1", "        *   b"])
def test_list_blocks_agree_with_markdown_it(pieces: list[str]) -> None:
    """A list item 4 or more columns past its list's markers, before the item's content,
    is text of the paragraph above it (kubernetes/community's meeting notes: two PR
    URLs so were read as indented code, and their references lost; pulldown-cmark and
    markdown-it-py read them as text)."""
    text = "\n".join(pieces)
    lines = document_lines(text.split("\n"))
    assert [(b.kind, b.start, b.end, fold_space(b.title)) for b in read_blocks(lines)] == _reference(text)


def test_code_is_not_read_for_headings_or_prose() -> None:
    doc = "# Real\n\n```sh\n# not a heading\nsee NOTHING HERE in x.py\n```\n\n    # indented code\n"
    blocks = read_blocks(document_lines(doc.split("\n")))
    assert [(b.kind, b.start) for b in blocks] == [("heading", 0)]


def test_heading_text_is_rendered_as_github_slugs_it() -> None:
    got = extract("# `check` and [the *design*](d.md)\nSetext `x`\n===\n", "markdown", ExtractOptions())
    assert [(a.name, a.slug, a.line) for a in got.anchors] == [
        ("check and the design", "check-and-the-design", 1), ("Setext x", "setext-x", 2)]


def test_headings_past_the_parse_budget_are_approximated_sanely() -> None:
    sources = ["`a` b", "[a](b.md)", "*em* _x_", "snake_case", "![img](i.png) t", "a\\_b", "<b>x</b>"]
    doc = "".join(f"# *h{i}*\n" for i in range(_MAX_PARSED_HEADINGS))
    doc += "".join(f"# {s}\n" for s in sources)
    anchors = extract(doc, "markdown", ExtractOptions()).anchors
    assert len(anchors) == _MAX_PARSED_HEADINGS + len(sources)
    # Past the budget the titles match what the inline parser gives for these shapes.
    assert [a.name for a in anchors[-len(sources):]] == [fold_space(_plain_text(s)) for s in sources]


def test_a_hundred_kb_of_one_line_blocks_is_read_in_linear_time() -> None:
    # markdown-it-py's block parser took 1.2-1.7 s on these; the reader takes a tenth.
    # (It asserted under a second of wall time, which failed on a loaded 2-core
    # machine; the bound is now the growth of CPU time with the input: tests/linear.py.)
    for unit in ["#\n", "# a\n", "- a\n", "a\n\n", "# *a*\n", "# [a](b)\n", "# `a`\n", "1. a\n  b\n",
                 "> - a\n", "a\n-\n", "<div>\n\n", "[a\nb](c)\n", "<!-- [a](b)\n"]:
        assert_linear(lambda text: extract(text, "markdown", ExtractOptions()), repeated(unit), label=unit)


def test_ids_given_by_hand_are_anchors() -> None:
    doc = (
        "# Why use it? {#why}\n\n"                                        # 1: attribute list
        "### Implementing `x` <a name=\"implementing_x\"></a>\n\n"        # 3: HTML in a heading
        "Text <span id='Strict.Lax'>here</span>.\n\n"                      # 5: any tag's id
        "!!! note\n    Something.\n    {: #field-after-validator }\n\n"   # 9: alone on its line
        "[](){#typeddict}\n\n"                                             # 11: mkdocs-autorefs
        "```\n<a id=\"in-code\"></a>\n{#in-code-too}\n```\n"               # code: none
        "\n<h3 name=\"config\">\nDoes it read a config file?\n</h3>\n"            # 18: any tag's name
    )
    anchors = [(a.name, a.slug, a.line) for a in extract(doc, "markdown", ExtractOptions()).anchors]
    assert anchors == [
        ("Why use it?", "why", 1), ("Implementing x", "implementing-x", 3),
        ("implementing_x", "implementing_x", 3), ("Strict.Lax", "Strict.Lax", 5),
        ("field-after-validator", "field-after-validator", 9), ("typeddict", "typeddict", 11),
        ("config", "config", 18),
    ]


def test_links_as_commonmark_reads_them() -> None:
    """Wrapped link text, brackets inside it, '' and () titles, a space before `)`,
    an empty target; nothing inside an HTML comment; `name=` unquoted."""
    doc = ("# Title\n\nSee [the long\nguide](docs/guide.md#setup), [a [nested] text](b.md 'single'),\n"
           "[sp](c.md ), [paren](d.md (title)), [empty]() and [](){#autoref}.\n\n"
           "<!-- [hidden](nowhere.md)\n[also hidden](nowhere2.md) -->\n"
           "Text <!-- inline [hid](no.md) --> [shown](e.md).\n\n<a name=install></a>\n")
    result = extract(doc, "markdown", ExtractOptions())
    refs = [(r.line, r.target_path, r.name) for r in result.references]
    assert refs == [(3, "docs/guide.md", "setup"), (4, "b.md", None), (5, "c.md", None), (5, "d.md", None),
                    (5, "", None), (9, "e.md", None)]
    # (mkdocs-autorefs' `[](){#autoref}` gives an id inline too, as attr_list does.)
    assert [a.name for a in result.anchors] == ["Title", "autoref", "install"]
