"""Findings: what a rule reports."""

from __future__ import annotations

import hashlib
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

    @property
    def sort_key(self) -> tuple[str, str, int, int, str, str, str]:
        return (self.repo, self.path, self.line, self.column, self.code, self.change or "", self.message)

    def base_fingerprint(self) -> str:
        raw = "\0".join(
            (self.code, self.change or "", self.repo, self.path, " ".join(self.subject.split()))
        )
        return hashlib.sha256(raw.encode()).hexdigest()[:20]
