"""grep_fixed: the files holding any of many strings, in batches git takes."""

from __future__ import annotations

from pathlib import Path

from anchorcheck.git.repo import GitRepo
from anchorcheck.git.repobuilder import init_repo
from anchorcheck.git.search import _GREP_STRINGS


def test_many_strings_are_searched_in_batches(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "r", {
        "a.py": "# word-0007 here\n", "b.yaml": "# nothing\n", "c.py": "x = 'Word-0449'\n",
        "d.md": "word-0449\n", "-e.py": "# -e\n",
    })
    git = GitRepo(repo)
    words = [f"word-{i:04d}" for i in range(450)] + ["-e"]  # (three batches; a string that looks like an option)
    assert len(words) > 2 * _GREP_STRINGS
    commit = git.resolve("main")
    assert git.grep_fixed(words, commit, ("*.py", "*.yaml")) == {"a.py", "-e.py"}  # case as written
    assert git.grep_fixed(words[:10], commit, ("*.py",)) == {"a.py"}
    assert git.grep_fixed([], commit, ("*.py",)) == set()
