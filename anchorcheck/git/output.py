"""Reading what git prints: tree listings, blame records, diffs' hunks, grep's and
ls-files' records, C-quoted names, a config file's values. Pure functions of text."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

# git prints paths as the bytes they are. One that is not UTF-8 is read with its odd
# bytes as `\xe9` escapes: unique, printable in every output format and storable in
# the cache, where a strict decode stopped the whole run and surrogates could not be
# printed or stored.
PATH_ERRORS = "backslashreplace"

_MODE_SYMLINK = "120000"
_MODE_SUBMODULE = "160000"


class TreeEntry(NamedTuple):
    """One file of a tree listing. A named tuple, immutable as a frozen dataclass is,
    because every file of every tree is one (the bench workspace: 35k; a frozen
    dataclass sets each field through object.__setattr__: GHC's listing read in 93-109
    ms, 64-66 ms so)."""

    path: str
    mode: str
    kind: str  # "blob" or "commit" (a submodule)
    oid: str
    size: int  # -1 for submodules

    @property
    def is_symlink(self) -> bool:
        return self.mode == _MODE_SYMLINK

    @property
    def is_submodule(self) -> bool:
        return self.mode == _MODE_SUBMODULE or self.kind == "commit"


class BlameLine(NamedTuple):
    """One line of `git blame --porcelain`: the commit it is given to, its line number
    in that commit's file, and (from `--reverse`: the commit after, which changed it)
    `changed_by`."""

    commit: str
    line: int
    time: int  # the commit's committer time (seconds)
    summary: str
    boundary: bool = False
    changed_by: str | None = None


_CONFIG_SECTION = re.compile(r'\s*\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]')


_CONFIG_ENTRY = re.compile(r"\s*([A-Za-z][A-Za-z0-9-]*)\s*=\s*(.*?)\s*$")


def config_value(text: str, section: str, key: str) -> str | None:
    """The last value of `key` in `section` (`remote "origin"`) of a git config text:
    section names and keys compare case-insensitively, subsections exactly; a quoted
    value is unquoted, and `#`/`;` start a comment outside quotes."""
    name, _, sub = section.partition(" ")
    sub = sub.strip('"')
    here = False
    found: str | None = None
    for line in text.splitlines():
        head = _CONFIG_SECTION.match(line)
        if head is not None:
            here = head.group(1).lower() == name.lower() and (head.group(2) or "") == sub
            line = line[head.end():]
        if not here:
            continue
        entry = _CONFIG_ENTRY.match(line)
        if entry is not None and entry.group(1).lower() == key.lower():
            found = config_unquote(entry.group(2))
    return found or None


def config_unquote(raw: str) -> str:
    out = []
    quoted = False
    i = 0
    while i < len(raw):
        ch = raw[i]
        if ch == '"':
            quoted = not quoted
        elif ch == "\\" and i + 1 < len(raw):
            i += 1
            out.append({"n": "\n", "t": "\t"}.get(raw[i], raw[i]))
        elif ch in "#;" and not quoted:
            break
        else:
            out.append(ch)
        i += 1
    return "".join(out).strip()


_BLAME_HEAD = re.compile(r"([0-9a-f]{40,64}) (\d+) (\d+)(?: \d+)?$")


class Hunk(NamedTuple):
    """One hunk of a unified diff with no context: `old` lines from `old_start` were
    replaced by `new` lines from `new_start` (a start is the line before, when empty)."""

    old_start: int
    old: tuple[str, ...]
    new_start: int
    new: tuple[str, ...]


_HUNK_HEADER = re.compile(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def parse_hunks(text: str) -> dict[str, list[Hunk]]:
    """`git diff -U0` output, by the path each hunk is in (its name after the change)."""
    out: dict[str, list[Hunk]] = {}
    path: str | None = None
    old: list[str] = []
    new: list[str] = []
    header: tuple[int, int] | None = None

    def close() -> None:
        if path is not None and header is not None:
            out.setdefault(path, []).append(Hunk(header[0], tuple(old), header[1], tuple(new)))

    for line in text.split("\n"):
        if line.startswith("diff --git "):
            close()
            path, header = None, None
        elif line.startswith("+++ ") and header is None:
            name = line[4:]
            path = c_unquote(name)[2:] if name.startswith(("b/", '"b/')) else None
        elif line.startswith("@@ "):
            close()
            m = _HUNK_HEADER.match(line)
            header = (int(m.group(1)), int(m.group(3))) if m else None
            old, new = [], []
        elif header is not None and line.startswith("-"):
            old.append(line[1:])
        elif header is not None and line.startswith("+"):
            new.append(line[1:])
    close()
    return out


def c_unquote(name: str) -> str:
    """A path as git prints it: C-quoted when it holds a quote, a backslash or a
    control character (octal escapes are UTF-8 bytes)."""
    if not name.startswith('"'):
        return name
    raw = bytearray()
    body, i = name[1:-1] if name.endswith('"') else name[1:], 0
    simple = {"n": 10, "t": 9, '"': 34, "\\": 92, "a": 7, "b": 8, "f": 12, "r": 13, "v": 11}
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            if nxt in simple:
                raw.append(simple[nxt])
                i += 2
                continue
            if body[i + 1:i + 4].isdigit():
                raw.append(int(body[i + 1:i + 4], 8) & 0xFF)
                i += 4
                continue
        raw.extend(c.encode())
        i += 1
    return raw.decode("utf-8", errors=PATH_ERRORS)


def blame_records(text: str) -> Iterator[tuple[BlameLine, int]]:
    """`git blame --porcelain` output as (line, its number in the blamed file). A
    commit's details are given at its first line only, and are kept for the rest."""
    seen: dict[str, dict[str, str]] = {}
    current: dict[str, str] | None = None
    sha = ""
    orig = final = 0
    for raw in text.split("\n"):
        if raw.startswith("\t"):  # the line's text: the record is complete
            if current is not None:
                yield BlameLine(sha, orig, int(current.get("committer-time", "0") or 0),
                                current.get("summary", ""), "boundary" in current,
                                current.get("previous", "").split(" ")[0] or None), final
            current = None
            continue
        head = _BLAME_HEAD.match(raw)
        if head is not None and current is None:
            sha, orig, final = head.group(1), int(head.group(2)), int(head.group(3))
            current = seen.setdefault(sha, {})
        elif current is not None:
            key, _, value = raw.partition(" ")
            current[key] = value


def listed_paths(out: bytes, commit: str) -> set[str]:
    """The paths `git grep -l -z` at a commit lists (each after `COMMIT:`)."""
    prefix = commit + ":"
    return {p[len(prefix):] if p.startswith(prefix) else p
            for p in out.decode(errors=PATH_ERRORS).split("\0") if p}


def grep_records(text: str, commit: str) -> list[tuple[str, int, str]]:
    """`git grep -n` output at a commit, as (path, line, text)."""
    out = []
    prefix = commit + ":"
    # Split at newlines only: splitlines() also splits at a form feed or \x1c in a line.
    for line in text.split("\n"):
        if not line.startswith(prefix):
            continue
        path, _, rest = line[len(prefix):].partition(":")
        number, _, body = rest.partition(":")
        if number.isdigit():
            out.append((path, int(number), body))
    return out


def parse_tree(out: str) -> list[TreeEntry]:
    entries = []
    for record in out.split("\0"):
        if not record:
            continue
        meta, _, path = record.partition("\t")
        mode, kind, oid, size = meta.split(None, 3)
        entries.append(TreeEntry(path, mode, kind, oid, int(size) if size.isdigit() else -1))
    return entries
