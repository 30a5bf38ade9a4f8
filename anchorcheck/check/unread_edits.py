"""The edits a check did not read (issue 42): a repo the config gives a `ref` is read
from git objects at that ref, never from its checkout, so a user who edits a file with
a finding and checks again sees the same finding, with no word why. The check then
says so once on stderr.

A file counts when its bytes on disk are not the blob the check read: compared by blob
id, hashed here as git does (`blob <size>\\0` + bytes), so the note starts no git and a
warm run stays without any (tests/index/test_many_repos.py). Only files with findings
are hashed. A repo with clean/smudge filters (LFS, `eol` conversion) may be named for a
file whose text is the same: the note says the file differs, which is then still true
of its bytes."""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Iterable
from pathlib import Path

from anchorcheck.config.workspace import Workspace
from anchorcheck.model.finding import FingerprintedFinding
from anchorcheck.model.snapshot import SnapshotIndex

_SHOWN = 3  # file names listed per repo; the rest counted


def unread_edits(ws: Workspace, snapshots: dict[str, SnapshotIndex], findings: Iterable[FingerprintedFinding],
                 asked: Collection[str]) -> str | None:
    """One line naming, per work tree read at the ref its config gives (not at one a
    `--ref` asked for: `asked`), the files with findings that differ on disk from what
    was read; None when there are none."""
    by_repo: dict[str, set[str]] = {}
    for ff in findings:
        by_repo.setdefault(ff.finding.repo, set()).add(ff.finding.path)
    parts = []
    for spec in ws.repos:
        snap = snapshots.get(spec.name)
        if (snap is None or spec.name not in by_repo or not spec.ref_given or spec.name in asked
                or spec.shown_ref is not None or not (spec.path / ".git").exists()):
            continue  # (shown_ref: the work tree itself was read)
        edited = sorted(p for p in by_repo[spec.name] if _differs(spec.path / p, snap.oids.get(p)))
        if edited:
            more = f" and {len(edited) - _SHOWN} more" if len(edited) > _SHOWN else ""
            parts.append(f"{spec.name} at {spec.ref} ({', '.join(edited[:_SHOWN])}{more})")
    if not parts:
        return None
    return ("note: files with findings differ on disk from what was checked, because their repo "
            f"is read at its configured ref, not from its work tree: {'; '.join(parts)}. Remove `ref` "
            "from the repo's [[repo]] table to check the work tree.")


def _differs(path: Path, oid: str | None) -> bool:
    """Whether the file on disk is not the blob `oid` (a file gone counts as differing;
    a file the ref does not hold, none: its finding is about another place)."""
    if oid is None:
        return False
    try:
        data = path.read_bytes()
    except OSError:
        return True
    digest = hashlib.sha256() if len(oid) == 64 else hashlib.sha1(usedforsecurity=False)
    digest.update(b"blob %d\0" % len(data))
    digest.update(data)
    return digest.hexdigest() != oid
