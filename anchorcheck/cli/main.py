"""Command line: `anchorcheck check | anchors | refs | graph | index | merge-order |
facts | fix | notes | rules | demo`."""

from __future__ import annotations

import contextlib
import functools
import gc
import json
import os
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from click.utils import PacifyFlushWrapper

from anchorcheck import __version__
from anchorcheck.config.workspace import Workspace, load_workspace
from anchorcheck.errors import AnchorcheckError
from anchorcheck.model.finding import Severity
from anchorcheck.report.text import render_json, render_text, safe_lines, safe_text

if TYPE_CHECKING:
    # The pipeline (networkx, the rules) loads on first use, so a command that does
    # not need it (notes, rules) starts fast.
    from anchorcheck.check.pipeline import CheckResult, ForgeAccess
    from anchorcheck.index.cache import BlobCache
    from anchorcheck.index.crawl import Progress
    from anchorcheck.model.finding import FingerprintedFinding


EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
EXIT_BROKEN_PIPE = 141  # as git and a shell report a reader that left: 128 + SIGPIPE


def workspace_options(fn: Callable[..., Any]) -> Any:
    """The options every command that reads repos shares."""
    opts = [
        click.option("--config", "config", type=click.Path(path_type=Path, dir_okay=False),
                     help="Workspace file (default: the nearest anchorcheck.toml, or pyproject.toml "
                          "with [tool.anchorcheck], from here up; above this repo, only one "
                          "whose [[repo]] tables name it)."),
        click.option("--repo", "repos", multiple=True, metavar="NAME=PATH",
                     help="Add a repo, or override a configured repo's path. Repeatable."),
        click.option("--ref", "refs", multiple=True, metavar="NAME=REF",
                     help="Check repo NAME at REF (branch, tag, sha, refs/pull/N/head)."),
        click.option("--debug", is_flag=True, help="Show tracebacks on errors."),
        click.option("--cache-dir", type=click.Path(path_type=Path, file_okay=False),
                     help="Where the blob cache lives (default: $XDG_CACHE_HOME/anchorcheck)."),
        click.option("--no-cache", is_flag=True, help="Neither read nor write the blob cache."),
        click.option("--quiet", "-q", is_flag=True, help="No progress output on stderr."),
        click.option("--jobs", "-j", type=click.IntRange(min=0), metavar="N",
                     help="Processes that scan files (default 0: one per core; 1: none)."),
        click.option("--verbose", "-v", is_flag=True,
                     help="Say on stderr which files were skipped and why, and where repos are."),
        click.option("--allow-missing", is_flag=True,
                     help="Leave out, with a warning, configured repos that are missing or not git "
                          "repositories (default: an error, exit 2)."),
        click.option("--exclude", "exclude", multiple=True, metavar="PATTERN",
                     help="Do not read paths matching PATTERN (gitignore-like), besides the "
                          "configured ones (default: vendor/, node_modules/, testdata/). Repeatable."),
    ]

    @functools.wraps(fn)
    def command(*args: Any, **kwargs: Any) -> Any:
        # These reach the pipeline through the click context (see _run), not every
        # command's signature.
        for name in ("cache_dir", "no_cache", "quiet", "verbose", "jobs", "index_files", "exclude",
                     "allow_missing"):
            kwargs.pop(name, None)
        return fn(*args, **kwargs)

    wrapped: Any = command
    for opt in reversed(opts):
        wrapped = opt(wrapped)
    return wrapped


# Commands that read snapshots take them from index files too (`anchorcheck index`).
index_option = click.option(
    "--index", "index_files", multiple=True, metavar="FILE",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Take repos from index files (`anchorcheck index`) instead of scanning them.",
)


def _open_cache(ws: Workspace) -> BlobCache | None:
    params = click.get_current_context().params
    if params.get("no_cache"):
        return None
    from anchorcheck.index.cache import BlobCache, default_cache_dir
    from anchorcheck.index.plan import extract_options

    directory = params.get("cache_dir") or default_cache_dir()
    try:
        return BlobCache(directory, extract_options(ws.settings),
                         warn=lambda m: click.echo(f"anchorcheck: warning: {safe_text(m)}", err=True))
    except OSError as exc:
        click.echo(f"anchorcheck: warning: no cache ({safe_text(str(exc))})", err=True)
        return None


def _run(ws: Workspace, **kwargs: Any) -> CheckResult:
    """run_check with the cache and progress the command line asked for."""
    params = click.get_current_context().params
    cache = _open_cache(ws)
    progress = None
    if not params.get("quiet") and sys.stderr.isatty() and not os.environ.get("CI"):
        progress = _progress_bar()
    from anchorcheck.check.pipeline import run_check

    indexed = click.get_current_context().meta.get("anchorcheck.indexed", [])
    try:
        result = run_check(ws, cache=cache, progress=progress, indexed=indexed, **kwargs)
    finally:
        if progress is not None:
            click.echo("\r\x1b[K", err=True, nl=False)
        if cache is not None:
            cache.close()
    _say_skipped(result, verbose=bool(params.get("verbose")))
    return result


def _say_skipped(result: CheckResult, verbose: bool) -> None:
    """Unreadable objects are a broken clone: always said. Other skips (binary, too
    large, not UTF-8, submodules) are normal and said only under --verbose."""
    from anchorcheck.git.blobtext import UNREADABLE

    for name, snap in result.index.snapshots.items():
        for skip in snap.skipped:
            if skip.reason == UNREADABLE:
                click.echo(f"anchorcheck: warning: {safe_text(name)}:{safe_text(skip.path)}: "
                           f"{skip.reason}; the file was not checked", err=True)
            elif verbose:
                click.echo(f"anchorcheck: {safe_text(name)}:{safe_text(skip.path)}: skipped "
                           f"({safe_text(skip.reason)})", err=True)
        if verbose and snap.excluded:
            from anchorcheck.config.excludes import excluded_by

            by_pattern = Counter(excluded_by(snap.excluded, path) for path in snap.paths)
            by_pattern.pop(None, None)
            if by_pattern:
                counts = sorted((str(pattern), n) for pattern, n in by_pattern.items())
                said = ", ".join(f"{safe_text(pattern)} {n}" for pattern, n in counts)
                click.echo(f"anchorcheck: {safe_text(name)}: {sum(by_pattern.values())} files excluded "
                           f"({said})", err=True)
        if verbose:
            click.echo(f"anchorcheck: {safe_text(name)} at {snap.commit[:12]}: "
                       f"{len(snap.paths)} files, {snap.files_read} read from git "
                       f"({snap.bytes_read / 1e6:.1f} MB), {len(snap.anchors)} anchors, "
                       f"{len(snap.references)} references", err=True)
    if verbose:
        _say_unchecked(result)


def _say_unchecked(result: CheckResult) -> None:
    """-v: how many references were extracted and not judged, by reason (issue 40:
    nothing dropped in silence; `refs --unresolved` lists them): in whole (EXTERNAL),
    or a resolved one's fragment."""
    from anchorcheck.check.unchecked import changelog_references
    from anchorcheck.resolve.resolver import Status, Unchecked

    whole: Counter[str] = Counter()
    part: Counter[str] = Counter()
    resolutions = [*result.resolutions, *changelog_references(result.index, result.workspace.settings)]
    for res in resolutions:
        if res.unchecked is not None:
            (whole if res.status is Status.EXTERNAL else part)[str(res.unchecked)] += 1

    def listed(counts: Counter[str]) -> str:
        most_first = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
        return ", ".join(f"{reason} {n}" for reason, n in most_first)

    click.echo(f"anchorcheck: {len(resolutions)} references; not judged: {sum(whole.values())}"
               f"{f' ({listed(whole)})' if whole else ''}; fragment not judged: {sum(part.values())}"
               f"{f' ({listed(part)})' if part else ''} (`refs --unresolved` lists them)", err=True)
    # The sites whose links the model mostly cannot follow, each named: declaring the
    # site ([[site]]) or a report of its build is what would let them be judged.
    gaps = Counter((res.reference.repo, site.name) for res in resolutions
                   if res.unchecked is Unchecked.SITE_GAP
                   and (site := result.index.site_of(res.reference.repo, res.reference.path)) is not None)
    for (repo, site_name), n in sorted(gaps.items()):
        click.echo(f"anchorcheck: {safe_text(repo)}: {n} page links of the {safe_text(site_name)} not "
                   "judged: most of its links lead to no file by anchorcheck's model of its routes "
                   "(site-model-gap)", err=True)


def _progress_bar() -> Callable[[str, Progress], None]:
    def show(repo: str, p: Progress) -> None:
        if p.files == p.total or p.files % 250 == 0:
            click.echo(f"\r\x1b[Kanchorcheck: {safe_text(repo)}: {p.files}/{p.total} files read, "
                       f"{p.bytes / 1e6:.1f} MB, {p.anchors} anchors", err=True, nl=False)

    return show


def _workspace(config: Path | None, repos: tuple[str, ...], refs: tuple[str, ...],
               worktree: bool = False) -> Workspace:
    """The workspace the options name; with `worktree`, a repo given no ref that is a
    work tree is read as it is on disk (or, with --staged, as its index)."""
    ctx = click.get_current_context()
    index_files = ctx.params.get("index_files") or ()
    ws = load_workspace(config, repos, refs, current_repo=not index_files)
    if ctx.params.get("allow_missing"):
        ws = _without_missing(ws)
    if worktree:
        ws = ws.with_worktrees(staged=bool(ctx.params.get("staged")))
    extra = ctx.params.get("exclude") or ()
    if extra:
        from anchorcheck.config.excludes import check_patterns

        ws = replace(ws, settings=replace(ws.settings,
                                          exclude=ws.settings.exclude + check_patterns(extra, "--exclude")))
    if index_files:
        from anchorcheck.check.index_file import read_indexes, workspace_with

        indexed = read_indexes(list(index_files), ws.settings)
        ws = workspace_with(ws, indexed)
        ctx.meta["anchorcheck.indexed"] = indexed
    jobs = click.get_current_context().params.get("jobs")
    if jobs is not None:
        ws = replace(ws, settings=replace(ws.settings, jobs=jobs))
    for warning in ws.warnings:
        click.echo(f"anchorcheck: warning: {safe_text(warning)}", err=True)
    if click.get_current_context().params.get("verbose"):
        if config is None and ws.source != "command line":
            click.echo(f"anchorcheck: config {safe_text(ws.source)}", err=True)
        for note in ws.notes:
            click.echo(f"anchorcheck: {safe_text(note)}", err=True)
        for spec in ws.repos:
            click.echo(f"anchorcheck: repo {safe_text(spec.name)} = {safe_text(str(spec.path))} "
                       f"at {safe_text(spec.ref)}", err=True)
    return ws


def _without_missing(ws: Workspace) -> Workspace:
    """--allow-missing: the repos that are there; a warning for each that is not."""
    from anchorcheck.errors import GitError
    from anchorcheck.git.repo import find_git_dir

    kept = []
    for spec in ws.repos:
        try:
            find_git_dir(spec.path)
        except GitError as exc:
            click.echo(f"anchorcheck: warning: repo {safe_text(spec.name)} left out (--allow-missing): "
                       f"{safe_text(str(exc))}", err=True)
            continue
        kept.append(spec)
    if not kept:
        raise AnchorcheckError("no repo of the workspace is there (--allow-missing left them all out)")
    return replace(ws, repos=tuple(kept))


def _colour(mode: str = "auto") -> bool:
    """Colour on a terminal (auto), unless NO_COLOR is set or TERM is dumb; FORCE_COLOR
    or `--color always` turns it on anywhere, `--color never` off."""
    if mode != "auto":
        return mode == "always"
    if os.environ.get("FORCE_COLOR"):
        return True
    return sys.stdout.isatty() and "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb"


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="anchorcheck")
def cli() -> None:
    """Check that the comments carrying your decisions still point at something true:
    named headings, citations across repos, and what lies between."""


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
        from anchorcheck.config.workspace import file_kinds

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
        def warn(text: str) -> None:
            click.echo(f"anchorcheck: warning: {safe_text(text)}", err=True)

        from anchorcheck.check.changed import (
            changed_bases,
            changed_files,
            changed_paths,
            only_changed,
            stale_comments,
            unbumped,
        )

        bases = changed_bases(result, changed_only, warn)
        changed = changed_paths(bases)
        findings = only_changed(result, findings, changed_files(changed))
        # The change rules, as merge-order tells them for an open PR: the chart guard
        # (AC306) and comments left naming a replaced token (AC206).
        extra = [*(unbumped(result, bases, changed) if selection.enabled("AC306", True) else ()),
                 *(stale_comments(result, bases, changed) if selection.enabled("AC206", True) else ())]
        if extra:
            findings = sorted([*findings, *extra],
                              key=lambda ff: (ff.finding.repo, ff.finding.path, ff.finding.line))
    if write_baseline is not None:
        from anchorcheck.check.baseline import write_baseline as save_baseline

        save_baseline(write_baseline, findings)
    stale: list[str] = []
    if baseline is not None:
        from anchorcheck.check.baseline import apply_baseline, read_baseline

        findings, stale_entries = apply_baseline(findings, read_baseline(baseline))
        stale = [f"{e.code} {e.repo}:{e.path}: {e.message}" for e in stale_entries]
        for entry in stale:
            click.echo(f"anchorcheck: stale baseline entry (fixed; remove it): {safe_text(entry)}",
                       err=True)
    from anchorcheck.check.unread_edits import unread_edits

    unread = unread_edits(ws, result.index.snapshots, findings, {arg.partition("=")[0] for arg in refs})
    if unread is not None:
        click.echo(f"anchorcheck: {safe_text(unread)}", err=True)
    for fmt, target in targets:
        if fmt == "sarif-per-repo":
            assert target is not None
            _sarif_per_repo(target, findings, ws)
            continue
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
    if fail_on != "never":
        threshold = Severity.parse(fail_on)
        if any(ff.finding.severity >= threshold for ff in findings):
            sys.exit(EXIT_FINDINGS)


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
    from collections import Counter

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


def _place_in_workspace(ws: Workspace, path: Path) -> tuple[str, str]:
    """(repo, path in it) of a file or folder named on the command line."""
    target = path.resolve()
    for spec in sorted(ws.repos, key=lambda s: len(str(s.path)), reverse=True):
        top = spec.path.resolve()
        if target == top or target.is_relative_to(top):
            rel = target.relative_to(top).as_posix()
            return spec.name, "" if rel == "." else rel
    raise AnchorcheckError(f"{path}: not in any repo of the workspace")


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


def _under(repo: str, path: str, place: tuple[str, str]) -> bool:
    name, prefix = place
    return repo == name and (not prefix or path == prefix or path.startswith(prefix + "/"))


def _forge_run_warnings() -> None:
    """What the forges' clients cut short in this run (a listing past its cap), once
    each; nothing is imported when no forge was asked."""
    http = sys.modules.get("anchorcheck.forge.http")
    if http is None:
        return
    for warning in http.RUN.warnings or ():
        click.echo(f"anchorcheck: warning: {safe_text(warning)}", err=True)


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
    from anchorcheck.resolve.history import defined_names, repo_removals

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
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
@click.option("--all", "show_all", is_flag=True,
              help="Also list the references not judged (links into repos outside the workspace...).")
@click.option("--unresolved", is_flag=True,
              help="Only the references not judged, in whole or in part, each with its reason.")
def refs(config: Path | None, repos: tuple[str, ...], refs: tuple[str, ...], debug: bool,
         fmt: str, show_all: bool, unresolved: bool) -> None:
    """List every reference and what it resolved to."""
    from anchorcheck.resolve.resolver import Status

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
        text_or_bytes = gx.through_dot(gx.to_dot(g), fmt)
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
        listed, forge_bases = open_changes(ws, forges, skip={s.label for s in specs})
        specs += listed
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
    from anchorcheck.report.fix import make_patches, planned_edits, stale_comment_edits, write

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


@cli.command()
@click.argument("code", required=False)
@click.option("--format", "fmt", type=click.Choice(["text", "markdown"]), default="text",
              show_default=True, help="markdown: the page docs/rules.md is generated from.")
def rules(code: str | None, fmt: str) -> None:
    """List the rules, or print one rule's documentation."""
    from anchorcheck.rules import REGISTRY, rule_by_name_or_code

    if fmt == "markdown":
        from anchorcheck.report.rulesdoc import rules_markdown

        click.echo(rules_markdown(), nl=False)
        return
    if code:
        rule = rule_by_name_or_code(code)
        if rule is None:
            raise AnchorcheckError(f"unknown rule {code!r} (see 'anchorcheck rules')")
        state = "on" if rule.enabled_by_default else "off"
        click.echo(f"{rule.code} {rule.name} ({rule.severity.label}, {state} by default)\n")
        import inspect  # here: the other commands do not need it (6 ms of every start)

        click.echo(inspect.cleandoc(rule.doc))
        return
    for rule in REGISTRY.values():
        state = "" if rule.enabled_by_default or "off by default" in rule.summary else "  [off by default]"
        click.echo(f"{rule.code}  {rule.name:<22} {rule.severity.label:<8} {rule.summary}{state}")


@cli.command()
@click.option("--keep", type=click.Path(path_type=Path, file_okay=False),
              help="Build the demo workspace here and keep it (default: a temp folder).")
def demo(keep: Path | None) -> None:
    """Build a three-repo workspace that tells the seed story, and check it."""
    from anchorcheck.cli.demo import run_demo

    run_demo(keep, colour=_colour(), echo=click.echo)


def _print_traceback() -> None:
    # Imported only here: traceback brings linecache, tokenize and textwrap (~3 ms of
    # every start), and only --debug prints one.
    import traceback

    traceback.print_exc()


def main() -> None:
    try:
        _main()
    finally:
        # At exit Python collects every object still tracked, walking the whole heap (a
        # merge order: 2.6% of its instructions; more after a cold check). Nothing left
        # needs it: the cache is closed, git's processes waited for, output flushed by
        # the interpreter as always; freezing only keeps the collector from walking.
        gc.freeze()


def _utf8_output() -> None:
    """Standard output in UTF-8 whatever the locale, when it goes to a program or a
    file: JSON, SARIF, JUnit and Markdown are UTF-8 by their definitions, and `-o FILE`
    writes UTF-8 already. Under a Latin-1 locale (or PYTHONIOENCODING, or a Windows
    pipe's code page) a piped `--format json` was Latin-1 and `--format sarif` stopped
    at its first `…` (internal error, exit 2). A terminal keeps its own encoding, what it
    cannot show escaped; so does standard error."""
    for stream, to_utf8 in ((sys.stdout, True), (sys.stderr, False)):
        encoding = (getattr(stream, "encoding", None) or "").lower().replace("_", "-")
        reconfigure = getattr(stream, "reconfigure", None)
        if encoding in ("utf-8", "utf8") or reconfigure is None:
            continue
        if to_utf8 and not stream.isatty():
            reconfigure(encoding="utf-8")
        else:
            reconfigure(errors="backslashreplace")


def _main() -> None:
    debug = "--debug" in sys.argv[1:]
    _utf8_output()
    try:
        cli.main(prog_name="anchorcheck", standalone_mode=False)
    except SystemExit as exc:
        # Click ends a write to a closed pipe (`anchorcheck refs | head -1`) with exit
        # 1, the code for findings; git's 141 (128 + SIGPIPE) says the reader left.
        if exc.code == EXIT_FINDINGS and isinstance(sys.stdout, PacifyFlushWrapper):
            sys.exit(EXIT_BROKEN_PIPE)
        raise
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        sys.exit(EXIT_ERROR)
    except click.exceptions.Abort:
        click.echo("anchorcheck: aborted", err=True)
        sys.exit(EXIT_ERROR)
    except AnchorcheckError as exc:
        if debug:
            _print_traceback()
        click.echo(f"anchorcheck: error: {safe_text(str(exc))}", err=True)
        sys.exit(EXIT_ERROR)
    except BrokenPipeError:
        # `anchorcheck anchors | head`, written after click's own handling: the reader
        # left; that is not an error of ours, nor a clean run whose output was read.
        sys.stderr.close()
        sys.exit(EXIT_BROKEN_PIPE)
    except Exception as exc:  # a bug of ours: one line unless asked for more
        if debug:
            _print_traceback()
        click.echo(f"anchorcheck: internal error: {type(exc).__name__}: {safe_text(str(exc))} "
                   "(run with --debug for a traceback)", err=True)
        sys.exit(EXIT_ERROR)

