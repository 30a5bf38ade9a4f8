"""`anchorcheck fix`: drifted line numbers and wrong paths, rewritten."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from anchorcheck.cli.app import _run, _workspace, cli, workspace_options
from anchorcheck.errors import AnchorcheckError
from anchorcheck.report.text import safe_lines, safe_text

# For the annotations only: the command imports what it runs when it runs, so that
# start-up stays short (Edit again where stale_comment_edits makes one).
if TYPE_CHECKING:
    from anchorcheck.check.pipeline import CheckResult
    from anchorcheck.git.repo import GitRepo
    from anchorcheck.report.fix import Edit


@cli.command()
@workspace_options
@click.option("--write", "do_write", is_flag=True, help="Rewrite the files (default: show a diff).")
@click.option("--dry-run", "dry_run", is_flag=True, help="Show the diff only (the default).")
@click.option("--changed-only", "changed_only", multiple=True, metavar="[REPO=]REV",
              help="Also put the new token into comments that a change since REV left naming "
                   "the one it replaced (AC206).")


@click.option("--staged", is_flag=True,
              help="In a work tree given no ref, fix what check --staged reports: the staged "
                   "text, in files whose text on disk is the staged one.")


def fix(config: Path | None, repos: tuple[str, ...], refs: tuple[str, ...], debug: bool,
        do_write: bool, dry_run: bool, changed_only: tuple[str, ...], staged: bool) -> None:
    """Rewrite drifted line numbers (AC201) and wrong-location paths (AC102) in place,
    showing a unified diff; with --changed-only, replaced tokens in stale comments too
    (AC206). Nothing else is ever touched."""
    from anchorcheck.report.fix import make_patches, planned_edits, write

    if do_write and dry_run:
        raise AnchorcheckError("--write and --dry-run exclude each other")
    result = _run(_workspace(config, repos, refs, worktree=True))
    edits = planned_edits(result)
    if changed_only:
        from anchorcheck.check.changed import changed_bases, changed_paths

        def warn(text: str) -> None:
            click.echo(f"anchorcheck: warning: {safe_text(text)}", err=True)

        bases = changed_bases(result, changed_only, warn)
        edits += stale_comment_edits(result, bases, changed_paths(bases))
    patches, skipped = make_patches(result, edits)
    for patch in patches:
        click.echo(safe_lines(patch.diff()), nl=False)
    for reason in skipped:
        click.echo(f"anchorcheck: not fixed: {safe_text(reason)}", err=True)
    if do_write:
        left = write(patches)
        for reason in left:
            click.echo(f"anchorcheck: warning: not fixed: {safe_text(reason)}", err=True)
        done = len(patches) - len(left)
        click.echo(f"Fixed {done} file{'s' if done != 1 else ''}.", err=True)
    elif patches:
        click.echo("(dry run: rerun with --write to apply)", err=True)
    if not patches and not skipped:
        click.echo("Nothing to fix: no drifted line numbers (AC201) or wrong paths (AC102)"
                   + (", and no stale comments (AC206)." if changed_only else "."), err=True)


def stale_comment_edits(result: CheckResult, bases: dict[str, tuple[GitRepo, str, str]],
                        changed_by_repo: dict[str, list[str]]) -> list[Edit]:
    """AC206: the new token, put where a stale comment names the old one."""
    from anchorcheck.pr.stale import stale_since
    from anchorcheck.report.fix import Edit

    found = stale_since(bases, changed_by_repo, result.index, result.resolutions,
                        result.workspace.settings.max_file_size)
    return [Edit(s.repo, s.path, s.line, s.replaced.old, s.replaced.new, "AC206", token=True) for s in found]
