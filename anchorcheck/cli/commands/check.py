"""`anchorcheck check`: the findings of a workspace, in every output format."""

from __future__ import annotations

import contextlib
import os
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import click

from anchorcheck.cli.app import (
    EXIT_FINDINGS,
    _colour,
    _forge_run_warnings,
    _place_in_workspace,
    _run,
    _under,
    _workspace,
    cli,
    index_option,
    workspace_options,
)
from anchorcheck.config.workspace import Workspace
from anchorcheck.errors import AnchorcheckError
from anchorcheck.model.finding import Severity
from anchorcheck.report.text import render_json, render_text, safe_text

if TYPE_CHECKING:
    # The pipeline (networkx, the rules) loads on first use, so a command that does
    # not need it (notes, rules) starts fast.
    from anchorcheck.check.pipeline import CheckResult, ForgeAccess
    from anchorcheck.config.selection import Selection
    from anchorcheck.model.finding import FingerprintedFinding


CHECK_FORMATS = ("text", "json", "sarif", "sarif-per-repo", "github", "markdown", "junit")


@cli.command()
@workspace_options
@click.option("--format", "formats", multiple=True, metavar="FORMAT[:FILE]",
              help=f"One of {', '.join(CHECK_FORMATS)}; repeatable, each with its own file "
                   "(`--format sarif:out.sarif --format text`). Default: text.")


@click.option("--output", "-o", type=click.Path(path_type=Path, dir_okay=False),
              help="Write the (one) format given without a FILE here instead of stdout.")


@click.option("--fail-on", type=click.Choice(["error", "warning", "info", "never"]),
              default="error", show_default=True,
              help="Exit 1 when a finding at or above this severity remains.")


@click.option("--select", "select", multiple=True, metavar="CODES",
              help="Run only these rule codes or prefixes (AC1, AC201,AC202; ALL); longest prefix wins.")


@click.option("--ignore", "ignore", multiple=True, metavar="CODES",
              help="Rule codes or prefixes not to run.")


@click.option("--kind", "kinds", multiple=True, metavar="KIND",
              help="Report on these file kinds only (markdown, yaml, python...; repeatable): only they "
                   "are read, and what they cite. Replaces `kinds` of the config.")


@click.option("--enable", "enable", multiple=True, metavar="CODE",
              help="Add rules to the default set (AC120, AC207, AC901, which are off by default).")


@click.option("--baseline", type=click.Path(path_type=Path, dir_okay=False),
              help="Report only findings not in this baseline; name stale entries.")


@click.option("--write-baseline", type=click.Path(path_type=Path, dir_okay=False),
              help="Write every current finding to this baseline file.")


@click.option("--changed-only", "changed_only", multiple=True, metavar="[REPO=]REV",
              help="Only findings in, or caused by, files changed since REV.")


@click.option("--changed", "as_change", is_flag=True,
              help="PATHS are a change being judged (pre-commit passes the staged files): only findings "
                   "in them, or caused by them elsewhere (a citation of a heading they remove); the "
                   "current repo's files the commit deletes count too.")


@click.option("--forge", "forge_mode", type=click.Choice(["on", "require"]), is_flag=False, flag_value="on",
              default=None, help="Ask the forges about issue references (AC106, AC107); on by default "
                                 "when a token is set. require: a forge that fails is an error.")


@click.option("--offline", is_flag=True, help="No forge calls at all.")
@click.option("--staged", is_flag=True,
              help="In a work tree given no ref, check what is staged (what a commit records), not "
                   "the files on disk.")


@click.option("--statistics", is_flag=True,
              help="Text: the number of findings of each rule, not the findings.")


@click.option("--show-source", is_flag=True, help="Text: each finding's line, with a caret under its column.")
@click.option("--color", "color", type=click.Choice(["auto", "always", "never"]), default="auto",
              show_default=True, help="Colour in text output (FORCE_COLOR and NO_COLOR are read too).")


@index_option
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
def check(config: Path | None, repos: tuple[str, ...], refs: tuple[str, ...], debug: bool,
          formats: tuple[str, ...], output: Path | None, fail_on: str, select: tuple[str, ...],
          ignore: tuple[str, ...], enable: tuple[str, ...], baseline: Path | None,
          write_baseline: Path | None, changed_only: tuple[str, ...], as_change: bool, forge_mode: str | None,
          offline: bool, staged: bool, paths: tuple[Path, ...], statistics: bool, show_source: bool,
          color: str, kinds: tuple[str, ...]) -> None:
    """Report dangling, misplaced, ambiguous and duplicate references and anchors, and
    claims about code that no longer hold."""
    # (What --changed-only and the baselines need is imported when asked for.)
    targets = _format_targets(formats or ("text",), output)
    ws = _workspace(config, repos, refs, worktree=True)
    if kinds:
        from anchorcheck.config.values import file_kinds

        ws = replace(ws, settings=replace(ws.settings, kinds=file_kinds(list(kinds), "--kind")))
    selection = ws.settings.rules.plus(select=select, ignore=ignore, extend=enable)
    result = _run(ws, selection=selection, forge=_forge_access(forge_mode, offline))
    for warning in result.forge_warnings:
        click.echo(f"anchorcheck: warning: {safe_text(warning)}", err=True)
    _forge_run_warnings()
    findings = [ff for ff in result.findings if not ws.settings.ignored_in(ff.finding.path, ff.finding.code)]
    if as_change:
        findings = _caused_by(result, findings, paths)
    elif paths:
        # Only findings in those files and folders; the whole workspace was indexed, so
        # a citation into a file not named still resolves.
        places = [_place_in_workspace(ws, p) for p in paths]
        findings = [ff for ff in findings if any(_under(ff.finding.repo, ff.finding.path, place)
                                                  for place in places)]
    if changed_only:
        findings = _changed_since(result, findings, changed_only, selection)
    findings, stale = _baselines(findings, baseline, write_baseline)
    from anchorcheck.check.unread_edits import unread_edits

    unread = unread_edits(ws, result.index.snapshots, findings, {arg.partition("=")[0] for arg in refs})
    if unread is not None:
        click.echo(f"anchorcheck: {safe_text(unread)}", err=True)
    for fmt, target in targets:
        _emit(fmt, target, result, findings, stale, color, statistics, show_source)
    if fail_on != "never":
        threshold = Severity.parse(fail_on)
        if any(ff.finding.severity >= threshold for ff in findings):
            sys.exit(EXIT_FINDINGS)


def _changed_since(result: CheckResult, findings: list[FingerprintedFinding], revs: tuple[str, ...],
                   selection: Selection) -> list[FingerprintedFinding]:
    """`--changed-only`: the findings the change since each REV is responsible for,
    with the change rules as merge-order tells them for an open PR: the chart guard
    (AC306) and comments left naming a replaced token (AC206)."""
    from anchorcheck.check.changed import (
        changed_bases,
        changed_files,
        changed_paths,
        only_changed,
        stale_comments,
        unbumped,
    )

    def warn(text: str) -> None:
        click.echo(f"anchorcheck: warning: {safe_text(text)}", err=True)

    bases = changed_bases(result, revs, warn)
    changed = changed_paths(bases)
    findings = only_changed(result, findings, changed_files(changed))
    extra = [*(unbumped(result, bases, changed) if selection.enabled("AC306", True) else ()),
             *(stale_comments(result, bases, changed) if selection.enabled("AC206", True) else ())]
    if not extra:
        return findings
    return sorted([*findings, *extra], key=lambda ff: (ff.finding.repo, ff.finding.path, ff.finding.line))


def _baselines(findings: list[FingerprintedFinding], baseline: Path | None, write_baseline: Path | None,
               ) -> tuple[list[FingerprintedFinding], list[str]]:
    """`--write-baseline` (every finding, before the baseline read), then `--baseline`:
    the findings it does not hold, and its entries that match nothing now (said on
    stderr, and kept for the JSON output)."""
    if write_baseline is not None:
        from anchorcheck.check.baseline import write_baseline as save_baseline

        save_baseline(write_baseline, findings)
    if baseline is None:
        return findings, []
    from anchorcheck.check.baseline import apply_baseline, read_baseline

    findings, stale_entries = apply_baseline(findings, read_baseline(baseline))
    stale = [f"{e.code} {e.repo}:{e.path}: {e.message}" for e in stale_entries]
    for entry in stale:
        click.echo(f"anchorcheck: stale baseline entry (fixed; remove it): {safe_text(entry)}", err=True)
    return findings, stale


def _emit(fmt: str, target: Path | None, result: CheckResult, findings: list[FingerprintedFinding],
          stale: list[str], color: str, statistics: bool, show_source: bool) -> None:
    """One output format, to stdout or its file."""
    ws = result.workspace
    if fmt == "sarif-per-repo":
        assert target is not None
        _sarif_per_repo(target, findings, ws)
        return
    text = _render(fmt, result, findings, ws, target is None and _colour(color), stale)
    if fmt == "text" and statistics:
        text = _statistics(findings)
    elif fmt == "text" and show_source:
        text = _with_source(text, result, findings, target is None and _colour(color))
    if target is None:
        # (click strips colour when stdout is no terminal: --color always keeps it.)
        forced = color == "always" or (color == "auto" and bool(os.environ.get("FORCE_COLOR")))
        click.echo(text, nl=False, color=True if forced else None)
    else:
        from anchorcheck.files import write_atomically

        write_atomically(target, text)


def _sarif_per_repo(folder: Path, findings: list[FingerprintedFinding], ws: Workspace) -> None:
    """One SARIF file per repo, `DIR/REPO.sarif`, holding that repo's findings: code
    scanning attaches a file's results to the repository it is uploaded to, so each
    repo's job uploads its own."""
    from anchorcheck.files import write_atomically
    from anchorcheck.report import ci as report_ci

    for spec in ws.repos:
        mine = [ff for ff in findings if ff.finding.repo == spec.name]
        write_atomically(folder / f"{spec.name}.sarif", report_ci.render_sarif(mine, ws))


def _statistics(findings: list[FingerprintedFinding]) -> str:
    """Findings counted per rule, most first (ruff's --statistics)."""

    counts = Counter((ff.finding.code, ff.finding.rule) for ff in findings)
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    lines = [f"{n:>6}  {code}  {name}" for (code, name), n in ranked]
    lines.append(f"Found {len(findings)} problem{'s' if len(findings) != 1 else ''}." if findings
                 else "No problems found.")
    return "\n".join(lines) + "\n"


def _with_source(text: str, result: CheckResult, findings: list[FingerprintedFinding], colour: bool) -> str:
    """Text output with each finding's line of source and a caret (not in colour mode's
    grouped layout: there the lines stay as they are)."""
    if colour:
        return text
    from anchorcheck.git.blobtext import decode_blob
    from anchorcheck.git.repo import GitRepo

    wanted: dict[str, set[str]] = {}
    for ff in findings:
        f = ff.finding
        oid = result.index.snapshots[f.repo].oids.get(f.path) if f.repo in result.index.snapshots else None
        if oid:
            wanted.setdefault(f.repo, set()).add(oid)
    texts: dict[str, list[str]] = {}
    for repo, oids in wanted.items():
        spec = result.workspace.repo(repo)
        if spec is None:
            continue
        for oid, data in GitRepo(spec.path).read_blobs(sorted(oids)):
            decoded, _ = decode_blob(data)
            if decoded is not None:
                texts[oid] = decoded.splitlines()
    lines = text.splitlines()
    out = []
    for line, ff in zip(lines, findings, strict=False):
        out.append(line)
        f = ff.finding
        oid = result.index.snapshots[f.repo].oids.get(f.path) if f.repo in result.index.snapshots else None
        source = texts.get(oid or "")
        if source is not None and 1 <= f.line <= len(source):
            shown = safe_text(source[f.line - 1].expandtabs(1))
            out += [f"    {f.line:>4} | {shown}", f"         | {' ' * max(0, f.column - 1)}^"]
    out += lines[len(findings):]
    return "\n".join(out) + "\n"


def _here_in_repo(ws: Workspace) -> str:
    """In single-repo mode, the current folder as a path in the repo ("" at its top or
    outside it): text output shows paths from there."""
    if not ws.single:
        return ""
    try:
        here = Path.cwd().resolve().relative_to(ws.repos[0].path.resolve()).as_posix()
    except ValueError:
        return ""
    return "" if here == "." else here


def _caused_by(result: CheckResult, findings: list[FingerprintedFinding],
               paths: tuple[Path, ...]) -> list[FingerprintedFinding]:
    """`--changed`: the findings in the files named (a folder: the files under it), or
    caused by them, as --changed-only keeps them; the current repo's own change (what
    its index or work tree changes from HEAD) counts too, so a commit that only
    deletes a cited file is judged by it."""
    from anchorcheck.check.changed import commit_change, only_changed

    ws = result.workspace
    places = [_place_in_workspace(ws, p) for p in paths]
    changed = {(repo, path) for repo, snap in result.index.snapshots.items() for path in snap.paths
               if any(_under(repo, path, place) for place in places)}
    changed |= {place for place in places if place[1]}  # a file named that the commit deletes
    with contextlib.suppress(AnchorcheckError):  # (run from outside every repo: only the files named)
        changed |= commit_change(result, _place_in_workspace(ws, Path.cwd())[0])
    return only_changed(result, findings, changed)


def _forge_access(mode: str | None, offline: bool) -> ForgeAccess | None:
    """Whether a check asks the forges: --offline never; --forge always; else when a
    token is in the environment."""
    from anchorcheck.check.pipeline import ForgeAccess
    from anchorcheck.forge.tokens import KINDS, has_token

    if offline:
        if mode is not None:
            raise AnchorcheckError("--forge and --offline exclude each other")
        return None
    if mode is None and not any(has_token(kind, os.environ) for kind in KINDS):
        return None
    return ForgeAccess(dict(os.environ), require=mode == "require")


def _format_targets(formats: tuple[str, ...], output: Path | None) -> list[tuple[str, Path | None]]:
    targets: list[tuple[str, Path | None]] = []
    for item in formats:
        fmt, sep, dest = item.partition(":")
        if fmt not in CHECK_FORMATS:
            raise click.BadParameter(f"{fmt!r} is not one of {', '.join(CHECK_FORMATS)}",
                                     param_hint="--format")
        if fmt == "sarif-per-repo" and not (sep and dest):
            raise click.BadParameter("sarif-per-repo needs a folder: --format sarif-per-repo:DIR",
                                     param_hint="--format")
        targets.append((fmt, Path(dest) if sep and dest else None))
    bare = [i for i, (_, dest) in enumerate(targets) if dest is None]
    if output is not None:
        if len(bare) != 1:
            raise click.BadParameter("--output needs exactly one --format without a FILE",
                                     param_hint="--output")
        targets[bare[0]] = (targets[bare[0]][0], output)
    elif len(bare) > 1:
        raise click.BadParameter("only one --format may go to stdout; give the others a FILE",
                                 param_hint="--format")
    return targets


def _render(fmt: str, result: CheckResult, findings: list[FingerprintedFinding], ws: Workspace,
            colour: bool, stale: list[str]) -> str:
    if fmt == "json":
        return render_json(result, findings, stale)
    if fmt == "text":
        return render_text(findings, colour, repo=not ws.single, here=_here_in_repo(ws))
    # Imported only for these: it brings xml.etree (~3 ms of a run).
    from anchorcheck.report import ci as report_ci

    if fmt == "sarif":
        return report_ci.render_sarif(findings, ws)
    if fmt == "github":
        return report_ci.render_github(findings, ws)
    if fmt == "markdown":
        snaps = result.index.snapshots
        links = {spec.name: (spec.url.rstrip("/").removesuffix(".git"), snaps[spec.name].commit)
                 for spec in ws.repos if spec.url and spec.url.startswith("https://") and spec.name in snaps}
        return report_ci.render_markdown(findings, links)
    if fmt == "junit":
        return report_ci.render_junit(findings)
    return render_text(findings, colour)
