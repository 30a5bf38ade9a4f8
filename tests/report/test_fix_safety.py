"""`fix --write` on repos built as an attacker would (committed symlinks, a `..` tree
entry made with git mktree, then `git clone`), and beside an editor saving meanwhile."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from anchorcheck.config.workspace import load_workspace
from anchorcheck.git.repobuilder import git, init_repo
from anchorcheck.report.fix import make_patches, planned_edits, write
from tests.conftest import run_cli

DRIFTED = "# Verified: `type: Recreate` at :4\nspec:\n  strategy:\n    x: 1\n    type: Recreate\n"
FIXED = DRIFTED.replace("at :4", "at :5")


def clone(src: Path, dest: Path) -> Path:
    subprocess.run(["git", "clone", "-q", str(src), str(dest)], check=False, capture_output=True)
    return dest


def test_a_committed_temp_name_symlink_is_never_written_through(tmp_path: Path) -> None:
    victim = tmp_path / "outside" / "victim.txt"
    victim.parent.mkdir()
    victim.write_text("precious\n")
    src = init_repo(tmp_path / "src", {"deploy.yaml": DRIFTED})
    # The names a fix could write beside the file, committed as symlinks to the victim.
    for name in ("deploy.yaml.anchorcheck-tmp", ".deploy.yaml.anchorcheck"):
        os.symlink(victim, src / name)
    git(src, "add", "-A")
    git(src, "commit", "-qm", "links")
    work = clone(src, tmp_path / "work")
    assert (work / "deploy.yaml.anchorcheck-tmp").is_symlink()
    run = run_cli("fix", "--write", cwd=work)
    assert run.code == 0, run.err
    assert victim.read_text() == "precious\n"
    target = work / "deploy.yaml"
    assert not target.is_symlink() and target.read_text() == FIXED
    assert (work / "deploy.yaml.anchorcheck-tmp").is_symlink()  # left as committed


def test_a_committed_symlink_file_is_refused(tmp_path: Path) -> None:
    victim = tmp_path / "outside" / "deploy.yaml"
    victim.parent.mkdir()
    victim.write_text(DRIFTED)
    src = init_repo(tmp_path / "src", {"real.yaml": "x: 1\n"})
    os.symlink(victim, src / "deploy.yaml")
    git(src, "add", "-A")
    git(src, "commit", "-qm", "link")
    work = clone(src, tmp_path / "work")
    run = run_cli("fix", "--write", cwd=work)
    assert run.code == 0, run.err
    assert victim.read_text() == DRIFTED


def test_a_dot_dot_tree_entry_never_leads_out_of_the_work_tree(tmp_path: Path) -> None:
    src = init_repo(tmp_path / "src", {"ok.yaml": "x: 1\n"})
    blob = _blob(src, DRIFTED)
    inner = _mktree(src, f"100644 blob {blob}\tevil.yaml\n")
    ok = git(src, "rev-parse", "HEAD:ok.yaml").strip()
    top = _mktree(src, f"040000 tree {inner}\t..\n100644 blob {ok}\tok.yaml\n")
    commit = _git_out(src, "commit-tree", top, "-p", "HEAD", "-m", "dot dot").strip()
    git(src, "update-ref", "refs/heads/main", commit)
    work = clone(src, tmp_path / "work")  # the checkout fails; HEAD is left at the commit
    # What the `..` entry names, with the text git has for it (so a hash check passes).
    outside = tmp_path / "evil.yaml"
    outside.write_text(DRIFTED)
    run = run_cli("fix", "--write", cwd=work)
    assert run.code in (0, 2), run.err
    assert "Traceback" not in run.err
    assert outside.read_text() == DRIFTED


def test_an_edit_saved_while_fix_runs_is_kept(tmp_path: Path) -> None:
    work = init_repo(tmp_path / "r", {"deploy.yaml": DRIFTED})
    config = tmp_path / "anchorcheck.toml"
    config.write_text(f'[[repo]]\nname = "r"\npath = "{work}"\n')
    from anchorcheck.check.pipeline import run_check

    result = run_check(load_workspace(config))
    patches, skipped = make_patches(result, planned_edits(result))
    assert [p.path for p in patches] == ["deploy.yaml"] and not skipped
    # The editor saves between the read and the write.
    (work / "deploy.yaml").write_text(DRIFTED + "# a line typed meanwhile\n")
    left = write(patches)
    assert left == ["r:deploy.yaml: changed while fix ran; left as it is"]
    assert (work / "deploy.yaml").read_text() == DRIFTED + "# a line typed meanwhile\n"
    assert sorted(p.name for p in work.iterdir()) == [".git", "deploy.yaml"]  # no temp file left


def _git_out(repo: Path, *args: str, stdin: str | None = None) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "A", "GIT_AUTHOR_EMAIL": "a@example.org",
           "GIT_COMMITTER_NAME": "A", "GIT_COMMITTER_EMAIL": "a@example.org",
           "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z"}
    return subprocess.run(["git", *args], cwd=repo, input=stdin, capture_output=True, text=True,
                          check=True, env=env).stdout


def _blob(repo: Path, text: str) -> str:
    return _git_out(repo, "hash-object", "-w", "--stdin", stdin=text).strip()


def _mktree(repo: Path, listing: str) -> str:
    return _git_out(repo, "mktree", stdin=listing).strip()
