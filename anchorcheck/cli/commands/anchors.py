"""`anchorcheck anchors`: every anchor, and how many cite it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from anchorcheck.cli.app import _run, _workspace, cli, index_option, workspace_options
from anchorcheck.report.text import safe_text

if TYPE_CHECKING:
    # The pipeline (networkx, the rules) loads on first use, so a command that does
    # not need it (notes, rules) starts fast.
    from anchorcheck.check.pipeline import CheckResult


@cli.command()
@workspace_options
@index_option
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)


def anchors(config: Path | None, repos: tuple[str, ...], refs: tuple[str, ...], debug: bool,
            fmt: str) -> None:
    """List every anchor: name, kind, location, and how many references cite it."""
    result = _run(_workspace(config, repos, refs, worktree=True))
    rows = _anchor_rows(result)
    if fmt == "json":
        click.echo(json.dumps({"anchors": rows}, indent=2, ensure_ascii=False))
        return
    for row in rows:
        click.echo(f"{safe_text(row['repo'])}:{safe_text(row['path'])}:{row['line']}: {row['kind']} "
                   f"{safe_text(row['name'])} ({row['citations']} citing)")
    click.echo(f"{len(rows)} anchors.")


def _anchor_rows(result: CheckResult) -> list[dict[str, Any]]:
    from anchorcheck.resolve.graph import anchor_node, citation_count

    rows = []
    for anchor in sorted(result.index.anchors, key=lambda a: (a.repo, a.path, a.line, a.col)):
        rows.append({
            "name": anchor.name,
            "kind": anchor.kind.value,
            "repo": anchor.repo,
            "path": anchor.path,
            "line": anchor.line,
            "slug": anchor.slug,
            "citations": citation_count(result.graph, anchor_node(anchor)),
        })
    return rows
