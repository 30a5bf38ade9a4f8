"""Index files: one repo's extraction, carried from the job that built it to the job
that checks the workspace.

A CI matrix runs `anchorcheck index REPO --out REPO.acidx` once per repo, in parallel
on many runners: that is the heavy part (every blob read and scanned, the history
walk for AC203). One small job then runs `anchorcheck check --index *.acidx`: it
reads no blob except the few that claims name.

The file is gzip-compressed JSON: each repo's snapshot (paths, blob ids, anchors,
references and claims with their comment text, mentions, suppressions, skipped files)
and what AC203 needs of its history and definitions (the removal table, the names
defined at the commit). It holds no source text beyond comments and names. It records the
settings that change extraction, and is refused by a check whose settings differ,
rather than giving a result that no single run would give.
"""

from __future__ import annotations

import gzip
import json
import zlib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from anchorcheck import __version__
from anchorcheck.config.workspace import RepoSpec, Settings, Workspace
from anchorcheck.errors import AnchorcheckError, ConfigError
from anchorcheck.files import write_atomically_bytes
from anchorcheck.git.repo import GitRepo
from anchorcheck.index.plan import extract_options
from anchorcheck.index.stored import snapshot_from_json, snapshot_to_json
from anchorcheck.model.snapshot import SnapshotIndex
from anchorcheck.resolve.history import RemovalTable

FORMAT = "anchorcheck-index"
# 3: a snapshot's blob ids as one string and its line counts as a list beside its
# paths, its references as a text of their own (index.stored.snapshot_to_json, as the cache
# stores them). 2: blob ids and line counts as dicts, the paths left out when they are
# the ids' keys. 1: the same with the paths written out. All three are read.
VERSION = 3
_READS = (1, 2, 3)


@dataclass(frozen=True, slots=True)
class IndexedRepo:
    """One repo as an index file describes it: at `commit`, built where `path` was."""

    spec: RepoSpec
    commit: str
    snapshot: SnapshotIndex
    removals: RemovalTable
    defined: frozenset[str]  # every name defined at the commit (AC203), see definition_shapes.defined_names
    source: str  # the index file, for messages


def settings_key(settings: Settings) -> dict[str, Any]:
    """What must match between the indexing run and the check that reads it."""
    from anchorcheck.index.cache import options_key

    return {
        "extraction": options_key(extract_options(settings)),
        "max_file_size": settings.max_file_size,
        "history_depth": settings.history_depth,
        "exclude": sorted(set(settings.exclude)),
    }


def write_index(path: Path, repos: list[IndexedRepo], settings: Settings) -> None:
    doc = {
        "format": FORMAT,
        "version": VERSION,
        "anchorcheck": __version__,
        "settings": settings_key(settings),
        "repos": [
            {
                "name": r.spec.name,
                "ref": r.spec.ref,
                "path": str(r.spec.path),
                "url": r.spec.url,
                "commit": r.commit,
                "snapshot": snapshot_to_json(r.snapshot),
                "removals": r.removals,
                "defined": sorted(r.defined),
            }
            for r in repos
        ],
    }
    raw = json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode()
    # mtime=0: the same repo at the same commit gives the same bytes.
    write_atomically_bytes(path, gzip.compress(raw, compresslevel=6, mtime=0))


def read_index(path: Path, settings: Settings) -> list[IndexedRepo]:
    """The repos of one index file; a one-line ConfigError for anything else."""
    try:
        doc = json.loads(gzip.decompress(path.read_bytes()))
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such index file") from None
    except (OSError, EOFError, zlib.error, UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise ConfigError(f"{path}: not an anchorcheck index file ({type(exc).__name__})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ConfigError(f"{path}: not an anchorcheck index file")
    if doc.get("version") not in _READS:
        raise ConfigError(f"{path}: index format {doc.get('version')!r}, this anchorcheck reads "
                          f"{' and '.join(map(str, _READS))}; rebuild it with `anchorcheck index`")
    if doc.get("settings") != settings_key(settings):
        raise ConfigError(f"{path}: built with other extraction settings or another anchorcheck "
                          f"version ({doc.get('anchorcheck')}); rebuild it with the same config")
    out: list[IndexedRepo] = []
    try:
        for entry in doc["repos"]:
            spec = RepoSpec.make(str(entry["name"]), Path(str(entry["path"])), str(entry["commit"]),
                                 entry.get("url") if isinstance(entry.get("url"), str) else None)
            snapshot = snapshot_from_json(entry["snapshot"], spec)
            removals = entry["removals"]
            defined = entry["defined"]
            if snapshot is None or not isinstance(removals, dict) or not isinstance(defined, list):
                raise ValueError(spec.name)
            snapshot = replace(snapshot, ref=str(entry["ref"]))  # shown as it was indexed
            table = {str(k): [str(x) for x in v] for k, v in removals.items()}
            out.append(IndexedRepo(spec, str(entry["commit"]), snapshot, table,
                                   frozenset(str(n) for n in defined), str(path)))
    except (KeyError, TypeError, ValueError):
        raise ConfigError(f"{path}: damaged index file; rebuild it with `anchorcheck index`") from None
    return out


def read_indexes(paths: list[Path], settings: Settings) -> list[IndexedRepo]:
    seen: dict[str, str] = {}
    out: list[IndexedRepo] = []
    for path in paths:
        for repo in read_index(path, settings):
            if repo.spec.name in seen:
                raise ConfigError(f"{path}: repo {repo.spec.name!r} is also in {seen[repo.spec.name]}")
            seen[repo.spec.name] = str(path)
            out.append(repo)
    return out


def workspace_with(workspace: Workspace, indexed: list[IndexedRepo]) -> Workspace:
    """The workspace to check: each indexed repo at the commit its index describes.

    Claims are checked against files, so the check still reads the few blobs claims
    name: each repo must be at hand (the configured path, `--repo`, or the path the
    index was built at) and hold that commit; a shallow clone at it is enough."""
    repos = list(workspace.repos)
    for item in indexed:
        at = next((i for i, r in enumerate(repos) if r.name == item.spec.name), None)
        if at is None:
            repos.append(item.spec)
            spec = item.spec
        else:
            spec = repos[at] = replace(repos[at], ref=item.commit,
                                       url=repos[at].url or item.spec.url)
        try:
            GitRepo(spec.path).resolve(item.commit)
        except AnchorcheckError:
            raise ConfigError(
                f"{item.source}: repo {spec.name!r} at {item.commit[:12]}: no clone holding that "
                f"commit at {spec.path}; give --repo {spec.name}=PATH (a shallow clone is enough)"
            ) from None
    return replace(workspace, repos=tuple(repos))
