"""Files written whole or not at all: a report, a baseline or an index file is written
beside its place and renamed over it, so a reader (a CI step, a second run) never
sees half of one."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomically(path: Path, text: str) -> None:
    """Write beside, then rename: a reader never sees half a report."""
    write_atomically_bytes(path, text.encode("utf-8"))


def write_atomically_bytes(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
