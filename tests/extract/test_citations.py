"""References: every form DESIGN.md lists, found inside comment blocks."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from anchorcheck.extract.blob import ExtractOptions, extract
from anchorcheck.extract.citations import _SEE, see_matches
from anchorcheck.model.reference import RefKind


def refs(src: str, lang: str = "python") -> list[tuple[str, str | None, str | None, str | None]]:
    return [
        (r.kind.value, r.name, r.target_repo, r.target_path)
        for r in extract(src, lang, ExtractOptions()).references
    ]


H = "ROLLBACK ON THE DEGRADED PATH"


@pytest.mark.parametrize("src", [
    f"# see {H} in client/templates/deploy.yaml\n",
    f"# See {H} in client/templates/deploy.yaml.\n",
    f'# see "{H}" in client/templates/deploy.yaml\n',
    f"# see '{H}' in client/templates/deploy.yaml\n",
    f"# see `{H}` in client/templates/deploy.yaml\n",
    f"# see “{H}” in client/templates/deploy.yaml\n",
    f"# see the {H} note in client/templates/deploy.yaml\n",
    f"# per {H} in client/templates/deploy.yaml\n",
    f"# {H} (in client/templates/deploy.yaml)\n",
    f"# client/templates/deploy.yaml § {H}\n",
    f"# client/templates/deploy.yaml#{H}\n",
])
def test_heading_reference_forms(src: str) -> None:
    [(kind, name, repo, path)] = refs(src)
    assert (kind, name, repo, path) == ("heading", H, None, "client/templates/deploy.yaml")


def test_repo_qualified_locations() -> None:
    assert refs(f"# see {H} in client:templates/deploy.yaml\n") == [
        ("heading", H, "client", "templates/deploy.yaml")
    ]
    # `PATH:N` is a line claim, not a repo prefix.
    assert refs(f"# see {H} in deploy.yaml:12\n") == [("heading", H, None, "deploy.yaml")]


def test_reference_wrapped_across_comment_lines() -> None:
    src = "    # we accept it; see ROLLBACK ON THE\n    # DEGRADED PATH in\n    #   client/templates/deploy.yaml\n"
    [r] = extract(src, "python", ExtractOptions()).references
    assert (r.name, r.target_path, r.line, r.col) == (H, "client/templates/deploy.yaml", 1, 20)


def test_quoted_heading_without_location() -> None:
    assert refs('# see "RETRY POLICY" for why\n') == [("heading", "RETRY POLICY", None, None)]
    assert refs("# see RETRY POLICY for why\n") == []  # unquoted needs a location


def test_symbol_mentions_and_prose_are_not_heading_references() -> None:
    assert refs("# see `_healthz_report()` in submit_ingestion_run.py\n") == [
        ("symbol", "_healthz_report", None, "submit_ingestion_run.py")  # a symbol claim
    ]
    assert refs("# see networkx.algorithms for more\n") == []
    assert refs("# see ABOVE FOR DETAILS in 1.9.59\n") == []
    assert refs("# See w3.org/TR/html5/tokenization.html#markup-declaration-open-state\n") == []


def test_a_source_files_fragment_followed_by_a_call_is_a_symbol_claim() -> None:
    # git's dir.c: `wt-status.c#wt_status_collect_untracked()` names a function of that
    # file, a C programmer's FILE#function, not a heading's fragment.
    src = ("/*\n * This logic is coordinated with the setting of these flags in\n"
           " * wt-status.c#wt_status_collect_untracked(), and the evaluation\n */\n")
    assert refs(src, "c") == [("symbol", "wt_status_collect_untracked", None, "wt-status.c")]
    # A page's fragment stays one, call or not; and a fragment with no call too.
    assert refs("# see docs/api.md#setup() for more\n") == [("fragment", "setup", None, "docs/api.md")]
    assert refs("# see wt-status.c#collect\n", "python") == [("fragment", "collect", None, "wt-status.c")]


def test_a_quoted_name_right_after_a_url_is_a_section_of_that_page() -> None:
    # ansible's host_profiles.py: the section is systemd's NEWS's, which the line before links.
    src = ("# See: https://github.com/systemd/systemd/blob/main/NEWS\n"
           "#      Under the \"CHANGES WITH 226\" section:\n")
    assert [k for k, *_ in refs(src)] == ["path"]  # the URL alone
    # Two lines further down, or with no URL, a quoted heading is one.
    far = "# See: https://example.com/NEWS\n#\n#\n# see \"ROLLBACK ON THE DEGRADED PATH\"\n"
    assert ("heading", "ROLLBACK ON THE DEGRADED PATH", None, None) in refs(far)


def test_notes_references_and_wrapped_names() -> None:
    src = "-- See Note [Join\n-- points] and Note [Other note].\n"
    assert refs(src, "haskell") == [
        ("note", "Join points", None, None), ("note", "Other note", None, None),
    ]


def test_note_definition_is_not_a_reference() -> None:
    src = "-- Note [Join points]\n-- ~~~~~~~~~~~~~~~~~~\n-- Cites Note [Other].\n"
    assert refs(src, "haskell") == [("note", "Other", None, None)]


def test_markdown_links_and_fragments() -> None:
    src = (
        "See [a](docs/a.md), [b](docs/b.md#some-slug), [c](#local), [d](x.py#L3-L9),\n"
        "[web](https://example.com/a.md) and [mail](mailto:x@y).\n"
    )
    got = extract(src, "markdown", ExtractOptions()).references
    assert [(r.kind, r.name, r.target_path, r.lines, r.relative) for r in got] == [
        (RefKind.PATH, None, "docs/a.md", None, True),
        (RefKind.SLUG, "some-slug", "docs/b.md", None, True),
        (RefKind.SLUG, "local", None, None, True),
        (RefKind.LINES, None, "x.py", (3, 9), True),
    ]


def test_markdown_code_blocks_hold_no_references() -> None:
    src = "```\nsee [x](gone.md)\n```\n\n    [y](gone.md)\n"
    assert extract(src, "markdown", ExtractOptions()).references == ()


def test_github_blob_urls() -> None:
    src = "# https://github.com/acme/client/blob/develop/templates/deploy.yaml#L27-L28\n"
    [r] = extract(src, "python", ExtractOptions()).references
    assert (r.kind, r.target_repo, r.target_path, r.lines, r.via_url) == (
        RefKind.LINES, "acme/client", "templates/deploy.yaml", (27, 28), True
    )


def test_the_text_of_a_link_to_a_url_is_not_a_claim() -> None:
    src = ("| 2 mins | [definition/reconciler.go#L55](https://github.com/crossplane/crossplane/blob/"
           "60fc7df/internal/definition/reconciler.go#L55) |\n"
           "| 1 min | [claim.go#L46](//example.com/claim.go) and [local.go#L3](local.go#L3) |\n")
    # The URLs are outside the workspace or pinned; their texts describe them. A
    # link into the repo is still read.
    assert refs(src, "markdown") == [("lines", None, None, "local.go")]
    # Pinned to a commit or tag: what the URL shows there stays true.
    assert refs("# https://github.com/acme/client/blob/v1.3.0/templates/deploy.yaml#L27\n") == []


def test_a_link_reference_definition_is_a_target_and_an_optional_title_only() -> None:
    src = ("Links [a], [b], [c], [d], [1] and [e] use them.\n\n"  # (an unused one renders nothing)
           "[a]: a.md\n[b]: <b b.md> \"B\"\n[c]: c.md 'C'\n[d]: d.md (D)\n"
           "[1]: HLint is incompatible with GHC 9.10.\n[e]: e.md and more\n")
    # CommonMark: anything else on the line makes it a paragraph.
    assert [p for _, _, _, p in refs(src, "markdown")] == ["a.md", "b b.md", "c.md", "d.md"]


def test_an_unused_definitions_blob_url_is_no_reference_either() -> None:
    # kubebuilder: `[project]: https://github.com/.../PROJECT`, which no link uses,
    # renders nothing; a used one's URL is read.
    url = "https://github.com/acme/app/blob/main"
    src = f"See [the guide][guide].\n\n[project]: {url}/PROJECT\n[guide]: {url}/GUIDE.md\n"
    assert [p for _, _, _, p in refs(src, "markdown")] == ["GUIDE.md"]
    # A label closing a sentence with `:` mid-line is a use, not a definition
    # (kubernetes/community: "selected ... as [election officers]:").
    src = f"We chose these as [election officers]:\n\n[election officers]: {url}/OFFICERS.md\n"
    assert [p for _, _, _, p in refs(src, "markdown")] == ["OFFICERS.md"]


def test_a_vitepress_snippet_import_cites_its_file_not_a_heading() -> None:
    src = "Steps:\n\n   <<< ./deploy.yaml#content [.github/workflows/deploy.yml]\n\nSee x.md#usage.\n"
    assert refs(src, "markdown") == [("path", None, None, "deploy.yaml"), ("fragment", "usage", None, "x.md")]


def test_a_markdown_link_inside_a_code_span_is_code() -> None:
    src = ("Keep `[text](url){.internal-link}` and ``[a](b.md)``, and a\nspan `across\n[c](c.md)` lines,"
           " but [real](gone.md), `x` [r2](g2.md).\n")
    assert [p for _, _, _, p in refs(src, "markdown")] == ["gone.md", "g2.md"]
    # A placeholder a build fills in is no file; LICENSE is one.
    assert [p for _, _, _, p in refs("[en](ENGLISH_VERSION_URL), [l](LICENSE)\n", "markdown")] == ["LICENSE"]
    # In a code comment, backticks mark no code span: the link is read.
    assert [p for _, _, _, p in refs("# `x` see [guide](docs/guide.md) `y`\n")] == ["docs/guide.md"]
    # Nor is a URL shown in a code span a link (jaeger's table of stale URLs to replace),
    # in Markdown; in a code comment it is read.
    url = "https://github.com/acme/app/blob/main/SECURITY.md"
    assert [p for _, _, _, p in refs(f"| `{url}` | <{url}> |\n", "markdown")] == ["SECURITY.md"]
    # (A table's cells are read one by one: a backtick of one cell and one of the next
    # make no span around the link between them.)
    row = f"| `a` | see [x]({url}#L1) for values | `nil` |\n"
    assert [p for _, _, _, p in refs(row, "markdown")] == ["SECURITY.md"]
    assert [p for _, _, _, p in refs(f"# see `{url}`\n")] == ["SECURITY.md"]
    # A span may run over the lines of a list item (gunicorn's old news keeps reST's
    # `` `name <url>`_ ``); not over a blank line.
    item = f"* An example:\n  `example.py\n  <{url}>`_.\n"
    assert [p for _, _, _, p in refs(item, "markdown")] == []


def test_a_quoted_name_of_a_screens_control_is_no_heading() -> None:
    # cloudevents: "under the `DOWNLOAD FULL DATA` button" of another site's page.
    assert refs("Find it under the `DOWNLOAD FULL DATA` button.\n", "markdown") == []
    assert refs("Click the \"SAVE ALL\" tab, or see the `DOWNLOAD FULL DATA` section.\n", "markdown") == [
        ("heading", "DOWNLOAD FULL DATA", None, None)]


def test_a_path_and_fragment_shown_in_a_markdown_code_span_is_code() -> None:
    # mdBook's guide: "For example, `mdbook.md#text-and-paragraphs` would link to the
    # [Text and Paragraphs](#text-and-paragraphs) section above." Outside a span, and
    # in a code comment (no code spans there), the citation is read.
    src = "For example, `mdbook.md#text-and-paragraphs` links [it](#text-and-paragraphs); see x.md#usage.\n"
    assert refs(src, "markdown") == [("fragment", "text-and-paragraphs", None, None),
                                     ("fragment", "usage", None, "x.md")]
    assert refs("# The `mdbook.md#text-and-paragraphs` fragment.\n") == [
        ("fragment", "text-and-paragraphs", None, "mdbook.md")]


def test_a_links_text_naming_its_file_claims_nothing_of_its_lines() -> None:
    url = "https://github.com/acme/app/blob/main"
    src = (f"- [TAG]({url}/TAG#L1) and [Makefile]({url}/test/Makefile#L3),\n"
           f"- [`run.sh`]({url}/build/run.sh#L41), [run]({url}/build/run.sh#L5),\n"
           f"- [`E2E_IMAGE`]({url}/build/run.sh#L44) and [VERSION](docs/v.md#L2).\n")
    found = [(r.target_path, r.claim) for r in extract(src, "markdown", ExtractOptions()).references]
    assert found == [("TAG", None), ("test/Makefile", None), ("build/run.sh", None), ("build/run.sh", None),
                     ("build/run.sh", "E2E_IMAGE"), ("docs/v.md", "VERSION")]


def test_code_shaped_names_commands_and_places_that_are_no_file_are_not_citations() -> None:
    src = ("// See `unused-noqa`; see `maxLineLength`; see 'Installation'; see `ty check --help`\n"
           "// output, and `auto()` in tuple/list entries but `load()` in config.py.\n")
    # In code, one code-shaped token is a name (a rule, an option), not a title; a
    # quoted command line is none either; a symbol is claimed of a file, not of words.
    assert refs(src, "c") == [("heading", "Installation", None, None), ("symbol", "load", None, "config.py")]
    # In Markdown the same token may still be a section's title.
    assert refs("See `unused-noqa`.\n", "markdown") == [("heading", "unused-noqa", None, None)]


def test_references_only_inside_comments() -> None:
    assert refs(f'msg = "see {H} in client/templates/deploy.yaml"\n') == []


def test_claims_that_are_not_claims() -> None:
    # A line 0, a Windows path, a URL's path, prose "on line 1": nothing to check.
    assert refs("# x.py:0 and y.md#L0 see [a](b.md#L0)\n") == [("path", None, None, "b.md")]
    assert refs('# Make sure it works for "clear C:\\\\foo\\\\bar.py:12"\n') == []
    assert refs("# See http://bugs.example.org/diff/1/Lib/zipapp.py#newcode67Lib/zipapp.py:67\n") == []
    assert refs("# expected an indented block after 'while' statement on line 1\n") == []
    assert refs("# `strategy: Recreate` on line 3 of deploy.yaml\n") == [("lines", None, None, "deploy.yaml")]


def test_docstrings_make_no_line_claims() -> None:
    src = 'def f():\n    """\n    1   no   yes   at test_module.py:2\n    """\n'
    assert refs(src) == []


_SEE_BITS = st.sampled_from([
    "see", "See", "SEE", "sEe", "per", "Per", "under", "cf", "cf.", "Cf", "described in", "explained in",
    "super", "the", " ", "\n", "\t", "ROLLBACK", "PATH", "ON", "\"Some Heading\"", "'x y'", "`a b`", "in",
    "a/b.py", "chart:a.yaml", ",", ".", "ſee", "é", "x", "_", "1",
])


@settings(max_examples=500, deadline=None)
@given(st.lists(_SEE_BITS, max_size=30).map("".join))
def test_see_matches_are_what_finditer_finds(text: str) -> None:
    assert [m.span() for m in see_matches(text)] == [m.span() for m in _SEE.finditer(text)]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from([*"ab.#/ :\n\tL1-", "x.py", "a.hs#", "Int#", "#if", ".md#L3", "#slug",
                                 "docs/ops.md", "ROLLBACK PATH", "at", "on", " :", "line ", "Lines ",
                                 "bat 3", "at 4", "on\n:5", "ab.c" * 6, "f()", ":g()", "a.py:h()", "repo:",
                                 " of ", " in ", "`x`", "on line 2 of b.py"]), max_size=30).map("".join))
def test_hints_hold_wherever_their_patterns_match(text: str) -> None:
    import re

    from anchorcheck.extract.citations import _FRAGMENT, _FRAGMENT_HINT
    from anchorcheck.extract.claims import _AT_HINT, _AT_LINES, _PATH_SYMBOL, _PATH_SYMBOL_HINT, _RANGE
    from anchorcheck.extract.locations import PATH, REPO, RUN_START

    if _FRAGMENT.search(text):
        assert _FRAGMENT_HINT.search(text)
    if _PATH_SYMBOL.search(text):
        assert _PATH_SYMBOL_HINT.search(text)
    at_lines_before = re.compile(
        rf"\b(?:at|on)[ \t\n]+(?P<loc>(?i:lines?)[ \t]+|:){_RANGE}(?![\w:])"
        rf"(?:[ \t\n]+(?:of|in)[ \t\n]+{RUN_START}(?:{REPO})?{PATH})?"
    )
    assert [m.groupdict() | {"span": m.span()} for m in _AT_LINES.finditer(text)] == \
        [m.groupdict() | {"span": m.span()} for m in at_lines_before.finditer(text)]
    # Written to start with its letters; the same as the pattern it replaced.
    before = re.compile(r"\b(?:at|on)[ \t\n]+(?:(?i:lines?)[ \t]+)?:?\d")
    assert [m.span() for m in _AT_HINT.finditer(text)] == [m.span() for m in before.finditer(text)]


def test_a_quoted_name_in_code_is_no_heading() -> None:
    # redis's module.c: "(see `addReplyHumanLongDouble` in networking.c)" names a function.
    assert refs("/* (see `addReplyHumanLongDouble` in networking.c). */\n", "c") == []
    assert refs("# see `jobs.Manager.start` in runtime/jobs.py\n") == []
    # One token may still head a Markdown section, and caps words are a heading.
    assert refs("# see `Usage` in docs/README.md\n") == [("heading", "Usage", None, "docs/README.md")]
    assert refs("# see `ROLLBACK` in deploy.yaml\n") == [("heading", "ROLLBACK", None, "deploy.yaml")]
    assert refs("# see 'Rollback path' in deploy.yaml\n") == [("heading", "Rollback path", None, "deploy.yaml")]


_URL_BITS = st.sampled_from([
    "://", ":/", "//", "http", "https", "a", "z", "x1", "git+ssh", "svn+http", "c.d", "-", "+", ".", "é", "_", "ø",
    "X", "9", " ", "\n", "\t", "(", ")", "<", ">", "`", "\"", "example.com/a?b=http://c", "a" * 19, "b" * 22, "Ax",
])


@settings(max_examples=1000, deadline=None)
@given(st.lists(_URL_BITS, max_size=30).map("".join))
def test_url_spans_are_what_finditer_finds(text: str) -> None:
    from anchorcheck.extract.links import _URL, url_spans

    assert list(url_spans(text)) == [m.span() for m in _URL.finditer(text)]


def test_a_url_far_past_its_limit_and_schemes_too_long() -> None:
    from anchorcheck.extract.links import _URL, url_spans

    for text in ["see https://" + "x" * 2500 + " and ftp://y", "q" * 25 + "://a b" + "c" * 21 + "://d e",
                 "xhttp://a http://b", "éhttp://a _http://b 9a://c", "://", "a://b://c d://e"]:
        assert list(url_spans(text)) == [m.span() for m in _URL.finditer(text)], text


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.sampled_from(["`", "``", "```", "a", " ", "\n", "b c", "<<<", "\\", "é"]), max_size=40)
       .map("".join))
def test_code_spans_are_what_finditer_finds(text: str) -> None:
    from anchorcheck.extract.links import _CODE_SPAN, code_spans

    assert code_spans(text) == [m.span() for m in _CODE_SPAN.finditer(text)]


def test_nothing_in_a_markdown_code_span_is_a_link() -> None:
    # Issue 42, item 6: an HTML tag and a line anchor shown in backticks are text. A
    # `FILE:N` claim in a span is still a claim (how docs write them); in a code
    # comment backticks mark no span, so the line anchor is read there.
    src = 'Use `<a href="nope.md">` in HTML, `blob/0123abc/x.go#L3-L9` as text, `app.py:12-14`, x.go#L3.\n'
    assert refs(src, "markdown") == [("lines", None, None, "x.go"), ("lines", None, None, "app.py")]
    assert refs("# Shown as `blob/0123abc/x.go#L3-L9`.\n") == [("lines", None, None, "blob/0123abc/x.go")]
    # Spans end at the first run of the same length: `` then a newline then `` is a span
    # of one space, and the link after it is a link, as GitHub renders it.
    assert refs("A span (``\n``[text](./doc.md)`` ``).\n", "markdown") == [("path", None, None, "./doc.md")]
    assert refs("A span (``` ``[text](./doc.md)`` ```).\n", "markdown") == []
