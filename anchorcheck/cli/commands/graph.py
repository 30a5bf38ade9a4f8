"""`anchorcheck graph`: the reference graph, drawn or exported."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from anchorcheck.cli.app import _run, _workspace, cli, index_option, workspace_options
from anchorcheck.errors import AnchorcheckError
from anchorcheck.report.text import safe_text


def through_dot(dot: str, fmt: str) -> bytes:
    """The DOT text drawn by Graphviz's `dot` as SVG or PNG; a clear error when `dot`
    is not installed or fails. Run here, as the command's own step: the report wing
    only makes the text, and opens nothing (pyproject.toml's import-linter contracts)."""
    from anchorcheck.git.process import run_tool

    return run_tool(["dot", f"-T{fmt}"], dot.encode("utf-8"),
                    missing="--format svg and png need Graphviz's `dot` on PATH (Debian: apt-get install "
                            "graphviz; macOS: brew install graphviz); --format dot prints what it would draw")


def _tell_about_view(g: Any, notes: list[str]) -> None:
    """Say on stderr what the view left out: an empty view, or one collapsed past what
    was asked (a plain `graph` of a large workspace printed nothing and exited 0)."""
    for note in notes:
        click.echo(f"anchorcheck: warning: {safe_text(note)}", err=True)
    if g.number_of_nodes() == 0:
        click.echo("anchorcheck: warning: the view is empty: nothing matched what was asked "
                   "(--only-repo, --anchor, --problems)", err=True)


@cli.command()
@workspace_options
@index_option
@click.option("--format", "fmt",
              type=click.Choice(["dot", "mermaid", "json", "graphml", "html", "svg", "png"]),
              default="mermaid", show_default=True,
              help="svg and png are drawn by Graphviz's dot, which must be installed.")


@click.option("--output", "-o", type=click.Path(path_type=Path, dir_okay=False),
              help="Write here instead of stdout.")


@click.option("--only-repo", "only_repo", metavar="NAME",
              help="Only this repo and what it touches.")


@click.option("--anchor", "anchor_name", metavar="NAME", help="Only this anchor's neighbourhood.")
@click.option("--depth", type=click.IntRange(0, 20), default=2, show_default=True,
              help="Hops around --anchor.")


@click.option("--problems", is_flag=True, help="Only nodes with findings, and their neighbours.")
@click.option("--collapse", type=click.Choice(["files", "repos"]),
              help="Summarise to files or repos, with citation counts on the edges.")


def graph(config: Path | None, repos: tuple[str, ...], refs: tuple[str, ...], debug: bool, fmt: str,
          output: Path | None, only_repo: str | None, anchor_name: str | None, depth: int,
          problems: bool, collapse: str | None) -> None:
    """Draw the reference graph: repos, files, anchors and references."""
    from anchorcheck.files import write_atomically
    from anchorcheck.report import graph_export as gx

    ws = _workspace(config, repos, refs, worktree=True)
    if only_repo is not None and ws.repo(only_repo) is None:
        raise AnchorcheckError(f"--only-repo {only_repo!r} is not a workspace repo")
    g = gx.export_graph(_run(ws))
    if only_repo:
        g = gx.keep_repo(g, only_repo)
    notes: list[str] = []
    if anchor_name:
        whole, g = g, gx.keep_anchor(g, anchor_name, depth)
        if g.number_of_nodes() == 0:
            near = gx.nearest_anchors(whole, anchor_name)
            hint = f" (did you mean {', '.join(repr(x) for x in near)}?)" if near else ""
            notes.append(f"--anchor: no anchor is named {anchor_name!r}{hint}")
    if problems:
        g = gx.keep_problems(g)
    if collapse:
        g = gx.collapse(g, collapse)
    if fmt in ("svg", "png"):
        text_or_bytes = through_dot(gx.to_dot(g), fmt)
        _tell_about_view(g, notes)
        if output is None:
            sys.stdout.buffer.write(text_or_bytes)
            sys.stdout.flush()
        else:
            from anchorcheck.files import write_atomically_bytes

            write_atomically_bytes(output, text_or_bytes)
        return
    render = {"dot": gx.to_dot, "mermaid": lambda view: gx.to_mermaid(view, notes), "json": gx.to_json,
              "graphml": gx.to_graphml, "html": gx.to_html}[fmt]
    text = render(g)
    _tell_about_view(g, notes)
    if output is None:
        click.echo(text, nl=False)
    else:
        write_atomically(output, text)
