"""A Note defined as a term its paragraph defines (xmonad-contrib's `-- Note [Ignored
Arguments]: Most of the time, ...`), cited elsewhere as "see Note [Ignored Arguments]"."""

from __future__ import annotations

import json

from tests.conftest import WorkspaceBuilder

DEFINED = """-- | Action to pop up a scratchpad
--
-- Note [Ignored Arguments]: Most of the time, this function ignores its
-- first argument and uses the state instead.
action :: [String] -> String -> IO ()
action _ _ = pure ()

-- | The same, on this workspace.
--
-- This function ignores its first argument; see Note
-- [Ignored Arguments] for 'action'. And see Note [Never Written].
here :: [String] -> String -> IO ()
here = action
"""


def test_a_note_defined_as_a_term_resolves_and_others_still_dangle(ws: WorkspaceBuilder) -> None:
    ws.repo("contrib", {"Scratchpad.hs": DEFINED})
    run = ws.check("--format", "json", "--no-cache")
    found = [(f["code"], f["line"], f["message"]) for f in json.loads(run.out)["findings"]]
    assert found == [("AC101", 11, "Note [Never Written] is not defined anywhere in the workspace")]


def test_a_citation_opening_a_sentence_mid_paragraph_is_no_definition(ws: WorkspaceBuilder) -> None:
    ws.repo("contrib", {"A.hs": "-- | Something.\n-- More text here.\n-- Note [Elsewhere]: applies here too.\nx :: Int\nx = 1\n"})
    run = ws.check("--format", "json", "--no-cache")
    assert [(f["code"], f["line"]) for f in json.loads(run.out)["findings"]] == [("AC101", 3)]
