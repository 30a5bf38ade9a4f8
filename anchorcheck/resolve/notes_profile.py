"""The `ghc` notes profile: GHC's own `lint-notes` rules, reproduced exactly.

GHC checks its `Note [Title]` convention with linters/lint-notes over every tracked
file as raw text (not only comments). anchorcheck's default profile is comment-aware;
this profile follows lint-notes to the letter, so its broken references can be
compared with GHC's golden list:

- definition: a line holding `Note [` whose next line holds `~~~` in the three columns
  where `Note [` starts (the first `Note [` of the line); the name runs to the first
  `]`. The two lines are consumed: neither holds references.
- reference: every other `Note [`; the name runs to the first `]`, looking into the
  next line (joined by one space, its comment leader `--`, `#`, ` *` or `//` and
  blanks removed); no `]` there, no reference. Names are compared exactly.
- files: every tracked file but `testsuite/tests/linters/notes.stdout` and
  `linters/lint-notes/test`, decoded as UTF-8 (a file that is not is skipped);
  lines split on LF only; rows count from 1, columns from 0 in characters.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from anchorcheck.config.workspace import Workspace
from anchorcheck.git.repo import GitRepo
from anchorcheck.patterns import compiled_on_use

EXCLUDED = ("testsuite/tests/linters/notes.stdout", "linters/lint-notes/test")
_MARK = "Note ["


@dataclass(frozen=True, slots=True, order=True)
class NoteSite:
    """Where a Note is defined or cited, as GHC's lint-notes prints it."""

    path: str
    row: int
    col: int
    name: str
    repo: str = ""

    def lint_line(self, kind: str) -> str:
        return f"{kind}    {self.path}:{self.row}:{self.col}:     Note [{self.name}]"


@dataclass
class NoteDb:
    """Every Note definition and citation found."""

    defs: dict[str, list[NoteSite]]
    refs: list[NoteSite]

    def broken(self) -> list[NoteSite]:
        return [r for r in self.refs if r.name not in self.defs]

    def unreferenced(self) -> list[NoteSite]:
        cited = {r.name for r in self.refs}
        return sorted(d for name, sites in self.defs.items() if name not in cited for d in sites)


def strip_leader(line: str) -> str:
    """lint-notes' stripBeginningOfLineComment: blanks, then one of `#`, `--`, ` *`,
    `//`, then blanks."""
    i = 0
    while True:
        rest = line[i:]
        if rest.startswith("#"):
            return rest[1:].lstrip(" ")
        if rest.startswith("--") or rest.startswith(" *") or rest.startswith("//"):
            return rest[2:].lstrip(" ")
        if rest.startswith(" "):
            i += 1
            continue
        return rest.lstrip(" ")


def find_notes(path: str, text: str) -> tuple[list[NoteSite], list[NoteSite]]:
    lines = text.split("\n")
    if lines and lines[-1] == "" and text.endswith("\n"):
        lines.pop()  # Data.Text.lines: a final newline ends the last line, it adds none
    defs: list[NoteSite] = []
    refs: list[NoteSite] = []
    # Only two kinds of line matter: one holding "Note [", and one right above a line
    # holding "~~~" (it may start a definition, even a nameless one, which consumes
    # the line below). Walking just those, in order, gives lint-notes' result.
    marked = [i for i, line in enumerate(lines) if _MARK in line or "~~~" in line]
    starts = sorted({i for i in marked if _MARK in lines[i]}
                    | {i - 1 for i in marked if i > 0 and "~~~" in lines[i]})
    consumed = -1
    for i in starts:
        if i <= consumed:
            continue
        line = lines[i]
        if i + 1 < len(lines):
            start = line.find(_MARK)
            col = len(line) if start < 0 else start
            if lines[i + 1][col:col + 3] == "~~~":
                name = line[col + 6:].split("]", 1)[0] if start >= 0 else ""
                defs.append(NoteSite(path, i + 1, col, name))
                consumed = i + 1
                continue
        pos = line.find(_MARK)
        if pos < 0:
            continue
        following = strip_leader(lines[i + 1]) if i + 1 < len(lines) else ""
        while pos >= 0:
            tail = line[pos + 6:] + " " + following
            name, sep, _ = tail.partition("]")
            if sep:
                refs.append(NoteSite(path, i + 1, pos, name))
            pos = line.find(_MARK, pos + 1)
    return defs, refs


_LOOSE = compiled_on_use(r"(?i)\bnote[ \t]*\[(?P<name>[^\[\]\n]{1,200})\]")
_LOOSE_LEADER = compiled_on_use(r"^[ \t]*(?:#+|//+|--+|;+|/?\*+|\{-)?[ \t]*$")


def loose_key(name: str) -> str:
    """Names compare without case, and with blanks folded and trimmed."""
    return " ".join(name.split()).casefold()


def find_notes_loose(path: str, text: str) -> tuple[list[NoteSite], list[NoteSite]]:
    """PyTorch-like trees: `note [x]` in any case, blanks inside the brackets, and a
    definition is a line that starts with the note (after its comment leader), with or
    without an underline, alone on its line; every other mention is a reference."""
    defs: list[NoteSite] = []
    refs: list[NoteSite] = []
    for number, line in enumerate(text.split("\n"), start=1):
        if "[" not in line:
            continue
        for m in _LOOSE.finditer(line):
            site = NoteSite(path, number, m.start(), loose_key(m.group("name")))
            heading = _LOOSE_LEADER.match(line[:m.start()]) and not line[m.end():].strip(" \t:-=~*/")
            if heading:
                defs.append(site)
            else:
                refs.append(site)
    return defs, refs


def note_db(workspace: Workspace, profile: str = "ghc") -> NoteDb:
    defs: dict[str, list[NoteSite]] = defaultdict(list)
    refs: list[NoteSite] = []
    for spec in workspace.repos:
        git = GitRepo(spec.path)
        commit = git.resolve(spec.ref)
        # Only a file holding "Note [" can define or cite a note (but for lint-notes'
        # nameless definitions, which no reference can match unless one is nameless
        # too): git finds those files at C speed, and only they are read.
        loose = profile == "loose"
        wanted = git.grep_files("note" if loose else _MARK, commit, ignore_case=loose)
        paths_by_oid: dict[str, list[str]] = defaultdict(list)
        for e in git.list_tree(commit):
            if not e.is_submodule and e.path not in EXCLUDED and e.path in wanted:
                paths_by_oid[e.oid].append(e.path)
        for oid, data in git.read_blobs(list(paths_by_oid)):
            if data is None:
                continue  # unreadable object: lint-notes would fail; we skip it
            if profile == "ghc" and _MARK.encode() not in data:
                continue
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                continue  # lint-notes skips files that are not UTF-8
            for path in paths_by_oid[oid]:
                finder = find_notes_loose if profile == "loose" else find_notes
                file_defs, file_refs = finder(path, text)
                for d in file_defs:
                    defs[d.name].append(NoteSite(d.path, d.row, d.col, d.name, spec.name))
                refs.extend(NoteSite(r.path, r.row, r.col, r.name, spec.name) for r in file_refs)
    # lint-notes keeps refs in a set per file: duplicates collapse, order is by location.
    return NoteDb(dict(defs), sorted(set(refs)))



def render_lint_notes(db: NoteDb, mode: str) -> str:
    if mode == "broken-refs":
        lines = ["Broken note references (target note not found!):"]
        lines += [r.lint_line("ref") for r in db.broken()]
    elif mode == "refs":
        lines = [r.lint_line("ref") for r in db.refs]
    elif mode == "defs":
        lines = [d.lint_line("def") for d in sorted(s for sites in db.defs.values() for s in sites)]
    else:  # unreferenced
        lines = [d.lint_line("def") for d in db.unreferenced()]
    # lint-notes prints with `putStrLn . unlines`: every line, then one empty line.
    return "\n".join(lines) + "\n\n"

