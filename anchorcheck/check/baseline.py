"""Baselines: accept today's findings, report only new ones.

Entries are keyed by fingerprint (code, change, repo, path and the finding's subject;
no line number), so moving lines does not turn an accepted finding into a new one.
An entry that matches nothing any more is stale: the problem was fixed, and the
entry should go.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from anchorcheck.errors import ConfigError
from anchorcheck.files import write_atomically
from anchorcheck.model.finding import FingerprintedFinding

_VERSION = 1


@dataclass(frozen=True, slots=True)
class BaselineEntry:
    """A known finding, as the baseline file keeps it."""

    fingerprint: str
    code: str
    repo: str
    path: str
    message: str


def write_baseline(path: Path, findings: Sequence[FingerprintedFinding]) -> None:
    entries = [
        {"fingerprint": ff.fingerprint, "code": ff.finding.code, "repo": ff.finding.repo,
         "path": ff.finding.path, "message": ff.finding.message}
        for ff in findings
    ]
    write_atomically(path, json.dumps({"version": _VERSION, "entries": entries}, indent=2,
                                      ensure_ascii=False) + "\n")


def read_baseline(path: Path) -> list[BaselineEntry]:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        entries = doc["entries"]
        if doc.get("version") != _VERSION or not isinstance(entries, list):
            raise ValueError("unknown format")
        return [BaselineEntry(e["fingerprint"], e["code"], e["repo"], e["path"], e["message"])
                for e in entries]
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such baseline file") from None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ConfigError(f"{path}: not an anchorcheck baseline ({exc})") from None
    except RecursionError:
        raise ConfigError(f"{path}: not an anchorcheck baseline (nested too deeply)") from None


def apply_baseline(
    findings: Sequence[FingerprintedFinding], entries: Sequence[BaselineEntry]
) -> tuple[list[FingerprintedFinding], list[BaselineEntry]]:
    """New findings, and stale entries."""
    known = {e.fingerprint for e in entries}
    seen = {ff.fingerprint for ff in findings}
    return [ff for ff in findings if ff.fingerprint not in known], [
        e for e in entries if e.fingerprint not in seen
    ]
