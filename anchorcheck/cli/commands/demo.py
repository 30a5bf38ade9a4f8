"""`anchorcheck demo`: the three-repo demo workspace, built and checked."""

from __future__ import annotations

from pathlib import Path

import click

from anchorcheck.cli.app import _colour, cli


@cli.command()
@click.option("--keep", type=click.Path(path_type=Path, file_okay=False),
              help="Build the demo workspace here and keep it (default: a temp folder).")


def demo(keep: Path | None) -> None:
    """Build a three-repo workspace (a chart, its runtime, a backend) that replays a
    review thread, and check it."""
    from anchorcheck.cli.demo import run_demo

    run_demo(keep, colour=_colour(), echo=click.echo)
