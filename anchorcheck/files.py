"""Files written whole or not at all: a report, a baseline or an index file is written
beside its place and renamed over it, so a reader (a CI step, a second run) never
sees half of one."""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Callable
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
    tmp = _fresh_beside(path, data)
    try:
        # mkstemp makes the file 0600: a report is as readable as any file the user
        # writes (the umask's mode), or keeps the mode of the one it replaces.
        os.chmod(tmp, _mode_for(path))
        os.replace(tmp, path)
    except OSError as exc:
        raise OutputError(f"{path}: cannot write: {exc.strerror or exc}") from None
    finally:
        Path(tmp).unlink(missing_ok=True)  # (renamed: nothing left to remove)


def _fresh_beside(path: Path, data: bytes) -> str:
    """A new file holding `data` in `path`'s folder (mkstemp: O_EXCL and a random name,
    so a committed `FILE.tmp` symlink is never written through); its name."""
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".anchorcheck", dir=path.parent)
    except OSError as exc:
        raise OutputError(f"{path}: cannot write: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise OutputError(f"{path}: cannot write: {exc.strerror or exc}") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return tmp


def _mode_for(path: Path) -> int:
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def work_tree_file(work_tree: Path, path: str) -> Path:
    """`path` (as a tree lists it) inside `work_tree`, refused (OutputError) when it
    could lead elsewhere: an absolute path, a `..`, `.` or `.git` part (git mktree
    accepts `..`), a symlinked folder on the way, or a file that is itself a symlink.
    Each folder is looked at with lstat, never followed."""
    parts = path.split("/")
    if not path or path.startswith("/") or any(p in ("", ".", "..") or p.lower() == ".git" for p in parts):
        raise OutputError(f"{path}: refused: the path leaves the work tree or enters .git")
    here = work_tree.resolve()
    for part in parts[:-1]:
        here = here / part
        _must_be(here, stat.S_ISDIR, f"{path}: refused: folder {part!r} is not in the work tree",
                 f"{path}: refused: {part!r} is a symlink or not a folder")
    target = here / parts[-1]
    _must_be(target, stat.S_ISREG, f"{path}: refused: not in the work tree",
             f"{path}: refused: a symlink or not a regular file")
    return target


def _must_be(place: Path, kind: Callable[[int], bool], missing: str, wrong: str) -> None:
    """`place` exists and, not followed if a symlink, is of this kind."""
    try:
        mode = os.lstat(place).st_mode
    except OSError:
        raise OutputError(missing) from None
    if not kind(mode):
        raise OutputError(wrong)


def read_no_follow(target: Path) -> bytes:
    """A file's bytes, refusing a symlink at the last step (O_NOFOLLOW)."""
    fd = os.open(target, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    with os.fdopen(fd, "rb") as fh:
        return fh.read()


def replace_if_unchanged(target: Path, expected: bytes, data: bytes) -> bool:
    """Write `data` over `target` only if it still holds `expected` (compare and swap):
    an edit saved meanwhile is never lost, the file is left as it is (False). The new
    text goes to a fresh temp file in the same folder, then is renamed over the file,
    whose own symlink-ness is checked again at that moment."""
    tmp = _fresh_beside(target, data)
    try:
        st = os.lstat(target)
        if not stat.S_ISREG(st.st_mode):
            raise OutputError(f"{target}: refused: it became a symlink or not a regular file")
        os.chmod(tmp, stat.S_IMODE(st.st_mode))
        if read_no_follow(target) != expected:
            return False
        os.replace(tmp, target)
        return True
    except OSError as exc:
        raise OutputError(f"{target}: cannot write: {exc.strerror or exc}") from None
    finally:
        Path(tmp).unlink(missing_ok=True)  # (renamed: nothing left to remove)
