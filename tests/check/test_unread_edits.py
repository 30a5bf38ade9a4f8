"""A repo the config gives a `ref` is read at that ref, so uncommitted edits in its
work tree are not checked: the check says so once on stderr, naming the files with
findings that have such edits (issue 42, item 4)."""

from __future__ import annotations

from tests.conftest import WorkspaceBuilder, run_cli


def _workspace(ws: WorkspaceBuilder) -> None:
    ws.repo("app", {"README.md": "# App\n\n[x](nope.md)\n", "other.md": "# Other\n"})
    ws.repo("docs", {"guide.md": "# Guide\n\n[y](gone.md)\n"})
    ws.config()  # both at ref main


def test_edits_to_files_with_findings_in_a_repo_read_at_its_ref_are_named_once(ws: WorkspaceBuilder) -> None:
    _workspace(ws)
    (ws.repos["app"] / "README.md").write_text("# App\n\n[x](README.md)\n", encoding="utf-8")
    (ws.repos["app"] / "other.md").write_text("# Other, edited\n", encoding="utf-8")  # no finding in it
    r = run_cli("check", cwd=ws.root)
    assert r.code == 1 and "app:README.md:3:1: AC105" in r.out  # the ref's text, not the fix on disk
    notes = [x for x in r.err.splitlines() if "differ on disk" in x]
    assert len(notes) == 1, r.err
    assert "app at main (README.md)" in notes[0] and "other.md" not in notes[0] and "docs" not in notes[0]
    assert "Remove `ref`" in notes[0]
    again = run_cli("check", cwd=ws.root)  # from the result cache: the same note
    assert [x for x in again.err.splitlines() if "differ on disk" in x] == notes, again.err


def test_no_note_without_edits_for_a_ref_asked_for_or_for_a_work_tree_repo(ws: WorkspaceBuilder) -> None:
    _workspace(ws)
    assert "differ on disk" not in run_cli("check", cwd=ws.root).err  # nothing edited
    (ws.repos["app"] / "README.md").write_text("# App\n\n[x](nope.md)\n\nmore\n", encoding="utf-8")
    # A ref given on the command line is what the user asked to see.
    assert "differ on disk" not in run_cli("check", "--ref", "app=main", cwd=ws.root).err
    # With no ref the work tree itself is checked: nothing left unread.
    (ws.root / "anchorcheck.toml").write_text(
        '[[repo]]\nname = "app"\npath = "app"\n\n[[repo]]\nname = "docs"\npath = "docs"\n', encoding="utf-8")
    r = run_cli("check", cwd=ws.root)
    assert "app:README.md:3:1: AC105" in r.out and "differ on disk" not in r.err, r.err
