"""Verbatim text in comments (pasted output, doctest examples): its file locations are
no claims; Notes and headings cited there still are."""

from __future__ import annotations

import json

from anchorcheck.extract.blob import ExtractOptions, extract
from anchorcheck.extract.scanners import scan
from anchorcheck.extract.verbatim import verbatim_lines
from tests.conftest import WorkspaceBuilder, run_cli
from tests.extract.test_claims import findings

GDB_TRACE = """\
/* How the unwinder sees it.

Here's an example stack generated this way:

  #0  Fib_info () at Fib.hs:9
  #1  stg_catch_frame_info () at rts/Exception.cmm:372

(This is from patched gdb; the loop is at main.c:3. See Note [Info Offset].)
*/
int main(void) { return 0; }
"""

HS_ERROR = """\
-- The error message is:
--
--     Conflicting definitions for:  a
--         Defined at bug4.lhs:2
--     See Note [Duplicate fields]
--
-- and the fix is in Main.hs:3.
module Main where
main = pure ()
"""


def _claims(text: str, language: str) -> list[tuple[int, str, str]]:
    index = extract(text, language, ExtractOptions())
    return [(r.line, r.kind.value, r.text) for r in index.references]


def test_a_pasted_backtrace_claims_nothing_but_the_prose_after_it_does() -> None:
    refs = _claims(GDB_TRACE, "c")
    assert (8, "lines", "main.c:3") in refs
    assert (8, "note", "Note [Info Offset]") in refs
    assert not [r for r in refs if r[0] in (5, 6)]


def test_an_introduced_error_message_claims_nothing_but_a_note_in_it_is_cited() -> None:
    refs = _claims(HS_ERROR, "haskell")
    assert (4, "lines", "bug4.lhs:2") not in refs
    assert (5, "note", "Note [Duplicate fields]") in refs
    assert (7, "lines", "Main.hs:3") in refs


def _verbatim(text: str, language: str = "python") -> set[int]:
    comments = scan(text, language)
    return {n for c in comments for n in verbatim_lines(c)}


def test_what_is_verbatim() -> None:
    # Introduced by a colon, after a blank line, indented deeper: a display.
    assert _verbatim("# It prints:\n#\n#   x.py:3: error\n#   more\n# Back to prose.\n") == {3, 4}
    # Four columns deeper after a blank line, with no colon: Markdown's code block.
    assert _verbatim("# GHC reported\n#\n#     T.hs:24:\n") == {3}
    # Deeper, but neither introduced by a colon nor four columns deeper: prose.
    assert _verbatim("# GHC reported\n#\n#   T.hs:24:\n") == set()
    # No blank line: an indented continuation of a sentence, or a list of claims.
    assert _verbatim("# Relies on:\n#   strategy: Recreate at deploy.yaml:27\n") == set()
    # A list after a colon is a list, not a display.
    assert _verbatim("# Steps:\n#\n#   - see deploy.yaml:12\n#   - then b.yaml:3\n") == set()
    assert _verbatim("# Steps:\n#\n#   1. see deploy.yaml:12\n") == set()
    # A doctest example: the prompt and its output, up to a blank line.
    assert _verbatim('-- >>> spliceURL m\n-- "output/Foo.hs#foo"\n--\n-- See x.hs:2\n', "haskell") == {1, 2}
    # Not deeper than the line before the blank: prose.
    assert _verbatim("# It prints:\n#\n# x.py:3\n") == set()


def test_a_doctest_result_is_not_a_file_citation() -> None:
    text = '-- |\n-- >>> spliceURL m "out/%{MODULE}.hs#%{NAME}"\n-- "output/Foo.hs#foo"\nf = 1\n'
    assert not [r for r in _claims(text, "haskell") if "Foo.hs" in r[2]]
    text = '-- | Cited: "output/Foo.hs#foo"\nf = 1\n'  # the same text in prose is a citation
    assert [r for r in _claims(text, "haskell") if "Foo.hs" in r[2]]


def test_check_reports_a_dangling_claim_in_prose_and_none_in_pasted_output(ws: WorkspaceBuilder) -> None:
    # (Issue 40, item 5: a bare `FILE:N` read from prose is reported only where the
    # workspace confirms it names a place, here rts/, the folder it names: the bare
    # `main.c:3` this test first used, whose folder is the root and which no link
    # names, is now counted as not judged, prose-unconfirmed, and no longer reported.)
    ws.repo("rts", {"rts/StgCRun.c": GDB_TRACE.replace("main.c:3", "rts/main.c:3"), "Main.hs": HS_ERROR})
    found = {(code, path, line) for code, path, line, _, _ in findings(ws)}
    # rts/main.c is nowhere: the claim in prose is dangling; Fib.hs and bug4.lhs, in
    # pasted output, are not looked for.
    assert ("AC105", "rts/StgCRun.c", 8) in found
    assert not [f for f in found if f[1] == "rts/StgCRun.c" and f[2] in (5, 6)]
    assert not [f for f in found if f[1] == "Main.hs" and f[2] == 4]


def test_a_bare_file_line_in_prose_that_nothing_confirms_is_counted_not_reported(ws: WorkspaceBuilder) -> None:
    ws.repo("rts", {"rts/StgCRun.c": GDB_TRACE})
    assert not [f for f in findings(ws) if f[1] == "rts/StgCRun.c" and f[2] == 8 and f[0] != "AC101"]
    unchecked = json.loads(run_cli("refs", "--unresolved", "--format", "json", cwd=ws.root).out)["references"]
    assert [(r["line"], r["evidence"], r["unchecked"]) for r in unchecked if r["path"] == "rts/StgCRun.c"] == [
        (8, "path-line", "prose-unconfirmed")]


DUMP = """\
{-
Note [Wildcards in axioms]
~~~~~~~~~~~~~~~~~~~~~~~~~~
With -ddump-types we get:

  COERCION AXIOMS
    axiom D:R:SingMyKind_0 :: Sing _ = R:SingMyKind_ _

and after tidying:

  COERCION AXIOMS
    axiom D:R:SingMyKind_0 :: Sing _1 = R:SingMyKind_ _1
-}
module M where

-------------------
-- PREPARE FOR CODE GENERATION
-- Do saturation.
x = 1
"""


def test_a_caps_line_in_pasted_output_heads_nothing() -> None:
    anchors = [(a.kind.value, a.name, a.line) for a in extract(DUMP, "haskell", ExtractOptions()).anchors]
    assert ("note", "Wildcards in axioms", 2) in anchors
    assert ("caps-heading", "PREPARE FOR CODE GENERATION", 17) in anchors
    assert not [a for a in anchors if a[1] == "COERCION AXIOMS"]


RUST_DOC = """\
//! The following frame will be decoded as such:
//!
//! ```text
//!          INPUT                        DECODED
//! +-- len ---+--- Payload ---+     +--- Payload ---+
//! | see src/frame.rs:3 |
//! ```
//!
//! DECODED FRAMES ARE SPLIT
//! as the length field says; see src/codec.rs:12.
pub fn f() {}
"""


def test_a_fenced_block_in_a_doc_comment_is_verbatim() -> None:
    index = extract(RUST_DOC, "rust", ExtractOptions())
    assert [(a.name, a.line) for a in index.anchors] == [("DECODED FRAMES ARE SPLIT", 9)]
    assert [(r.text, r.line) for r in index.references] == [("src/codec.rs:12", 10)]
    # An unclosed fence runs to the comment's end.
    assert _verbatim("# ~~~~\n# x.py:3\n# y.py:4\n", "python") == {1, 2, 3}
    assert _verbatim("# ```\n# x.py:3\n# ````\n# y.py:4\n", "python") == {1, 2, 3}


def test_a_notes_rule_opens_no_fence() -> None:
    text = ("{-\nNote [Exact print]\n~~~~~~~~~~~~~~~~~~\nGiven a tree...\n\nNON-COMMENT ELEMENTS\n\n"
            "Every element (see GC.c:revert()).\n-}\nmodule M where\n")
    index = extract(text, "haskell", ExtractOptions())
    assert ("NON-COMMENT ELEMENTS", 6) in [(a.name, a.line) for a in index.anchors]
    assert [r.text for r in index.references if r.kind.value == "symbol"] == ["GC.c:revert()"]
    assert _verbatim("# Text.\n#\n# ~~~\n# x.py:3\n# ~~~\n", "python") == {3, 4, 5}
