"""`anchorcheck refs`: every reference and what it resolved to."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from anchorcheck.cli.app import _run, _workspace, cli, index_option, workspace_options
from anchorcheck.report.text import safe_text


@cli.command()
@workspace_options
@index_option
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)


@click.option("--all", "show_all", is_flag=True,
              help="Also list the references not judged (links into repos outside the workspace...).")


@click.option("--unresolved", is_flag=True,
              help="Only the references not judged, in whole or in part, each with its reason.")


def refs(config: Path | None, repos: tuple[str, ...], refs: tuple[str, ...], debug: bool,
         fmt: str, show_all: bool, unresolved: bool) -> None:
    """List every reference and what it resolved to."""
    from anchorcheck.resolve.resolution import Status

    result = _run(_workspace(config, repos, refs, worktree=True))
    listed = list(result.resolutions)
    if unresolved or show_all:
        from anchorcheck.check.unchecked import changelog_references

        listed += changelog_references(result.index, result.workspace.settings)
    rows: list[dict[str, Any]] = []
    for res in sorted(listed, key=lambda r: (r.reference.repo, r.reference.path,
                                             r.reference.line, r.reference.col)):
        if unresolved and res.unchecked is None:
            continue
        if res.status is Status.EXTERNAL and not (show_all or unresolved):
            continue
        ref = res.reference
        targets = [f"{a.repo}:{a.path}:{a.line}" for a in res.anchors] or [
            f"{repo}:{path}" for repo, path in res.files
        ]
        rows.append({
            "repo": ref.repo, "path": ref.path, "line": ref.line, "column": ref.col + 1,
            "kind": ref.kind.value, "text": ref.text, "status": res.status.value,
            "targets": targets, "unchecked": None if res.unchecked is None else str(res.unchecked),
            "evidence": str(ref.evidence),
        })
    if fmt == "json":
        click.echo(json.dumps({"references": rows}, indent=2, ensure_ascii=False))
        return
    for row in rows:
        target = safe_text(", ".join(row["targets"])) or "-"
        why = f" (not checked: {row['unchecked']})" if row["unchecked"] else ""
        click.echo(f"{safe_text(row['repo'])}:{safe_text(row['path'])}:{row['line']}:{row['column']}: "
                   f"{safe_text(row['text'])} -> {row['status']} {target}{why}")
    click.echo(f"{len(rows)} references.")
