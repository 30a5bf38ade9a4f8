"""`anchorcheck index`: one repo's snapshot as a portable file."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import click

from anchorcheck.cli.app import _open_cache, _workspace, cli, workspace_options
from anchorcheck.errors import AnchorcheckError
from anchorcheck.report.text import safe_text


@cli.command("index")
@workspace_options
@click.argument("names", nargs=-1, metavar="[REPO]...")
@click.option("--out", "-o", "out", required=True, type=click.Path(path_type=Path, dir_okay=False),
              help="The index file to write (gzip-compressed JSON).")


def index_cmd(config: Path | None, repos: tuple[str, ...], refs: tuple[str, ...], debug: bool,
              names: tuple[str, ...], out: Path) -> None:
    """Scan some repos of the workspace (default: all) into a portable index file, for
    `check --index`: one job per repo does the heavy part, one job checks."""
    from anchorcheck.check.index_file import IndexedRepo, write_index
    from anchorcheck.git.repo import GitRepo
    from anchorcheck.index.crawl import crawl
    from anchorcheck.resolve.definition_shapes import defined_names
    from anchorcheck.resolve.history import repo_removals

    ws = _workspace(config, repos, refs)
    unknown = [n for n in names if ws.repo(n) is None]
    if unknown:
        raise AnchorcheckError(f"no repo {unknown[0]!r} in the workspace "
                               f"({', '.join(r.name for r in ws.repos)})")
    chosen = [r for r in ws.repos if not names or r.name in names]
    cache = _open_cache(ws)
    built = []
    try:
        for spec in chosen:
            snap = crawl(spec, ws.settings, cache=cache)
            depth = ws.settings.history_depth
            git = GitRepo(spec.path)
            removals = repo_removals(git, spec.name, snap.commit, depth, cache) if depth > 0 else {}
            defined = defined_names(git, snap.commit, cache) if depth > 0 else frozenset()
            built.append(IndexedRepo(replace(spec, path=spec.path.resolve()), snap.commit, snap,
                                     removals, defined, str(out)))
    finally:
        if cache is not None:
            cache.close()
    write_index(out, built, ws.settings)
    for item in built:
        click.echo(f"{safe_text(item.spec.name)} at {item.commit[:12]}: {len(item.snapshot.paths)} files, "
                   f"{len(item.snapshot.anchors)} anchors, {len(item.snapshot.references)} references",
                   err=True)
    click.echo(f"anchorcheck: wrote {safe_text(str(out))}", err=True)
