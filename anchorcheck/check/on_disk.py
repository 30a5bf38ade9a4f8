"""Whether the file on disk is still the text a check read: `fix` rewrites a file only
then, so a user's edits made since are never overwritten. Here in the check wing,
which reads repos, so that the report wing, which only shows what a check found,
opens no repository (pyproject.toml's import-linter contracts)."""

from __future__ import annotations

from pathlib import Path

from anchorcheck.files import OutputError, work_tree_file
from anchorcheck.git.repo import GitRepo


def why_not_as_read(work_tree: Path, commit: str, path: str, oid: str | None,
                    read_from: str | None) -> str | None:
    """Why the file on disk is not the text that was checked, or None when it is. A
    commit checked (`ref`, `--ref`) must be the work tree's HEAD with the file
    unmodified; the work tree checked as it is on disk (`read_from`, "the work tree")
    must still hold what was read, so the user's uncommitted edits are the text the
    fix is made on, never text it overwrites; the index (`--staged`) must match the
    file on disk, which is the one rewritten."""
    git = GitRepo(work_tree)
    if Path(git.git_dir) == work_tree.resolve() or not (work_tree / ".git").exists():
        return "not a work tree (a bare repo cannot be fixed in place)"
    if read_from is None and git.resolve("HEAD") != commit:
        return "the work tree's HEAD is not the commit checked; check out that ref first"
    if oid is None:
        return "the file is not in the work tree"
    try:
        # Before anything reads or hashes it: git hash-object follows a symlink.
        target = work_tree_file(work_tree, path)
    except OutputError as exc:
        return str(exc).removeprefix(f"{path}: ")
    if git.hash_file(target) != oid:
        if read_from == "the index":
            return "the file on disk differs from what is staged; stage it, or run fix without --staged"
        if read_from is not None:
            return "the file changed on disk while it was checked; run fix again"
        return "the file has local modifications; run fix without a ref to fix the work tree"
    return None
