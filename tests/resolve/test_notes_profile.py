"""The ghc notes profile: GHC's lint-notes rules, one fixture per rule."""

from __future__ import annotations

from anchorcheck.resolve.notes_profile import find_notes, strip_leader
from tests.conftest import WorkspaceBuilder, run_cli


def names(text: str) -> tuple[list[tuple[int, int, str]], list[tuple[int, int, str]]]:
    defs, refs = find_notes("F.hs", text)
    return [(d.row, d.col, d.name) for d in defs], [(r.row, r.col, r.name) for r in refs]


def test_definition_needs_tildes_in_the_columns_of_note() -> None:
    assert names("{- Note [A thing]\n~~~~~~~~~~~~~~~~~~\n-}\n")[0] == [(1, 3, "A thing")]
    assert names("-- Note [A thing]\n-- ~~~~~~~~~~~~~\n")[0] == [(1, 3, "A thing")]
    assert names("-- Note [A thing]\n--    ~~~~~~~~~~\n")[0] == []  # starts right of "Note ["
    assert names("-- Note [A thing]\n-- ~~\n")[0] == []  # fewer than three tildes there


def test_definition_lines_hold_no_references() -> None:
    defs, refs = names("Note [X] see Note [Y]\n~~~~~~~\nNote [Z]\n")
    assert defs == [(1, 0, "X")]
    assert refs == [(3, 0, "Z")]


def test_references_may_continue_on_the_next_line_behind_a_leader() -> None:
    for leader in ("-- ", "# ", " * ", "// ", "   "):
        _, refs = names(f"-- See Note [Join\n{leader}points] here\n")
        assert refs[0] == (1, 7, "Join points"), leader
    _, refs = names("-- See Note [Never\n-- closed\n-- here]\n")
    assert refs == []  # the name may span two lines, not three


def test_several_references_on_a_line_and_exact_names() -> None:
    _, refs = names("x -- Note [A] and Note [B ] and Note [A]\n")
    assert refs == [(1, 5, "A"), (1, 18, "B "), (1, 32, "A")]


def test_strip_leader_matches_lint_notes() -> None:
    assert strip_leader("   -- foo") == "foo"
    assert strip_leader(" * foo") == "foo"
    assert strip_leader("  # foo") == "foo"
    assert strip_leader("x -- foo") == "x -- foo"


def test_broken_refs_in_lint_notes_format(ws: WorkspaceBuilder) -> None:
    ws.repo("ghc", {
        "compiler/A.hs": "{- Note [Defined]\n~~~~~~~~~~~~~~~~\n-}\n-- See Note [Defined] and Note [Missing]\n",
        "compiler/B.hs": "-- Note [Twice]\n-- ~~~~~~~~~~~~\n",
        "compiler/C.hs": "-- Note [Twice]\n-- ~~~~~~~~~~~~\n-- See Note [Also\n-- missing]\n",
        "latin1.hs": "-- See Note [Hidden] caf\xe9\n".encode("latin-1"),
        "testsuite/tests/linters/notes.stdout": "ref    x:1:1:     Note [Excluded]\n",
        "docs/notes.txt": "Note [Anywhere] in any file, not only comments\n",
    })
    r = run_cli("notes", "broken-refs", "--repo", f"ghc={ws.repos['ghc']}", cwd=ws.root)
    assert r.code == 1
    assert r.out == (
        "Broken note references (target note not found!):\n"
        "ref    compiler/A.hs:4:26:     Note [Missing]\n"
        "ref    compiler/C.hs:3:7:     Note [Also missing]\n"
        "ref    docs/notes.txt:1:0:     Note [Anywhere]\n"
        "\n"
    )
    defs = run_cli("notes", "defs", "--repo", f"ghc={ws.repos['ghc']}", cwd=ws.root).out
    assert defs.splitlines() == [
        "def    compiler/A.hs:1:3:     Note [Defined]",
        "def    compiler/B.hs:1:3:     Note [Twice]",
        "def    compiler/C.hs:1:3:     Note [Twice]",
        "",
    ]
    unreferenced = run_cli("notes", "unreferenced", "--repo", f"ghc={ws.repos['ghc']}", cwd=ws.root).out
    assert "Note [Twice]" in unreferenced and "Note [Defined]" not in unreferenced


def test_loose_profile_for_pytorch_like_trees(ws: WorkspaceBuilder) -> None:
    from anchorcheck.resolve.notes_profile import find_notes_loose

    defs, refs = find_notes_loose("a.py", "# NOTE [ Autograd Hooks ]\n# text\nx = 1  # see note [autograd  hooks]\n"
                                          "# Note [Other]: explained below\n# See Note [Missing one]\n")
    assert [(d.row, d.name) for d in defs] == [(1, "autograd hooks")]
    assert [(r.row, r.name) for r in refs] == [(3, "autograd hooks"), (4, "other"), (5, "missing one")]
    ws.repo("torch", {
        "a.py": "# NOTE [ Autograd Hooks ]\n# text\n",
        "b.cpp": "// See Note [autograd hooks] and note [Gone Away]\n",
    })
    r = run_cli("notes", "broken-refs", "--profile", "loose", "--repo", f"torch={ws.repos['torch']}", cwd=ws.root)
    assert r.code == 1
    assert r.out.splitlines()[1:] == ["ref    b.cpp:1:33:     Note [gone away]", ""]
