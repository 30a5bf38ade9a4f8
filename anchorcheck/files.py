"""Files written whole or not at all: a report, a baseline or an index file is written
beside its place and renamed over it, so a reader (a CI step, a second run) never
sees half of one."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from anchorcheck.errors import AnchorcheckError


class OutputError(AnchorcheckError):
    """A report, baseline or index file that cannot be written."""


def write_atomically(path: Path, text: str) -> None:
    """Write beside, then rename: a reader never sees half a report."""
    write_atomically_bytes(path, text.encode("utf-8"))


def write_atomically_bytes(path: Path, data: bytes) -> None:
    """The folder must exist: a mistyped `-o reprots/x.sarif` is an error, not a new
    folder no step uploads. Any failure is one line (OutputError), exit code 2."""
    if not path.parent.is_dir():
        raise OutputError(f"{path}: cannot write: no folder {path.parent}")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    except OSError as exc:
        raise OutputError(f"{path}: cannot write: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise OutputError(f"{path}: cannot write: {exc.strerror or exc}") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
