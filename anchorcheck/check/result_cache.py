"""The check's findings, cached by everything that decides them.

A check reads only git objects at the resolved commits, so its findings are a
function of: each repo's name, path, URL and commit; the settings (all but `jobs`);
the rule selection; and anchorcheck's code (its version, its extractor's, and a hash
of its sources). A nightly job
over repos that did not move gets its answer from here without resolving, verifying
or building the graph (the benchmark workspace's warm run: 1.67 s -> ~0.7 s, most of
it interpreter start-up and imports). Results of runs that could not read every
object, or that read index files, are not stored; a stored value that does not
decode is a miss, never an error.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anchorcheck
from anchorcheck import __version__
from anchorcheck.config.selection import Selection
from anchorcheck.config.workspace import Workspace
from anchorcheck.extract.blob import EXTRACTOR_VERSION
from anchorcheck.git.blobtext import UNREADABLE
from anchorcheck.index.cache import decode_reference, encode_reference
from anchorcheck.model.finding import Finding, Severity
from anchorcheck.resolve.workspace_index import WorkspaceIndex

if TYPE_CHECKING:
    from anchorcheck.model.finding import FingerprintedFinding
    from anchorcheck.resolve.verify import ClaimCheck

_FORMAT = 1


def result_key(workspace: Workspace, selection: Selection, index: WorkspaceIndex) -> str | None:
    """The cache key of this check, or None when its result must not be stored."""
    if any(skip.reason == UNREADABLE for snap in index.snapshots.values() for skip in snap.skipped):
        return None  # a broken clone: the repaired one must be checked afresh
    settings = dataclasses.replace(workspace.settings, jobs=0)
    what = {
        "format": _FORMAT,
        "anchorcheck": __version__,
        "code": _code_fingerprint(),
        "extractor": EXTRACTOR_VERSION,
        "settings": _canonical(settings),
        "selection": _canonical(selection),
        "repos": [[_canonical(spec), index.snapshots[spec.name].commit if spec.name in index.snapshots
                   else None] for spec in workspace.repos],
    }
    raw = json.dumps(what, sort_keys=True, separators=(",", ":"))
    return "check-result:" + hashlib.sha256(raw.encode()).hexdigest()


@functools.cache
def _code_fingerprint() -> str:
    """A hash of anchorcheck's own sources: the version alone stays the same across
    every commit of an install from a branch, and a run of new code would be given
    the findings of the old (this session's resolver changes, for one). By content,
    not file times, so that a cache restored on another CI runner with the same code
    still answers. ~5 ms, once, in a run that asks the result cache."""
    return sources_fingerprint(Path(anchorcheck.__file__).parent)  # the whole package, from any wing


def sources_fingerprint(root: Path) -> str:
    """A hash of the `.py` files under `root`, their paths and contents; "" when they
    cannot be read (a zip: the version then decides alone)."""
    digest = hashlib.sha256()
    try:
        for path in sorted(root.rglob("*.py")):
            digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    except OSError:
        return ""
    return digest.hexdigest()[:16]


def _canonical(value: Any) -> Any:
    """A JSON value that is equal for equal settings in every process (sets sorted,
    so string hashing's per-process seed does not reorder them)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _canonical(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, enum.Enum):
        return _canonical(value.value)
    if isinstance(value, dict):
        return {str(k): _canonical(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, (set, frozenset)):
        return sorted((_canonical(v) for v in value), key=repr)
    if isinstance(value, (list, tuple)):
        return [_canonical(v) for v in value]
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, Path):
        return str(value)
    pattern = getattr(value, "pattern", None)
    return pattern if isinstance(pattern, str) else repr(value)


def encode_result(findings: Sequence[FingerprintedFinding], claims: Sequence[ClaimCheck]) -> dict[str, Any]:
    return {
        "findings": [[ff.fingerprint, *_finding(ff.finding)] for ff in findings],
        "claims": [[c.reference.repo, c.reference.path, encode_reference(c.reference), c.code,
                    c.message, c.suggestion, list(c.fix) if c.fix else None] for c in claims],
    }


def _finding(f: Finding) -> list[Any]:
    return [f.code, f.rule, f.severity.value, f.repo, f.path, f.line, f.column, f.message,
            f.subject, f.suggestion, f.change, f.evidence, f.prose]


def decode_result(doc: Any) -> tuple[tuple[FingerprintedFinding, ...], tuple[ClaimCheck, ...]] | None:
    """None when the value is not what this version writes."""
    from anchorcheck.model.finding import FingerprintedFinding
    from anchorcheck.resolve.verify import ClaimCheck

    try:
        findings = tuple(
            FingerprintedFinding(Finding(str(code), str(rule), Severity(severity), str(repo), str(path),
                                         int(line), int(column), str(message), str(subject),
                                         _opt(suggestion), _opt(change), _opt(evidence), bool(prose)),
                                 str(fingerprint))
            for fingerprint, code, rule, severity, repo, path, line, column, message, subject,
            suggestion, change, evidence, prose in doc["findings"]
        )
        claims = tuple(
            ClaimCheck(decode_reference(ref, str(repo), str(path)), str(code), str(message), _opt(suggestion),
                       (str(fix[0]), str(fix[1])) if fix else None)
            for repo, path, ref, code, message, suggestion, fix in doc["claims"]
        )
    except (KeyError, TypeError, ValueError, IndexError):
        return None
    return findings, claims


def _opt(value: Any) -> str | None:
    return None if value is None else str(value)
