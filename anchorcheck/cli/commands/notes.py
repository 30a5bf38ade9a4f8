"""`anchorcheck notes`: GHC-style Notes as GHC's lint-notes reports them."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from anchorcheck.cli.app import EXIT_FINDINGS, _workspace, cli, workspace_options
from anchorcheck.report.text import safe_lines


@cli.command()
@workspace_options
@click.argument("mode", type=click.Choice(["broken-refs", "refs", "defs", "unreferenced"]),
                default="broken-refs")


@click.option("--profile", type=click.Choice(["ghc", "loose"]), default="ghc", show_default=True,
              help="ghc: GHC's linters/lint-notes rules, over every tracked file as raw text. "
                   "loose (PyTorch-like): any case, blanks in the brackets, no underline needed.")


def notes(config: Path | None, repos: tuple[str, ...], refs: tuple[str, ...], debug: bool,
          mode: str, profile: str) -> None:
    """GHC-style Notes, exactly as GHC's `lint-notes MODE` reports them (its output
    format), for comparison with GHC's golden list. Exit 1 when broken-refs finds any."""
    from anchorcheck.resolve.notes_profile import note_db, render_lint_notes

    db = note_db(_workspace(config, repos, refs), profile)
    click.echo(safe_lines(render_lint_notes(db, mode)), nl=False)
    if mode == "broken-refs" and db.broken():
        sys.exit(EXIT_FINDINGS)
