"""Comment scanners: one per language family, string-literal aware, linear time."""

from __future__ import annotations

import dataclasses
import itertools
import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from anchorcheck.extract.citations import _SEE_HINT, TRIGGER, _see_hint
from anchorcheck.extract.facts import facts_of
from anchorcheck.extract.families import FAMILIES, FIRST
from anchorcheck.extract.headings import HeadingOptions, find_anchors, has_caps_line
from anchorcheck.extract.scanners import _nested_end, _spans, scan
from anchorcheck.extract.triggers import HADDOCK_INTEREST, INTEREST, REFERENCE, LazyPattern, keep_test
from anchorcheck.model.comment import Comment
from tests.linear import assert_linear, repeated


def texts(comments: list[Comment]) -> list[str]:
    return [c.text.strip() for c in comments]


def test_python_comments_strings_and_docstrings() -> None:
    src = (
        '"""Module doc."""\n'
        "x = 1  # trailing\n"
        's = "# not a comment"\n'
        "t = '''\n# not a comment either\n'''\n"
        "# one\n# block\n"
        "def f():\n"
        '    """Function doc."""\n'
        "    call(\n"
        '        """not a docstring""",\n'
        "    )\n"
    )
    got = scan(src, "python")
    assert texts(got) == ["Module doc.", "trailing", "one\n block", "Function doc."]
    assert [c.kind for c in got] == ["docstring", "comment", "comment", "docstring"]
    assert [c.own_line for c in got] == [True, False, True, True]
    assert (got[2].start_line, got[2].end_line) == (7, 8)


def test_yaml_block_scalars_quotes_and_helm_comments() -> None:
    src = (
        "a: 1 # c1\n"
        "run: |\n"
        "  # shell text, not a YAML comment\n"
        "  echo hi\n"
        'b: "x # y" # c2\n'
        "c: 'it''s # fine' # c3\n"
        "{{/* helm\n   comment */}}\n"
        "{{- /* trimmed */ -}}\n"
        'd: {{ printf "#%s" .x }} # c4\n'
        "url: http://host/#frag\n"
        "# c5\n"
    )
    assert texts(scan(src, "yaml")) == ["c1", "c2", "c3", "helm\ncomment", "trimmed", "c4", "c5"]


def test_yaml_block_scalar_in_a_list_item_ends_at_its_key_column() -> None:
    # `- run: |` owns its text from the column of `run`: a comment or key at that
    # column is the list item's again (measuring from the dash hid this comment).
    src = (
        "steps:\n"
        "  - run: |\n"
        "      # shell, not YAML\n"
        "      echo hi\n"
        "    # ROLLBACK ON THE DEGRADED PATH\n"
        "    name: build\n"
        "  - |\n"
        "    # text of a bare block scalar item\n"
        "  # after\n"
        "image:\n"
        "  tag: \"1.2\" # pinned\n"
    )
    assert texts(scan(src, "yaml")) == ["ROLLBACK ON THE DEGRADED PATH", "after", "pinned"]
    facts = facts_of("values.yaml", src)
    assert [(f.key, f.value, f.line) for f in facts.values()] == [
        ("steps.name", "build", 6), ("image.tag", "1.2", 11)]


def test_shell_heredocs_and_parameter_expansion() -> None:
    src = (
        "cat <<EOF\n# in heredoc\nEOF\n"
        "cat <<-'END'\n\t# also in heredoc\n\tEND\n"
        'echo "${#arr[@]}" ${x#pre} # real\n'
        "echo 'it # is' quoted\n"
    )
    assert texts(scan(src, "shell")) == ["real"]


def test_c_family_blocks_gutters_and_char_literals() -> None:
    src = "/*\n * HEADING LINE HERE\n */\nchar c = '\"'; // after\nchar *s = \"/* no */\";\n"
    got = scan(src, "c")
    assert texts(got) == ["HEADING LINE HERE", "after"]
    assert got[0].lines[1].text == "HEADING LINE HERE"
    assert got[0].lines[1].col == 3


def test_js_template_literals_and_rust_raw_strings() -> None:
    assert texts(scan("const s = `// no\n`; // yes\n", "js")) == ["yes"]
    assert texts(scan('let s = r#"// no "quoted" "#; // yes\nlet l: &\'a str;\n', "rust")) == ["yes"]


def test_haskell_operators_nested_blocks_and_primes() -> None:
    src = "x --> y\nf' = 1 -- real\n{- outer {- inner -} still -}\nz = '\"' -- after char\n"
    assert texts(scan(src, "haskell")) == ["real", "outer {- inner -} still", "after char"]


@settings(max_examples=500, deadline=None)
@given(body=st.lists(st.sampled_from(["{", "-", "}", "a", "{-", "-}", "{-}", "-{-", "\n"]), max_size=16).map("".join))
@example(body="{-}-}")  # in `{-}` the `{-` opens: two closers needed
def test_a_nested_comment_ends_where_its_openers_and_closers_balance(body: str) -> None:
    """_nested_end finds openers and closers with str.find: the same end as taking
    `{-` and `-}` left to right as a regex's matches come."""
    text = "x = 1\n{-" + body
    start = text.index("{-")
    depth, expected = 0, len(text)
    for m in re.finditer(r"\{-|-\}", text[start:]):
        depth += 1 if m.group(0) == "{-" else -1
        if depth == 0:
            expected = start + m.end()
            break
    assert _nested_end(text, start) == expected


@settings(max_examples=500, deadline=None)
@given(lines=st.lists(st.lists(st.sampled_from([" ", "\t", "*", "/", "x", "\r", "* ", "*/x"]), max_size=6)
                      .map("".join), min_size=1, max_size=5))
def test_a_block_comment_loses_its_gutter_as_the_gutter_pattern_says(lines: list[str]) -> None:
    r"""Each later line of a `{- -}` block loses what `[ \t]*(?:\*(?!/)[ \t]?)?` matches
    (found with str methods) and its carriage return; its column says how much. (In
    Haskell a `*/` closes nothing, so a line may start with one.)"""
    body = "\n".join(lines)
    [comment] = scan(f"x = 1 {{- {body} -}}\n", "haskell")
    got = [(cl.line, cl.col, cl.text) for cl in comment.lines[1:]]
    expected = []
    for i, raw in enumerate(f" {body} ".split("\n")[1:], start=2):
        stripped = raw.rstrip("\r")
        cut = re.match(r"[ \t]*(?:\*(?!/)[ \t]?)?", stripped).end()  # type: ignore[union-attr]
        expected.append((i, cut, stripped[cut:]))
    assert got == expected


def test_sql_toml_ini_dockerfile_make_html() -> None:
    assert texts(scan("select '--x' -- c\n/* b */\n", "sql")) == ["c", "b"]
    assert texts(scan('a = "# no" # yes\nb = """\n# no\n"""\n', "toml")) == ["yes"]
    assert texts(scan("; semi\n# hash\nkey = a # not\n", "ini")) == ["semi\n hash"]
    assert texts(scan("# c\nRUN echo # not a comment\n", "dockerfile")) == ["c"]
    assert texts(scan("a = \\# not\n# yes\n", "make")) == ["yes"]
    assert texts(scan("<p>x</p><!-- c -->\n", "html")) == ["c"]


def test_unterminated_constructs_run_to_end_of_file() -> None:
    assert texts(scan("x\n/* never closed\nmore", "c")) == ["never closed\nmore"]
    assert texts(scan('"never closed\n# c\n', "hash")) == ["c"]


@pytest.mark.parametrize("family", sorted([*FAMILIES, "markdown"]))
def test_adversarial_input_is_linear(family: str) -> None:
    from anchorcheck.extract.blob import ExtractOptions, extract

    hostile = [
        repeated("/*"), repeated("{-"), repeated("{{"), repeated("'"), repeated('"'),
        lambda n: "see " + "A " * (n // 2), repeated("Note ["), repeated("[x]("), repeated("<<EOF\n"),
        repeated("#"), lambda n: "a/" * (n // 2) + "#x", repeated("A"), repeated("[a\n"), repeated("#1 "),
    ]
    for make in hostile:
        assert_linear(lambda text: extract(text, family, ExtractOptions()), make, label=(family, make(20)))


_ALPHABET = st.sampled_from([*"ab #/*-{}\"'`\n\\|:<>!~[]()$=", "Note [", "EOF", "\r\n"])


@settings(max_examples=150, deadline=None)
@given(text=st.lists(_ALPHABET, max_size=80).map("".join), family=st.sampled_from(sorted(FAMILIES)))
def test_scanner_never_raises_and_spans_lie_inside_the_file(text: str, family: str) -> None:
    line_count = text.count("\n") + 1
    for comment in scan(text, family):
        assert 1 <= comment.start_line <= comment.end_line <= line_count
        for cl in comment.lines:
            assert cl.col >= 0


def test_every_family_has_a_first_character_prefilter() -> None:
    # Computed from the parsed pattern: a Python whose `re` parser changes shape would
    # silently lose the 20-25% it saves; this says so.
    assert {name for name, first in FIRST.items() if first is None} == set()
    assert FIRST["python"] is not None and set(FIRST["python"].pattern) >= set("\"'#")


@settings(max_examples=300, deadline=None)
@given(text=st.lists(_ALPHABET | st.sampled_from(["r#\"", "\"#", "{{", "<!--", "$'", "<<-X\n", "x'"]),
                     max_size=60).map("".join),
       family=st.sampled_from(sorted(FAMILIES)))
def test_first_character_prefilter_finds_exactly_what_search_finds(text: str, family: str) -> None:
    fam = FAMILIES[family]
    assert list(_spans(text, fam, FIRST[family])) == list(_spans(text, fam, None))


_TRIGGER_BITS = st.sampled_from([
    *"aAZ #:(`!~_\n\t1", "Note", "Not", "see", "Se", "per", "Perx", "cf", "Cf.", "under", "Described",
    "explained", "§", "](", "]:", "github.com/", "()", "( in ", "restates", "anchorcheck:", "at ",
    "on line 3", "bat 4", "ABC", "AB", "x#", "#y#", "`~x", "at\n:5", "SEE", "DESCRIBED", "cF", "Under",
    "the ", "The", "\n-- ", "\n# ", " * ", "//", "[", "\"", "'", "“", "`a.b", ".", ":`", ".py#", "a.hs#",
    "on Lines 2", "UNDER", "PER", "CF", "see that", "seen", "Note [", "Note\n-- [",
    # Cases that do not count, and text that is not ASCII (each case searched alone):
    "sEe", "pEr", "uNDER", "DeScribed", "EXPLAINED", "cF", "İ", "ſee",
])


@settings(max_examples=400, deadline=None)
@given(text=st.lists(_TRIGGER_BITS, max_size=30).map("".join), cut=st.tuples(st.integers(0, 200), st.integers(0, 200)))
# Outside ASCII each case of a lead word is searched alone, and still must be followed
# by what it must be (a heading, a word's end).
@example(text="İ see that, per second, under the hood, cfg" + " " * 30, cut=(0, 80))
@example(text="ſee 'X'" + " " * 70, cut=(0, 80))
def test_triggers_answer_as_their_alternations_do(text: str, cut: tuple[int, int]) -> None:
    start, end = min(cut), max(cut)
    interest = re.compile(f"{TRIGGER.pattern}|anchorcheck:")
    haddock = re.compile(interest.pattern + r"|#[A-Za-z][\w-]*#")
    for test, alternation in ((REFERENCE, TRIGGER), (INTEREST, interest), (HADDOCK_INTEREST, haddock)):
        expected = alternation.search(text, start, end) is not None
        assert test(text, start, end) == expected
        # The parts alone (what ranges of 64 characters and more use, and short ones
        # before the alternation is wanted), and the alternation from the first call:
        assert dataclasses.replace(test, whole=None)(text, start, end) == expected
        assert test.whole is not None
        assert dataclasses.replace(test, whole=LazyPattern(test.whole.source))(text, start, end) == expected
    assert _see_hint(text) == (_SEE_HINT.search(text) is not None)


# Comment text that forms (or nearly forms) every kind of reference, anchor, mention
# and directive, in several languages' comment syntax.
_EXTRACT_BITS = st.sampled_from([
    "\n", "# ", "-- ", "// ", "/* ", " */", "{- ", " -}", "{-| ", '"""', " * ", "x = 1\n", "  ",
    "see ", "See ", "SEE ", "per ", "Per ", "under ", "Under ", "cf. ", "described in ", "the ", "The ",
    "ROLLBACK ON THE PATH", "FOO BAR", "'Quoted Heading'", '"Other Heading"', "`Ticked Heading`",
    " in ", " (in ", ")", "a.py", "deploy/x.yaml", "Note [", "Note", " [Some note]", "[", "]",
    ":12", ":3-4", "#L3", ".py#", "#slug-name", "§ ", "[link](a.py#top)", "https://github.com/o/r/blob/m/a.py#L2",
    "`a.b`", ":func:`f`", "`g()`", "h()", "`word`", "restates a.py::key", "at :3", "on line 4",
    "`k: v` at :2", "anchorcheck: ignore AC101", "#anchor#", "AB CD EF GH", "\n# ======\n",
    "<a href=\"x.md#y\">", "<img src=img.png>",
])


@settings(max_examples=300, deadline=None)
@given(text=st.lists(_EXTRACT_BITS, max_size=40).map("".join),
       language=st.sampled_from(["python", "haskell", "c", "hash", "yaml", "markdown"]))
def test_the_keep_test_drops_only_blocks_that_give_nothing(text: str, language: str) -> None:
    """A comment block is built only when the keep test holds; extracting with every
    block built must give the same anchors, references, mentions and directives."""
    from unittest import mock

    import anchorcheck.extract.blob as extract_module
    from anchorcheck.extract.blob import ExtractOptions, extract

    options = ExtractOptions()
    kept = extract(text, language, options)
    with mock.patch.object(extract_module, "keep_test", lambda *_: lambda *_: True), \
            mock.patch.object(extract_module, "MARKDOWN_KEEP", lambda *_: True):
        every = extract(text, language, options)
    assert dataclasses.replace(kept, comments=0) == dataclasses.replace(every, comments=0)


def test_a_citation_may_wrap_after_its_lead_word() -> None:
    from anchorcheck.extract.blob import ExtractOptions, extract

    options = ExtractOptions()
    python = extract("# see\n# ROLLBACK ON THE PATH in a.py\nx = 1\n", "python", options)
    assert [(r.name, r.target_path) for r in python.references] == [("ROLLBACK ON THE PATH", "a.py")]
    haskell = extract("f = 1 -- See\n      -- Note [Wrapped title]\n{- see the\n   'Quoted' -}\n",
                      "haskell", options)
    assert [r.name for r in haskell.references] == ["Wrapped title", "Quoted"]
    # "see that", "seems" and a plain `word` are no reference and no mention: such
    # blocks are not even built.
    assert extract("# see that it seems `fine`\nx = 1\n", "python", options).comments == 0


_CAPS_BITS = st.sampled_from([*"AB Za1-#*=\n\t.'&/", "ROLLBACK", "GHC", "PATH", "x", "É", "é", "\r\n"])


def _caps_line_reference(text: str, start: int, end: int, letters: int) -> bool:
    return any(not re.search("[a-z]", line) and len(re.findall("[A-Z]", line)) >= max(2, letters)
               for line in text[start:end].split("\n"))


@settings(max_examples=400, deadline=None)
@given(text=st.lists(_CAPS_BITS, max_size=40).map("".join), cut=st.tuples(st.integers(0, 120), st.integers(0, 120)),
       letters=st.integers(0, 10))
def test_caps_line_hint_is_its_definition(text: str, cut: tuple[int, int], letters: int) -> None:
    start, end = min(cut), max(cut)
    assert has_caps_line(text, start, end, letters) == _caps_line_reference(text, start, end, letters)


@settings(max_examples=300, deadline=None)
@given(lines=st.lists(st.lists(_CAPS_BITS, max_size=12).map("".join), min_size=1, max_size=5),
       family=st.sampled_from(["python", "c", "haskell", "shell"]))
def test_a_comment_dropped_by_the_keep_test_holds_no_caps_heading(lines: list[str], family: str) -> None:
    opener = {"python": "#", "shell": "#", "c": "//", "haskell": "--"}[family]
    text = "".join(f"{opener} {line.replace(chr(10), ' ')}\n" for line in lines)
    options = HeadingOptions()
    every = scan(text, family)
    kept = scan(text, family, keep=keep_test(options, family == "haskell"))
    assert list(find_anchors(every, options)) == list(find_anchors(kept, options))


def test_a_heading_without_three_capitals_in_a_row_is_found() -> None:
    # The old hint (three capitals in a row somewhere in the block) missed these.
    text = "# AB CD EF GH\n# what follows the heading\n"
    assert [a.name for a in find_anchors(scan(text, "python", keep=keep_test(HeadingOptions())),
                                         HeadingOptions())] == ["AB CD EF GH"]


def test_caps_line_hint_is_linear_on_hostile_lines() -> None:
    for make in (lambda n: "A" * n + "a", lambda n: "A " * (n // 2) + "a", lambda n: "A" + " " * n + "a",
                 repeated("Aa")):
        assert_linear(lambda line: has_caps_line(line, 0, len(line), 8), make, label=make(20))


_PY_BITS = st.sampled_from([*"ab #\"'\\\n:=()r", '"""', "'''", '""', "''", "def f():\n", "    ", "\r\n", "x = 1\n",
                            "  # c\n", "\u00a0", "\x0c", "\u2028", "\x1c"])


@settings(max_examples=500, deadline=None)
@given(st.lists(_PY_BITS, max_size=60).map("".join))
def test_python_blocks_are_what_the_family_pattern_finds(text: str) -> None:
    from anchorcheck.extract.comment_lines import DOC, LINE, Locator, build_comment
    from anchorcheck.extract.scanners import _blocks, _first_code_offset, _is_docstring

    def reference() -> list[tuple[int, int, int]]:
        # The family pattern's plain search loop: every string and comment in turn.
        out, pos, first_code = [], 0, _first_code_offset(text)
        while (m := FAMILIES["python"].pattern.search(text, pos)) is not None:
            start, end = m.span()
            pos = end if end > start else start + 1
            if m.lastgroup == "lc":
                out.append((start, end, LINE))
            elif _is_docstring(text, start, first_code):
                out.append((start, end, DOC))
        return out

    # Its spans grouped by _blocks: runs of line comments, one match each in _PY_NEXT.
    loc = Locator(text)
    assert scan(text, "python") == [build_comment(text, block, loc) for block in _blocks(text, reference())]


_HS_BITS = st.sampled_from([*"ab -{}\"'\\\n\t:=>!", "--", "---", "-->", "{-", "-}", "x'", "'a'", "\r\n", "  -- c\n",
                            "\u00a0", "\x0c", "\u2028", " ", "Note [", "see FOO BAR in x.hs"])


_C_BITS = st.sampled_from([*"ab /*\"'`\\\n\t:=", "//", "/*", "*/", "'a'", "'\\n'", "\r\n", "  // c\n",
                           "\u00a0", "\x0c", " ", "x/y", "see FOO BAR in x.c"])


@settings(max_examples=300, deadline=None)
@given(data=st.data(), family=st.sampled_from(["haskell", "c", "js"]))
def test_matched_blocks_are_what_the_family_pattern_finds(data: st.DataObject, family: str) -> None:
    from anchorcheck.extract.comment_lines import Locator, build_comment
    from anchorcheck.extract.scanners import _blocks

    text = data.draw(st.lists(_HS_BITS if family == "haskell" else _C_BITS, max_size=50).map("".join))
    # The family pattern's search loop, one span at a time, grouped by _blocks.
    spans = list(_spans(text, FAMILIES[family], None))
    loc = Locator(text)
    assert scan(text, family) == [build_comment(text, block, loc) for block in _blocks(text, spans)]


_YAML_BITS = st.sampled_from([*"ab #\"'\\\n\t:{}-|&;()/*", "''", "{{", "}}", "{{/*", "*/}}", "{{- /* c */ -}}",
                              "a#b", "  # c\n", "\u00a0", "\x0c", "\r\n", "key: |\n", "'it''s'", "x"])


@settings(max_examples=500, deadline=None)
@given(text=st.lists(_YAML_BITS, max_size=60).map("".join))
def test_yaml_spans_are_what_the_family_pattern_finds(text: str) -> None:
    from anchorcheck.extract.scanners import _yaml_spans

    # The family pattern's search loop, one string, action and comment at a time.
    assert list(_yaml_spans(text)) == list(_spans(text, FAMILIES["yaml"], None))
    assert list(_yaml_spans(text)) == list(_spans(text, FAMILIES["yaml"], FIRST["yaml"]))


def _block_scalar_lines_line_by_line(text: str) -> frozenset[int]:
    """The reference: every line read in turn (the implementation before
    yaml_block_scalars read only the lines that can open a scalar)."""
    from anchorcheck.extract.yaml_scalars import _yaml_scalar_owner

    hidden: set[int] = set()
    owner = -1
    for number, line in enumerate(text.split("\n"), start=1):
        indent = len(line) - len(line.lstrip(" "))
        if owner >= 0:
            if not line.strip() or indent > owner:
                hidden.add(number)
                continue
            owner = -1
        if "|" in line or ">" in line:
            owner = _yaml_scalar_owner(line)
    return frozenset(hidden)


_SCALAR_BITS = st.sampled_from(["a: |", "- |", "- run: >-", "k: |2", "x", "  y", "    z", "  - b: |+", " # c",
                                "a: | # c", "b: 'x' >", "|", ">", "", " ", "\t", "\u00a0", "\r", "- - k: |",
                                "{{ x | quote }}", "a: |-2 ", "a: > #c", "b: |\t#x", "c: |#x", "d: >+\x0c"])


@settings(max_examples=500, deadline=None)
@given(lines=st.lists(_SCALAR_BITS, max_size=25), end=st.sampled_from(["", "\n"]))
def test_yaml_block_scalars_are_the_lines_read_one_by_one(lines: list[str], end: str) -> None:
    from anchorcheck.extract.yaml_scalars import yaml_block_scalar_lines

    text = "\n".join(lines) + end
    assert yaml_block_scalar_lines(text) == _block_scalar_lines_line_by_line(text)


_SELECT_BITS = st.sampled_from([
    *"aAZ #:(`!~_\n\t1\x00", "Note [", "see ", "See 'X'", "SEE FOO", "per ", "cf.", "described", "§", "](",
    "]:", "github.com/", "()", "( in ", "restates", "anchorcheck:", "at 3", "on line 4", "at\n:5", "x:7",
    ".py#", "#h#", "`a.b", ":`", "ABCDEFGHIJ", "A B C D E F G H", "ABCD efgh", "\n-- ", "{-", "-}", "“",
    "sEe 'X'", "Per 'Y'", "UNDER Z", "cF.", "Cf ", "EXPLAINED", "Explained", "İ",
    # Blanks Python's `\s` matches in ASCII and RE2's does not (onepass.re2_source).
    "see\x0b'X'", "Note\x1c[", "at\x0c3", "\r", "ſee 'X'", "at LİNE 3", "ON LINES 4",
])


@settings(max_examples=1000, deadline=None)
@given(text=st.lists(st.one_of(_SELECT_BITS, st.sampled_from([*"ax 1\n:S'"])), max_size=25).map("".join),
       cuts=st.lists(st.integers(0, 120), min_size=2, max_size=30),
       haddock=st.booleans(), caps=st.booleans())
@example(text="see Sxx abc", cuts=[0, 3, 4, 7, 8, 11], haddock=False, caps=False)  # no match across blocks
@example(text="İ see that, cfg, sEe 'X', See 'Y'", cuts=[0, 12, 13, 25, 26, 40], haddock=False, caps=False)
@example(text="aaaa#1", cuts=[0, 1, 2, 3, 4, 6], haddock=False, caps=False)  # an issue's `#1`
@example(text="éat 3", cuts=[1, 5], haddock=False, caps=False)  # `\b` after a non-ASCII letter
def test_testing_all_blocks_at_once_answers_as_testing_each(
    text: str, cuts: list[int], haddock: bool, caps: bool,
) -> None:
    """KeepTest.select joins the blocks and searches them once: the same answers as the
    test asked block by block, wherever the blocks start and end."""
    points = sorted({min(c, len(text)) for c in cuts})
    ranges = [(a, b) for a, b in itertools.pairwise(points) if b > a][::2]  # gaps between
    test = keep_test(HeadingOptions(caps=caps), haddock)
    assert test.select(text, ranges) == [test(text, a, b) for a, b in ranges]


def test_a_lazy_pattern_compiles_on_first_search_and_then_is_the_compiled_search() -> None:
    from anchorcheck.extract.triggers import LazyPattern

    lazy = LazyPattern(r"a+b")
    assert lazy.ready()  # wanted from the first call
    assert lazy.search("xaab", 0, 4) is not None and lazy.search("xaab", 0, 3) is None
    assert lazy.search == re.compile(r"a+b").search  # the compiled pattern's own method now
    later = LazyPattern(r"a+b", after=2)  # not ready for its first two calls
    assert [later.ready() for _ in range(4)] == [False, False, True, True]
