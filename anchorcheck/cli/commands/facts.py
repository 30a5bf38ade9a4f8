"""`anchorcheck facts`: the facts found in code, and literals that restate them."""

from __future__ import annotations

import json
from pathlib import Path

import click

from anchorcheck.cli.app import _run, _workspace, cli, workspace_options
from anchorcheck.config.workspace import Workspace
from anchorcheck.errors import AnchorcheckError
from anchorcheck.report.text import safe_text


@cli.command()
@workspace_options
@click.argument("address", required=False)
@click.option("--format", "fmt", type=click.Choice(["text", "json", "toml"]), default="text",
              show_default=True)


@click.option("--restated", is_flag=True,
              help="List literals in one repo that restate another repo's fact, unmarked.")


def facts(config: Path | None, repos: tuple[str, ...], refs: tuple[str, ...], debug: bool,
          address: str | None, fmt: str, restated: bool) -> None:
    """List the facts found in code (YAML/JSON/TOML keys, Python constants and env
    defaults), to write `restates` markers and contracts with. ADDRESS narrows it:
    REPO:PATH, REPO:PATH::KEY, or PATH. With --restated, the literals that restate a
    fact of another repo without a marker, best first (`--format toml`: contracts)."""
    from anchorcheck.resolve.verify import list_facts

    if restated:
        _restated(_workspace(config, repos, refs, worktree=True), fmt)
        return
    if fmt == "toml":
        raise AnchorcheckError("--format toml lists contracts: it goes with --restated")
    found = list_facts(_workspace(config, repos, refs, worktree=True), address)
    if fmt == "json":
        rows = [{"address": a, "value": f.value, "line": f.line} for a, f in found]
        click.echo(json.dumps({"facts": rows}, indent=2, ensure_ascii=False))
        return
    for addr, fact in found:
        click.echo(f"{safe_text(addr)} = {safe_text(fact.value)}  (line {fact.line})")
    click.echo(f"{len(found)} facts.")


def _restated(ws: Workspace, fmt: str) -> None:
    from anchorcheck.resolve.restated import restated

    result = _run(ws)
    marked = {(r.repo, r.path, r.line) for r in result.index.references if r.kind.value == "restates"}
    found = restated(ws, marked)
    if fmt == "json":
        rows = [{"fact": r.fact, "value": r.value, "restated_at": r.at, "repo": r.repo, "path": r.path,
                 "line": r.line, "why": r.why, "score": r.score, "passthrough": r.passthrough,
                 "marker": r.marker} for r in found]
        click.echo(json.dumps({"restated": rows}, indent=2, ensure_ascii=False))
        return
    if fmt == "toml":
        for r in found:
            click.echo(f'[[contract]]\nname = {json.dumps(r.fact.rpartition("::")[2])}\n'
                       f"facts = [{json.dumps(r.fact)}, {json.dumps(r.at)}]\n")
        return
    for r in found:
        extra = "; its chart passes .Values.env through (AC207)" if r.passthrough else ""
        click.echo(f"{safe_text(r.repo)}:{safe_text(r.path)}:{r.line}: {safe_text(r.value)} restates "
                   f"{safe_text(r.fact)} ({safe_text(r.why)}{extra}); add `{safe_text(r.marker)}`")
    click.echo(f"{len(found)} restated values.")
