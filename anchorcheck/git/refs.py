"""Refs read from a repository's files, as git resolves a plain name, for the common
case of a branch: a `git rev-parse` per repo cost a PR run ~50 ms of its ~0.25 s
(ten processes started, then waited for). Anything else goes to git: a sha (git
checks it names a commit), a tag (it may be an annotated one, to be peeled), a name
with revision syntax, a reftable repository, a file that is not what git writes."""

from __future__ import annotations

import re
from pathlib import Path

# A name with no revision syntax (`@{`, `^`, `~`, `:`, `..`) and no part git refuses.
_PLAIN = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_./-]{0,250}")
_SHA = re.compile(r"[0-9a-f]{40}(?:[0-9a-f]{24})?")
_MAX_SYMREF_DEPTH = 5


def common_dir(git_dir: Path) -> Path:
    """Where the shared refs, objects and config are: a linked work tree's git dir
    names the main repository's in its `commondir` file."""
    try:
        pointer = (git_dir / "commondir").read_text(encoding="utf-8").strip()
    except OSError:
        return git_dir
    return (git_dir / pointer).resolve()


def read_ref(git_dir: Path, name: str) -> str | None:
    """The object id `name` resolves to, in gitrevisions' order ($GIT_DIR/NAME,
    refs/NAME, refs/tags/NAME, refs/heads/NAME, refs/remotes/NAME,
    refs/remotes/NAME/HEAD), when that is a branch-like ref found in the files; None
    when git must be asked."""
    if _SHA.fullmatch(name) or not _PLAIN.fullmatch(name) or ".." in name or "//" in name \
            or name.endswith((".", "/", ".lock")) or "/." in name:
        return None
    common = common_dir(git_dir)
    if (common / "reftable").exists():
        return None
    packed = _Packed(common)
    for candidate in (name, f"refs/{name}", f"refs/tags/{name}", f"refs/heads/{name}",
                      f"refs/remotes/{name}", f"refs/remotes/{name}/HEAD"):
        found = _value(git_dir, common, packed, candidate, 0)
        if found is _ABSENT:
            continue
        if not isinstance(found, str) or candidate.startswith("refs/tags/"):
            return None
        return found
    return None


class _Absent:
    """No such ref (as opposed to None: a ref there that git must read)."""


_ABSENT = _Absent()


def _value(git_dir: Path, common: Path, packed: _Packed, name: str, depth: int) -> str | _Absent | None:
    for where in (git_dir, common) if git_dir != common else (git_dir,):
        path = where / name
        if path.is_file():
            try:
                text = path.read_text(encoding="utf-8", errors="strict").strip()
            except (OSError, UnicodeError):
                return None
            if _SHA.fullmatch(text):
                return text
            if text.startswith("ref: ") and depth < _MAX_SYMREF_DEPTH:
                target = text[5:].strip()
                if not target.startswith("refs/") or not _PLAIN.fullmatch(target):
                    return None
                found = _value(git_dir, common, packed, target, depth + 1)
                return None if found is _ABSENT else found
            return None
        if path.exists():  # a directory, or something else git would not read as this ref
            return None if "/" not in name else _ABSENT
    return packed.get(name)


class _Packed:
    """`packed-refs`, read when first asked. A name is looked up by a search of the
    bytes, not by reading every line: a forge's mirror packs a ref per pull request
    (ansible's packed-refs: 3.8 MB), and parsing them all to resolve one branch was
    0.19 s of every check of six such repos, warm ones too."""

    def __init__(self, common: Path) -> None:
        self._path = common / "packed-refs"
        self._data: bytes | None = None

    def get(self, name: str) -> str | _Absent:
        if self._data is None:
            try:
                self._data = self._path.read_bytes()
            except OSError:
                self._data = b""
        data = self._data
        # `SHA NAME` on a line of its own (a name is plain ASCII: read_ref); the last
        # such line counts, as it did when every line went into a table.
        tail = b" " + name.encode("ascii")
        end = len(data)
        while (at := data.rfind(tail, 0, end)) >= 0:
            end = at
            after = at + len(tail)
            if data[after:after + 1] not in (b"\n", b"\r", b""):
                continue  # a longer name
            sha = data[data.rfind(b"\n", 0, at) + 1:at].lstrip(b"\r").decode("ascii", errors="replace")
            if _SHA.fullmatch(sha):
                return sha
        return _ABSENT
