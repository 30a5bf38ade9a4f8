"""Which rules run, and at what severity: `--select`/`--ignore` by code prefix (the
longest matching prefix wins, as in ruff), and per-rule severity overrides."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from anchorcheck.errors import ConfigError
from anchorcheck.model.finding import Finding, Severity


@dataclass(frozen=True, slots=True)
class Selection:
    """As in ruff: `select` names the rules to run (the defaults when empty), `extend`
    adds to them (`--enable AC120`), `ignore` takes away."""

    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    severity: tuple[tuple[str, Severity], ...] = ()
    extend: tuple[str, ...] = ()

    def plus(self, select: Iterable[str] = (), ignore: Iterable[str] = (),
             extend: Iterable[str] = ()) -> Selection:
        chosen = tuple(_norm(select))
        return replace(self, select=chosen or self.select,
                       ignore=self.ignore + tuple(_norm(ignore)),
                       extend=self.extend + tuple(_norm(extend)))

    def validate(self, codes: Iterable[str]) -> None:
        known = list(codes)
        for prefix in (*self.select, *self.extend, *self.ignore, *(p for p, _ in self.severity)):
            if not any(code.startswith(prefix) for code in known):
                raise ConfigError(f"unknown rule code or prefix {prefix!r} (see 'anchorcheck rules')")

    def enabled(self, code: str, by_default: bool) -> bool:
        """The longest prefix that matches decides; between equals, ignore wins. A rule
        no prefix names runs by default only when nothing was selected."""
        chosen = (*self.select, *self.extend)
        best_select = max((len(p) for p in chosen if code.startswith(p)), default=-1)
        best_ignore = max((len(p) for p in self.ignore if code.startswith(p)), default=-1)
        if best_select < 0 and best_ignore < 0:
            return by_default and not self.select
        return best_select > best_ignore

    def apply_severity(self, finding: Finding) -> Finding:
        matches = [(len(p), sev) for p, sev in self.severity if finding.code.startswith(p)]
        if not matches:
            return finding
        return replace(finding, severity=max(matches, key=lambda m: m[0])[1])


def _norm(prefixes: Iterable[str]) -> list[str]:
    out = []
    for item in prefixes:
        for part in item.split(","):
            part = part.strip().upper()
            if part:
                out.append("" if part == "ALL" else part)
    return out


def parse_codes(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(_norm(values))
