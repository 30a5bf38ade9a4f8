"""`anchorcheck merge-order`: the order of open changes across repos, and the advisory."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from anchorcheck.cli.app import _colour, _forge_run_warnings, _open_cache, _workspace, cli, workspace_options
from anchorcheck.errors import AnchorcheckError
from anchorcheck.model.finding import Severity
from anchorcheck.report.text import safe_text


@cli.command("merge-order")
@workspace_options
@click.option("--pr", "prs", multiple=True, metavar="LABEL=REF",
              help="An open change: LABEL is REPO#ID or REPO, REF its head. Repeatable.")


@click.option("--open-prs", is_flag=True,
              help="Every open PR (MR) of every workspace repo on GitHub or GitLab is a change; "
                   "mixes with --pr.")


@click.option("--post", "do_post", is_flag=True,
              help="Keep one advisory comment on each PR it speaks to, edited in place on later runs.")


@click.option("--dry-run", "dry_run", is_flag=True, help="With --post: say what would be posted where.")
@click.option("--forge-timeout", type=click.FloatRange(min=0.1), default=10.0, show_default=True,
              metavar="SECONDS", help="Time-out of each request to a forge.")


@click.option("--base", "bases", multiple=True, metavar="REPO=REF",
              help="The base a repo's changes target (default: the repo's workspace ref).")


@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "json"]), default="text",
              show_default=True)


@click.option("--for", "only", metavar="LABEL",
              help="Only what matters to this change (its findings, in every format), and an exit "
                   "code for its findings alone: a CI run of one PR.")


@click.option("--fail-on", type=click.Choice(["error", "warning", "info", "never"]),
              default="error", show_default=True,
              help="Exit 1 when a finding at or above this severity remains (2 when a change "
                   "could not be placed, whatever this says).")


def merge_order(config: Path | None, repos: tuple[str, ...], refs: tuple[str, ...], debug: bool,
                prs: tuple[str, ...], open_prs: bool, do_post: bool, dry_run: bool, forge_timeout: float,
                bases: tuple[str, ...], fmt: str, only: str | None, fail_on: str) -> None:
    """Order open PRs across repos so every reference resolves on arrival; flag PRs that
    break references, conflict, or race on a version bump."""
    from anchorcheck.config.workspace import split_pair
    from anchorcheck.pr.change import ChangeSpec
    from anchorcheck.pr.mergeorder import analyse
    from anchorcheck.pr.open import find_forges, open_changes
    from anchorcheck.report.merge_order import (
        advise,
        exit_code,
        render_merge_json,
        render_merge_markdown,
        render_merge_text,
    )

    if dry_run and not do_post:
        raise AnchorcheckError("--dry-run goes with --post")
    if not prs and not open_prs:
        raise AnchorcheckError("give the open changes: --pr LABEL=REF (repeatable) or --open-prs")
    ws = _workspace(config, repos, refs)
    specs = [ChangeSpec.parse(arg, ws) for arg in prs]
    base_refs = dict(split_pair(arg, "--base", "REPO=REF") for arg in bases)
    for name in base_refs:
        if ws.repo(name) is None:
            raise AnchorcheckError(f"--base names unknown repo {name!r}")
    forges = None
    if open_prs or do_post:
        forges = find_forges(ws, os.environ, timeout=forge_timeout)
        for name, why in forges.nowhere:
            click.echo(f"anchorcheck: warning: {safe_text(name)}: not on a known forge ({safe_text(why)})",
                       err=True)
    if open_prs:
        assert forges is not None
        specs, forge_bases = open_changes(ws, forges, specs)
        base_refs = {**forge_bases, **base_refs}  # --base wins
        if not specs:
            click.echo("No open changes.")
            return
    if only is not None and only not in {s.label for s in specs}:
        labels = ", ".join(s.label for s in specs)
        raise AnchorcheckError(f"--for {only!r} is not one of the --pr labels or open PRs ({labels})")
    cache = _open_cache(ws)
    try:
        analysis = analyse(ws, specs, base_refs, cache=cache)
    finally:
        if cache is not None:
            cache.close()
    for label, why in analysis.unplanned:
        click.echo(f"anchorcheck: warning: {safe_text(label)} not placed: {safe_text(why)}", err=True)
    for label, written in analysis.unknown_declared:
        click.echo(f"anchorcheck: warning: {safe_text(label)} declares Depends-On {safe_text(written)}, "
                   "which is no open change of this run", err=True)
    advisory = advise(analysis, ws.settings.rules)
    if fmt == "json":
        click.echo(render_merge_json(advisory, only), nl=False)
    elif fmt == "markdown":
        click.echo(render_merge_markdown(advisory, only), nl=False)
    else:
        click.echo(render_merge_text(advisory, _colour(), only), nl=False)
    if do_post:
        from anchorcheck.report.post import post

        assert forges is not None
        speak_to = [only] if only is not None else list(analysis.order)
        def say(text: str) -> None:
            click.echo(safe_text(text), err=True)

        for done in post(advisory, speak_to, forges.clients, dry_run, say):
            verb = done.action
            if dry_run and verb in ("created", "edited"):
                verb = f"would have {verb}"
            click.echo(f"anchorcheck: {safe_text(done.label)}: comment {verb} ({safe_text(done.where)})",
                       err=True)
    _forge_run_warnings()
    sys.exit(exit_code(advisory, None if fail_on == "never" else Severity.parse(fail_on), only))
