"""Findings: what a rule reports."""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum


class Severity(IntEnum):
    INFO = 1
    WARNING = 2
    ERROR = 3

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Severity:
        try:
            return cls[text.upper()]
        except KeyError:
            raise ValueError(f"unknown severity {text!r} (use error, warning or info)") from None


@dataclass(frozen=True, slots=True)
class Finding:
    """`subject` is what the finding is about (the reference text, the anchor name):
    with code, repo and path it makes the fingerprint, which so survives line moves."""

    code: str
    rule: str
    severity: Severity
    repo: str
    path: str
    line: int
    column: int
    message: str
    subject: str
    suggestion: str | None = None
    change: str | None = None  # the PR label, for findings of `merge-order`
    # The syntax the finding was read from (model/reference.Evidence, or what a rule
    # with no reference reads: "anchor", "code-mention", "comment", "change"...).
    evidence: str | None = None
    prose: bool = False  # read from free prose: a bare path, `FILE:N` alone, a quoted phrase

    @property
    def sort_key(self) -> tuple[str, str, int, int, str, str, str]:
        return (self.repo, self.path, self.line, self.column, self.code, self.change or "", self.message)

    def base_fingerprint(self) -> str:
        raw = "\0".join(
            (self.code, self.change or "", self.repo, self.path, " ".join(self.subject.split()))
        )
        return hashlib.sha256(raw.encode()).hexdigest()[:20]


@dataclass(frozen=True, slots=True)
class FingerprintedFinding:
    """A finding and its line-free fingerprint (fingerprint, below)."""

    finding: Finding
    fingerprint: str


def fingerprint(findings: Iterable[Finding]) -> tuple[FingerprintedFinding, ...]:
    """Fingerprints without line numbers, numbered when the same finding repeats in
    one file, so a baseline entry survives lines moving above it."""
    seen: Counter[str] = Counter()
    out = []
    for f in sorted(findings, key=lambda f: f.sort_key):
        base = f.base_fingerprint()
        n = seen[base]
        seen[base] += 1
        out.append(FingerprintedFinding(f, base if n == 0 else f"{base}-{n}"))
    return tuple(out)
