"""The workspace: which repos are checked together, at which refs, with which settings."""

from __future__ import annotations

import functools
import os
import re
import tomllib
import urllib.parse
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from anchorcheck.config.excludes import DEFAULT_EXCLUDE, check_patterns, excluded_by
from anchorcheck.config.selection import Selection, parse_codes
from anchorcheck.config.values import (
    array_tables,
    chosen,
    codes_in,
    file_kinds,
    per_file_ignores_in,
    regexes,
    severities_in,
    typed,
)
from anchorcheck.errors import ConfigError, GitError
from anchorcheck.extract.headings import NOTE_STYLES, HeadingOptions
from anchorcheck.git.repo import GitRepo, check_ref, work_tree_top
from anchorcheck.model.reference import Evidence

CONFIG_NAME = "anchorcheck.toml"
_REPO_KEYS = frozenset({"name", "path", "ref", "url", "exclude", "remote", "forge"})
_FORGES = ("github", "gitlab")
_SETTING_KEYS = {
    "max-file-size": int,
    "caps-headings": bool,
    "notes": bool,
    "note-styles": list,
    "markdown-headings": bool,
    "heading-min-words": int,
    "heading-max-words": int,
    "heading-min-letters": int,
    "heading-needs-body": bool,
    "history-depth": int,
    "line-history": int,
    "version-guard": list,
    "version-guard-skip": list,
    "exclude": list,
    "extend-exclude": list,
    "ignore-targets": list,
    "ignore-evidence": list,
    "forge-ttl": int,
    "git-processes": int,
    "kinds": list,
}
# The least value each number may take, and why: `max-file-size = -5` read nothing and
# reported "No problems found".
_RANGES: dict[str, tuple[int, str]] = {
    "max-file-size": (1, "bytes; files larger are not read"),
    "heading-min-words": (1, "words"),
    "heading-max-words": (1, "words"),
    "heading-min-letters": (1, "letters"),
    "history-depth": (0, "commits; 0 reads no history"),
    "line-history": (0, "commits; 0 follows no lines"),
    "forge-ttl": (0, "seconds"),
    "git-processes": (1, "git commands at once"),
}
# `enable` adds to the default rules (as ruff's extend-select), `disable` is `ignore`.
_RULE_KEYS = frozenset({"select", "ignore", "enable", "disable", "severity", "per-file-ignores"})


@dataclass(frozen=True, slots=True)
class RepoSpec:
    """A name plus a local git directory (work tree or bare) plus a ref."""

    name: str
    path: Path
    ref: str = "HEAD"
    url: str | None = None
    # Path patterns not read in this repo, besides the workspace's (excludes.py).
    exclude: tuple[str, ...] = ()
    # The remote open changes are fetched from, and whose URL says where the repo
    # lives when `url` does not.
    remote: str = "origin"
    # "github" or "gitlab" when the host does not say it (forge/locate.py).
    forge: str | None = None
    # Whether the ref was given (config, --ref); with none, a work tree is checked as
    # it is on disk (with_worktrees).
    ref_given: bool = True
    # How messages name what was read when `ref` is a commit made of a work tree.
    shown_ref: str | None = None
    # Documentation sites the config declares, as (renderer, root folder) ([[site]]
    # tables): the ones resolve/sites.py finds are added to them.
    sites: tuple[tuple[str, str], ...] = ()

    @property
    def ref_label(self) -> str:
        return self.shown_ref or self.ref

    @classmethod
    def make(
        cls, name: str, path: Path, ref: str = "HEAD", url: str | None = None, exclude: tuple[str, ...] = (),
        remote: str = "origin", forge: str | None = None,
    ) -> RepoSpec:
        if not name or any(ch in name for ch in ":/\\ \t\n"):
            raise ConfigError(f"invalid repo name {name!r}: no ':', '/', or spaces")
        if not remote or remote.startswith("-") or any(ch in remote for ch in " \t\n\0"):
            raise ConfigError(f"repo {name!r}: invalid remote {remote!r}")
        if url is not None and not web_url(url):
            # The URL becomes links in reports and the graph page: `javascript:` or
            # `data:` there would run in a reader's browser.
            raise ConfigError(f"repo {name!r}: url must be an http(s) URL, not {url!r}")
        if forge is not None and forge not in _FORGES:
            raise ConfigError(f"repo {name!r}: forge must be one of {', '.join(_FORGES)}, not {forge!r}")
        return cls(name, path, check_ref(ref), url, exclude, remote, forge)

    @property
    def url_slug(self) -> str | None:
        """`owner/name` of a GitHub URL, so blob URLs can be mapped to this repo."""
        if not self.url:
            return None
        tail = self.url.rstrip("/").removesuffix(".git")
        parts = tail.replace(":", "/").split("/")
        return "/".join(parts[-2:]) if len(parts) >= 2 else None


# A remote on a host: `https://host/owner/name(.git)` or scp-like `user@host:owner/name`.
_REMOTE_URL = re.compile(r"(?:[a-z][a-z0-9+.-]*://[^/\s]+/|[\w.-]+@[\w.-]+:)(?P<path>[^\s]+?)(?:\.git)?/?")


def remote_slug(url: str) -> str | None:
    """`owner/name` of a git remote's URL on a host; None for a local path or a
    `file://` URL (a clone of a clone names no GitHub repo)."""
    m = _REMOTE_URL.fullmatch(url.strip())
    if m is None or url.startswith("file:"):
        return None
    parts = [p for p in m.group("path").split("/") if p]
    return "/".join(parts[-2:]) if len(parts) >= 2 else None


@functools.cache
def hosted_slug(path: Path, remote: str = "origin") -> str | None:
    """`owner/name` of the repo at `path` as its git remote `remote` names it on a host;
    None when there is none or the repo is not here (a check from index files made
    elsewhere). Where a repo lives is the workspace's to say (a repo's `url` first, then
    this), so the graph's links and the CI report's home repo ask here, not git."""
    try:
        url = GitRepo(path).remote_url(remote)
    except GitError:
        return None
    return remote_slug(url) if url else None


@dataclass(frozen=True, slots=True)
class Contract:
    """Fact addresses (`REPO:PATH::KEY`) whose values must be equal."""

    name: str
    facts: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Settings:
    """The `[settings]` of a workspace."""

    max_file_size: int = 2_000_000
    headings: HeadingOptions = field(default_factory=HeadingOptions)
    markdown_headings: bool = True
    rules: Selection = field(default_factory=Selection)
    contracts: tuple[Contract, ...] = ()
    # Commits of history AC203 reads for removed definitions; 0 turns the walk off.
    history_depth: int = 250
    # Commits walked, on each side, to follow a line claim from when it was written
    # (resolve/linehistory.py); 0 turns it off.
    line_history: int = 20000
    # AC306: the version files whose package's content needs a bump when it changes,
    # and package folders left out.
    version_guard: tuple[str, ...] = ("Chart.yaml",)
    version_guard_skip: tuple[str, ...] = ()
    # Extraction processes (`--jobs`): 0 is one per core; 1 scans in this process.
    jobs: int = 0
    # Path patterns not read in any repo (excludes.py); a repo's own `exclude` adds to them.
    exclude: tuple[str, ...] = DEFAULT_EXCLUDE

    # Regexes: a reference whose target, as written, matches one is not checked
    # (links into the rest of a site the repo is part of: loki's `/products/cloud/`).
    ignore_targets: tuple[str, ...] = ()
    # The syntaxes (model/reference.Evidence) whose references are not checked:
    # "prose" for every shape read from free prose (a bare path, `FILE:N`, a quote).
    ignore_evidence: tuple[str, ...] = ()
    # Seconds a forge's answer about an issue is kept in the cache (AC106, AC107).
    forge_ttl: int = 6 * 3600
    # Background git commands at once (git/process.py's pool): each holds two or three
    # file descriptors, so 16 stays far under macOS's default limit of 256.
    git_processes: int = 16
    # ([rules] per-file-ignores) path pattern -> the codes (or prefixes) not reported
    # in files it matches.
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # The file kinds a check reports on (`kinds = ["markdown"]`, `--kind`): language
    # families (languages.KINDS). Empty: every kind.
    kinds: tuple[str, ...] = ()
    # The file kinds a crawl reads, None for every kind, and the (repo, path) of the
    # files of other kinds it reads too: set by check/pipeline.py from the rules and
    # `kinds` for the crawls it runs (check/kinds.py), never by a config.
    read_kinds: tuple[str, ...] | None = None
    read_also: tuple[tuple[str, str], ...] = ()

    def ignored_in(self, path: str, code: str) -> bool:
        """Whether per-file-ignores drop `code` in `path` (repo-relative)."""
        return any(excluded_by((pattern,), path) is not None and any(code.startswith(c) for c in codes)
                   for pattern, codes in self.per_file_ignores)

    def excluded_in(self, spec: RepoSpec) -> tuple[str, ...]:
        """The patterns not read in `spec`'s repo, sorted and each once."""
        return tuple(sorted({*self.exclude, *spec.exclude}))


@dataclass(frozen=True, slots=True)
class Workspace:
    """The repos to read, their settings, and where they came from."""

    repos: tuple[RepoSpec, ...]
    settings: Settings = field(default_factory=Settings)
    source: str = "command line"
    warnings: tuple[str, ...] = ()
    # Facts worth a line under --verbose only: allowed, but maybe not what was meant.
    notes: tuple[str, ...] = ()
    # The current repository alone (no config, no --repo): paths are shown without
    # the repo's name, so `path:line:col` is clickable in terminals and editors.
    single: bool = False

    def repo(self, name: str) -> RepoSpec | None:
        return next((r for r in self.repos if r.name == name), None)

    def with_refs(self, refs: Mapping[str, str]) -> Workspace:
        unknown = sorted(set(refs) - {r.name for r in self.repos})
        if unknown:
            raise ConfigError(f"--ref names unknown repo {unknown[0]!r}")
        repos = tuple(replace(r, ref=check_ref(refs[r.name]), ref_given=True) if r.name in refs else r
                      for r in self.repos)
        return replace(self, repos=repos)

    def with_worktrees(self, staged: bool = False) -> Workspace:
        """Each repo given no ref that is a work tree, at a commit of its files on disk
        (`staged`: of its index): a check sees the fix not yet committed, and a
        pre-commit hook judges what the commit records."""
        repos = []
        for spec in self.repos:
            git = GitRepo(spec.path)
            if not spec.ref_given and git.is_work_tree():
                commit = git.worktree_commit(spec.path, staged)
                spec = replace(spec, ref=commit, shown_ref="the index" if staged else "the work tree")
            repos.append(spec)
        return replace(self, repos=tuple(repos))


def load_workspace(
    config: Path | None,
    repo_args: Sequence[str] = (),
    ref_args: Sequence[str] = (),
    cwd: Path | None = None,
    current_repo: bool = True,
) -> Workspace:
    """The workspace from `--config`/`anchorcheck.toml`, `--repo` and `--ref`; with
    none of them, the current git repository alone (or, without `current_repo`, no
    repo: the repos then come from index files)."""
    cwd = cwd or Path.cwd()
    overrides = [split_pair(arg, "--repo", "NAME=PATH") for arg in repo_args]
    refs = dict(split_pair(arg, "--ref", "NAME=REF") for arg in ref_args)
    if config is None:
        config = find_config(cwd)
    if config is not None:
        ws = _read_config(config)
    elif overrides or not current_repo:
        ws = Workspace(())
    else:
        spec = _current_repo(cwd)
        ws = Workspace((spec,), single=True, notes=(
            f"no {CONFIG_NAME} (or [tool.anchorcheck]) from {cwd} up names this repo: "
            f"checking {spec.path} alone",))
    repos = list(ws.repos)
    for name, path in overrides:
        spec = RepoSpec.make(name, repo_path(cwd, path, f"--repo {name}"))
        existing = next((i for i, r in enumerate(repos) if r.name == name), None)
        if existing is None:
            repos.append(replace(spec, ref_given=False))
        else:
            repos[existing] = replace(repos[existing], path=spec.path)
    return replace(ws, repos=tuple(repos), single=ws.single and len(repos) == 1).with_refs(refs)


def find_config(cwd: Path) -> Path | None:
    """The config that governs `cwd`, walking up every parent folder as ruff does; in
    each folder `anchorcheck.toml` first, then a `pyproject.toml` with a
    `[tool.anchorcheck]` table.

    Inside a git repo, the nearest config within the repo wins. Above the repo's top,
    a config counts only if one of its `[[repo]]` tables is that repo: a workspace
    file beside its member repos (`ws/anchorcheck.toml` for `ws/app`), not some other
    project's config higher up. Outside any repo, the nearest config counts."""
    here = cwd.resolve()
    # The repo's top as the nearest folder holding `.git` (a folder, or a linked work
    # tree's file), not git's answer: a run whose snapshots are all cached starts no
    # git at all (tests/index/test_many_repos.py).
    member = next((d for d in (here, *here.parents) if (d / ".git").exists()), None)
    while True:
        inside = member is None or here.is_relative_to(member)
        for found in (here / CONFIG_NAME, here / "pyproject.toml"):
            if not found.is_file():
                continue
            if found.name == "pyproject.toml" and not _has_tool_table(found):
                continue
            if inside or member in _configured_repos(found):
                return found
        if here.parent == here:
            return None
        here = here.parent


def _configured_repos(path: Path) -> set[Path]:
    """The folders a config's `[[repo]]` tables name, resolved, without judging the
    rest of it (that waits until it is read for real). One that is not TOML is an
    error: it may well be the workspace file meant."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError):
        raise ConfigError(f"{path}: cannot be read as TOML; fix it, or give --config") from None
    if path.name == "pyproject.toml":
        tool = data.get("tool")
        data = tool.get("anchorcheck", {}) if isinstance(tool, dict) else {}
    tables = data.get("repo", []) if isinstance(data, dict) else []
    folders = set()
    for table in tables if isinstance(tables, list) else []:
        rel = table.get("path") if isinstance(table, dict) else None
        if isinstance(rel, str) and rel:
            folders.add((path.parent / os.path.expanduser(rel)).resolve())
    return folders


def web_url(url: str) -> bool:
    """Whether `url` is an http(s) URL with a host (no other scheme may become a link
    in a report or the graph page: `javascript:` would run in a reader's browser)."""
    split = urllib.parse.urlsplit(url.strip())
    return split.scheme.lower() in ("http", "https") and bool(split.netloc) and url == url.strip()


def _has_tool_table(pyproject: Path) -> bool:
    try:
        data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError):
        return False  # not ours to judge: it is read only when it has our table
    tool = data.get("tool")
    return isinstance(tool, dict) and "anchorcheck" in tool


def split_pair(arg: str, option: str, form: str) -> tuple[str, str]:
    name, sep, value = arg.partition("=")
    if not sep or not name or not value:
        raise ConfigError(f"{option} expects {form}, got {arg!r}")
    return name, value


def _current_repo(cwd: Path) -> RepoSpec:
    top = work_tree_top(cwd)
    if top is None:
        raise ConfigError(
            f"{cwd} is not in a git repository; give --repo NAME=PATH or an {CONFIG_NAME}"
        )
    return replace(RepoSpec.make(top.name, top), ref_given=False)


def _read_config(path: Path) -> Workspace:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such config file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None
    except RecursionError:  # (tomllib's parser recurses once per level of nesting)
        raise ConfigError(f"{path}: invalid TOML: nested too deeply to read") from None
    in_pyproject = path.name == "pyproject.toml"
    if in_pyproject:
        tool = data.get("tool", {})
        data = tool.get("anchorcheck", {}) if isinstance(tool, dict) else {}
        if not isinstance(data, dict):
            raise ConfigError(f"{path}: [tool.anchorcheck] must be a table")
    warnings: list[str] = []
    notes: list[str] = []
    for key in sorted(set(data) - {"repo", "settings", "rules", "contract", "site"}):
        warnings.append(f"{path}: unknown key {key!r} ignored")
    base = path.parent.resolve()
    repos: list[RepoSpec] = []
    for _, where, table in array_tables(data, "repo", path, set(_REPO_KEYS), warnings):
        name = typed(table, "name", str, where, required=True)
        rel = typed(table, "path", str, where, required=True)
        if any(r.name == name for r in repos):
            raise ConfigError(f"{where}: duplicate repo name {name!r}")
        resolved = repo_path(base, os.path.expanduser(rel), where)
        if not resolved.is_relative_to(base):
            notes.append(f"{where}: repo {name!r} lies outside the config's folder: {resolved}")
        ref = typed(table, "ref", str, where)
        repos.append(replace(RepoSpec.make(
            name,
            resolved,
            ref or "HEAD",
            typed(table, "url", str, where),
            check_patterns(typed(table, "exclude", list, where) or [], f"{where}: 'exclude'"),
            typed(table, "remote", str, where) or "origin",
            typed(table, "forge", str, where),
        ), ref_given=ref is not None))
    single = not repos and in_pyproject
    if single:
        # Settings for the repo it is in, which is then shown as one alone is (its
        # paths without the repo's name).
        repos.append(_current_repo(path.parent.resolve()))
    if not repos:
        raise ConfigError(f"{path}: no [[repo]] tables")
    settings = _read_settings(data, path, warnings)
    contracts = _read_contracts(data, path, {r.name for r in repos}, warnings)
    repos = _read_sites(data, path, repos, warnings)
    return Workspace(tuple(repos), replace(settings, contracts=contracts), str(path),
                     tuple(warnings), tuple(notes), single=single)


def repo_path(base: Path, path: str, where: str) -> Path:
    """The absolute path of a repo; a symlink loop is a config error, not a crash."""
    try:
        return (base / path).resolve()
    except (RuntimeError, OSError) as exc:  # RuntimeError: "Symlink loop" before 3.13
        raise ConfigError(f"{where}: cannot resolve {path!r}: {exc}") from None


def _read_contracts(
    data: dict[str, Any], path: Path, repos: set[str], warnings: list[str]
) -> tuple[Contract, ...]:
    out = []
    for i, where, table in array_tables(data, "contract", path, {"name", "facts", "description"}, warnings):
        name = typed(table, "name", str, where) or f"contract #{i}"
        facts = typed(table, "facts", list, where, required=True)
        if len(facts) < 2 or not all(isinstance(f, str) for f in facts):
            raise ConfigError(f"{where}: 'facts' must list at least two fact addresses")
        for address in facts:
            repo, sep, rest = address.partition(":")
            if not sep or "::" not in rest or rest.startswith(":"):
                raise ConfigError(f"{where}: {address!r} is not REPO:PATH::KEY")
            if repo not in repos:
                raise ConfigError(f"{where}: {address!r} names unknown repo {repo!r}")
        out.append(Contract(name, tuple(facts)))
    return tuple(out)


# The version files a package declares its version in (AC305, AC306).
VERSION_FILES = ("Chart.yaml", "pyproject.toml", "package.json")


# The renderers a [[site]] table may name (resolve/sites.py).
SITE_RENDERERS = ("mkdocs", "hugo", "vitepress", "docusaurus", "sphinx", "jekyll", "astro", "mdbook",
                  "nextjs", "nuxt", "gatsby", "sveltekit", "remix", "eleventy", "vuepress", "docsify", "zola",
                  "quarto", "gitbook", "hexo", "mintlify", "retype")


def _read_sites(
    data: dict[str, Any], path: Path, repos: list[RepoSpec], warnings: list[str],
) -> list[RepoSpec]:
    """`[[site]]` tables: `renderer`, `root` (the folder its pages come from), and
    `repo` (which may be left out when there is one repo)."""
    declared: dict[str, list[tuple[str, str]]] = {}
    for _, where, table in array_tables(data, "site", path, {"repo", "renderer", "root"}, warnings):
        renderer = typed(table, "renderer", str, where, required=True)
        if renderer not in SITE_RENDERERS:
            raise ConfigError(f"{where}: renderer {renderer!r} is not one of {', '.join(SITE_RENDERERS)}")
        root = (typed(table, "root", str, where) or "").strip("/")
        if root.startswith("..") or "/../" in f"/{root}/":
            raise ConfigError(f"{where}: root {root!r} must be a folder inside the repo")
        repo = typed(table, "repo", str, where)
        if repo is None:
            if len(repos) != 1:
                raise ConfigError(f"{where}: 'repo' is needed when the workspace has several repos")
            repo = repos[0].name
        if all(r.name != repo for r in repos):
            raise ConfigError(f"{where}: unknown repo {repo!r}")
        declared.setdefault(repo, []).append((renderer, "" if root == "." else root))
    return [replace(r, sites=tuple(declared[r.name])) if r.name in declared else r for r in repos]


def _read_settings(data: dict[str, Any], path: Path, warnings: list[str]) -> Settings:
    raw = data.get("settings", {})
    rules = data.get("rules", {})
    if not isinstance(raw, dict) or not isinstance(rules, dict):
        raise ConfigError(f"{path}: [settings] and [rules] must be tables")
    for key in sorted(set(raw) - set(_SETTING_KEYS)):
        warnings.append(f"{path}: [settings] unknown key {key!r} ignored")
    for key in sorted(set(rules) - _RULE_KEYS):
        warnings.append(f"{path}: [rules] unknown key {key!r} ignored")
    where = f"{path}: [settings]"
    values = {key: typed(raw, key, kind, where) for key, kind in _SETTING_KEYS.items()}
    for key, (low, why) in _RANGES.items():
        if values[key] is not None and values[key] < low:
            raise ConfigError(f"{where}: {key!r} must be at least {low} ({why}), got {values[key]}")
    defaults = Settings()
    h = defaults.headings

    def pick(key: str, default: Any) -> Any:
        return default if values[key] is None else values[key]

    headings = HeadingOptions(
        caps=pick("caps-headings", h.caps),
        notes=pick("notes", h.notes),
        note_styles=chosen(values["note-styles"], NOTE_STYLES, h.note_styles, where, "note-styles"),
        min_words=pick("heading-min-words", h.min_words),
        max_words=pick("heading-max-words", h.max_words),
        min_letters=pick("heading-min-letters", h.min_letters),
        needs_body=pick("heading-needs-body", h.needs_body),
    )
    exclude = defaults.exclude if values["exclude"] is None else \
        check_patterns(values["exclude"], f"{where} 'exclude'")
    exclude += check_patterns(values["extend-exclude"] or [], f"{where} 'extend-exclude'")
    return Settings(
        exclude=exclude,
        ignore_targets=regexes(values["ignore-targets"] or [], f"{where} 'ignore-targets'"),
        ignore_evidence=chosen(values["ignore-evidence"], ("prose", *(str(e) for e in Evidence)), (), where,
                                "ignore-evidence"),
        max_file_size=pick("max-file-size", defaults.max_file_size),
        headings=headings,
        markdown_headings=pick("markdown-headings", defaults.markdown_headings),
        history_depth=pick("history-depth", defaults.history_depth),
        line_history=pick("line-history", defaults.line_history),
        version_guard=chosen(values["version-guard"], VERSION_FILES, defaults.version_guard, where,
                              "version-guard"),
        version_guard_skip=tuple(str(x).strip("/") for x in values["version-guard-skip"] or ()),
        forge_ttl=max(0, pick("forge-ttl", defaults.forge_ttl)),
        git_processes=pick("git-processes", defaults.git_processes),
        per_file_ignores=per_file_ignores_in(rules, path),
        kinds=file_kinds(values["kinds"] or [], f"{where} 'kinds'"),
        rules=Selection(
            select=parse_codes(codes_in(rules, "select", path)),
            ignore=parse_codes(codes_in(rules, "ignore", path) + codes_in(rules, "disable", path)),
            severity=severities_in(rules, path),
            extend=parse_codes(codes_in(rules, "enable", path)),
        ),
    )
