"""Inline suppressions: `anchorcheck: ignore[AC101]` (or a bare `anchorcheck: ignore`)
in a comment silences those findings within that comment block, and on the line right
after an own-line block (the usual place for a marker above a line)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from anchorcheck.model.comment import Comment
from anchorcheck.model.finding import Finding
from anchorcheck.model.pickling import by_constructor
from anchorcheck.patterns import compiled_on_use

_MARKER = compiled_on_use(r"anchorcheck:[ \t]*ignore(?:\[(?P<codes>[A-Za-z0-9, \t]{0,200})\])?")


@by_constructor
@dataclass(frozen=True, slots=True)
class Suppression:
    """An `anchorcheck: ignore[...]` marker and the lines it covers."""

    first: int  # lines covered, inclusive
    last: int
    codes: tuple[str, ...]  # empty: every code
    line: int  # where the marker is
    col: int
    repo: str = ""
    path: str = ""

    def covers(self, f: Finding) -> bool:
        return (
            (f.repo, f.path) == (self.repo, self.path)
            and self.first <= f.line <= self.last
            and (not self.codes or any(f.code.startswith(c) for c in self.codes))
        )

    @property
    def text(self) -> str:
        return "anchorcheck: ignore" + (f"[{','.join(self.codes)}]" if self.codes else "")


def find_suppressions(comment: Comment) -> Iterator[Suppression]:
    for cl in comment.lines:
        if "anchorcheck:" not in cl.text:
            continue
        for m in _MARKER.finditer(cl.text):
            raw = m.group("codes")
            codes = tuple(c.strip().upper() for c in raw.split(",") if c.strip()) if raw else ()
            last = comment.end_line + (1 if comment.own_line else 0)
            yield Suppression(comment.start_line, last, codes, cl.line, cl.col + m.start())


def apply(
    findings: Iterable[Finding], suppressions: Iterable[Suppression]
) -> tuple[list[Finding], list[Suppression]]:
    """Findings not suppressed, and the suppressions that silenced nothing."""
    by_file: dict[tuple[str, str], list[Suppression]] = {}
    for s in suppressions:
        by_file.setdefault((s.repo, s.path), []).append(s)
    used: set[Suppression] = set()
    kept = []
    for f in findings:
        hits = [s for s in by_file.get((f.repo, f.path), []) if s.covers(f)]
        if hits:
            used.update(hits)
        else:
            kept.append(f)
    unused = [s for group in by_file.values() for s in group if s not in used]
    return kept, unused
