"""The command line's frame: the click group every command registers with, the
options the commands share, and the steps they share (the workspace, a run, what
to say on stderr). The commands are in cli/commands/, one module each."""

from __future__ import annotations

import functools
import os
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from anchorcheck import __version__
from anchorcheck.config.workspace import Workspace, load_workspace
from anchorcheck.errors import AnchorcheckError
from anchorcheck.report.text import safe_text

if TYPE_CHECKING:
    # The pipeline (networkx, the rules) loads on first use, so a command that does
    # not need it (notes, rules) starts fast.
    from anchorcheck.check.pipeline import CheckResult
    from anchorcheck.index.cache import BlobCache
    from anchorcheck.index.crawl import Progress


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
    from anchorcheck.resolve.resolution import Status, Unchecked

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
    from anchorcheck.git.gitdir import find_git_dir

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


def _place_in_workspace(ws: Workspace, path: Path) -> tuple[str, str]:
    """(repo, path in it) of a file or folder named on the command line."""
    target = path.resolve()
    for spec in sorted(ws.repos, key=lambda s: len(str(s.path)), reverse=True):
        top = spec.path.resolve()
        if target == top or target.is_relative_to(top):
            rel = target.relative_to(top).as_posix()
            return spec.name, "" if rel == "." else rel
    raise AnchorcheckError(f"{path}: not in any repo of the workspace")


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
