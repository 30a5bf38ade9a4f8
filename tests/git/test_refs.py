"""Refs read from the files (refs.read_ref) against git's own answer, in real repos."""

from __future__ import annotations

from pathlib import Path

from anchorcheck.git.refs import read_ref
from anchorcheck.git.repo import GitRepo
from anchorcheck.git.repobuilder import commit, git, init_repo


def _rev_parse(repo: Path, name: str) -> str | None:
    try:
        return git(repo, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{name}^{{commit}}").strip()
    except RuntimeError:  # git exits 1: no such ref (repobuilder.git raises)
        return None


def test_read_refs_agree_with_git(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "r", {"a.txt": "a\n"})
    first = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "branch", "feature/x")
    git(repo, "tag", "light")
    git(repo, "tag", "-a", "annotated", "-m", "a tag")
    git(repo, "pack-refs", "--all")  # main, feature/x and the tags now only in packed-refs
    second = commit(repo, {"a.txt": "b\n"})  # main is loose again, newer than its packed line
    git(repo, "update-ref", "refs/remotes/origin/main", first)
    git(repo, "symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/main")
    git(repo, "branch", "old", first)
    git_dir = repo / ".git"
    read = {name: read_ref(git_dir, name) for name in (
        "main", "HEAD", "feature/x", "refs/heads/main", "origin", "origin/main", "old")}
    assert read == {"main": second, "HEAD": second, "feature/x": first, "refs/heads/main": second,
                    "origin": first, "origin/main": first, "old": first}
    for name, found in read.items():
        assert found == _rev_parse(repo, name), name
    # Left to git: tags (an annotated one names a tag object), shas, revision syntax,
    # names that are no ref.
    for name in ("light", "annotated", second, second[:12], "main~1", "main^{commit}", "nope", "refs"):
        assert read_ref(git_dir, name) is None, name
        expected = _rev_parse(repo, name)
        if expected is not None:  # git answers through resolve as before
            assert GitRepo(repo).resolve(name) == expected
    # A file named like the ref in the git dir comes first, as git reads it.
    (git_dir / "old").write_text(second + "\n")
    assert read_ref(git_dir, "old") == second == _rev_parse(repo, "old")
    # A detached HEAD; a linked work tree reads its own HEAD and the shared branches.
    git(repo, "checkout", "-q", "--detach", first)
    assert read_ref(git_dir, "HEAD") == first == _rev_parse(repo, "HEAD")
    git(repo, "worktree", "add", "-q", str(tmp_path / "wt"), "old")
    wt_dir = Path(GitRepo(tmp_path / "wt").git_dir)
    assert read_ref(wt_dir, "HEAD") == _rev_parse(tmp_path / "wt", "HEAD")
    assert read_ref(wt_dir, "main") == second


def test_a_reftable_repository_is_asked_of_git(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "r", {"a.txt": "a\n"})
    (repo / ".git" / "reftable").mkdir()
    assert read_ref(repo / ".git", "main") is None


def test_a_packed_ref_is_found_among_many_whose_names_it_starts_or_ends(tmp_path: Path) -> None:
    # A forge's mirror packs a ref per pull request: the branch's line is found by a
    # search, not by reading them all, and names that hold its name are not it.
    repo = init_repo(tmp_path / "r", {"a.txt": "a\n"})
    first = git(repo, "rev-parse", "HEAD").strip()
    second = commit(repo, {"a.txt": "b\n"})
    for n in range(300):
        git(repo, "update-ref", f"refs/pull/{n}/head", first)
    git(repo, "update-ref", "refs/heads/main-old", first)
    git(repo, "update-ref", "refs/remotes/x/refs/heads/main", first)
    git(repo, "tag", "-a", "v1", "-m", "a tag")  # its peeled line (^SHA) follows
    git(repo, "pack-refs", "--all")
    git_dir = repo / ".git"
    assert "refs/heads/main" in (git_dir / "packed-refs").read_text() and not (git_dir / "refs/heads/main").exists()
    for name in ("main", "refs/heads/main", "HEAD", "main-old", "pull/7/head", "x/refs/heads/main", "mai"):
        assert read_ref(git_dir, name) == _rev_parse(repo, name), name
    assert read_ref(git_dir, "main") == second
    # The last line of the file, with no newline after it, and a repeated name (the
    # last line counts).
    text = (git_dir / "packed-refs").read_text()
    (git_dir / "packed-refs").write_text(text + f"{first} refs/heads/main\n{first} refs/heads/tip")
    assert read_ref(git_dir, "main") == first and read_ref(git_dir, "tip") == first
