"""Reporters: findings as text for people and JSON for tools.

Repo text (headings, references) is untrusted: text output replaces control
characters (ANSI escapes could rewrite a terminal or a CI log), JSON escapes by
construction.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections import Counter
from collections.abc import Sequence
from itertools import groupby
from typing import TYPE_CHECKING, Any

from anchorcheck.model.finding import Finding, Severity
from anchorcheck.patterns import compiled_on_use

if TYPE_CHECKING:  # the check pipeline is heavy to import; reporters only name its types
    from anchorcheck.check.pipeline import CheckResult
    from anchorcheck.model.finding import FingerprintedFinding

# What repo text may not bring to a terminal or log: control characters (ESC, OSC 8,
# bell), line breaks of every kind (a `%0A` decoded in a link target, a newline in a
# file name: on its own line, `::error file=...::` is a GitHub workflow command), and
# the bidirectional overrides that make text read other than it is.
_CONTROL = compiled_on_use(r"[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_CONTROL_BUT_NEWLINE = compiled_on_use(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_COLOURS = {Severity.ERROR: "\x1b[31m", Severity.WARNING: "\x1b[33m", Severity.INFO: "\x1b[36m"}
_BOLD, _DIM, _RESET = "\x1b[1m", "\x1b[2m", "\x1b[0m"


def _shown(m: re.Match[str]) -> str:
    code = ord(m.group(0))
    return f"\\x{code:02x}" if code < 256 else f"\\u{code:04x}"


def safe_text(text: str) -> str:
    """Untrusted text for one line of a terminal or log: control characters and line
    breaks shown (`\\x0a`), not obeyed. Every text reporter writes repo text so."""
    return _CONTROL.sub(_shown, text)


def safe_lines(text: str) -> str:
    """Untrusted text of many lines (a diff of a repo's file): each line made safe,
    the line breaks between them kept (a lone CR is shown)."""
    return _CONTROL_BUT_NEWLINE.sub(_shown, text)


def summary(findings: Sequence[FingerprintedFinding]) -> dict[str, Any]:
    by_sev = Counter(f.finding.severity.label for f in findings)
    by_code = Counter(f.finding.code for f in findings)
    return {
        "total": len(findings),
        "by_severity": {s.label: by_sev.get(s.label, 0) for s in sorted(Severity, reverse=True)},
        "by_code": dict(sorted(by_code.items())),
    }


def _place(f: Finding, repo: bool = True, here: str = "") -> str:
    """`repo:path:line:col` (`path:line:col` in single-repo mode, relative to `here`);
    a finding about a change's description has no file."""
    if not f.path:
        return f.repo
    where = f"{safe_text(_from(f.path, here))}:{f.line}:{f.column}"
    return f"{f.repo}:{where}" if repo else where


def _from(path: str, here: str) -> str:
    """A repo path as it opens from the folder `here` (repo-relative; "" the top)."""
    return posixpath.relpath(path, here) if here else path


def render_text(findings: Sequence[FingerprintedFinding], colour: bool, repo: bool = True,
                here: str = "") -> str:
    """`here`: in single-repo mode, the repo folder the command runs in, which paths
    are shown relative to, as ruff shows them, so they open from there."""
    if repo:
        here = ""
    if not colour:
        lines = [
            f"{_change_prefix(f)}{_place(f, repo, here)}: {f.code} {safe_text(f.message)}"
            for f in (ff.finding for ff in findings)
        ]
    else:
        lines = []
        for (name, path), group in groupby(findings, key=lambda ff: (ff.finding.repo, ff.finding.path)):
            lines.append(f"{_BOLD}{safe_text(name)}:{safe_text(path)}{_RESET}" if repo
                         else f"{_BOLD}{safe_text(_from(path, here))}{_RESET}")
            for ff in group:
                f = ff.finding
                c = _COLOURS[f.severity]
                lines.append(f"  {_DIM}{f.line}:{f.column}{_RESET} {c}{f.code}{_RESET} {_change_prefix(f)}"
                             f"{safe_text(f.message)}")
    s = summary(findings)
    if s["total"]:
        parts = ", ".join(f"{n} {sev}{'s' if n != 1 and sev != 'info' else ''}"
                          for sev, n in s["by_severity"].items() if n)
        lines.append(f"Found {s['total']} problem{'s' if s['total'] != 1 else ''} ({parts}).")
    else:
        lines.append("No problems found.")
    return "\n".join(lines) + "\n"


def _change_prefix(f: Finding) -> str:
    return f"[{safe_text(f.change)}] " if f.change else ""


def finding_json(ff: FingerprintedFinding) -> dict[str, Any]:
    f = ff.finding
    out: dict[str, Any] = {
        "code": f.code,
        "rule": f.rule,
        "severity": f.severity.label,
        "repo": f.repo,
        "path": f.path,
        "line": f.line,
        "column": f.column,
        "message": f.message,
        "fingerprint": ff.fingerprint,
    }
    if f.suggestion is not None:
        out["suggestion"] = f.suggestion
    if f.change is not None:
        out["change"] = f.change
    if f.evidence is not None:
        out["evidence"] = f.evidence
        out["prose"] = f.prose
    return out


def render_json(
    result: CheckResult, findings: Sequence[FingerprintedFinding], stale: Sequence[str] = ()
) -> str:
    doc: dict[str, Any] = {
        "version": 1,
        "workspace": [
            {"name": s.repo, "ref": s.ref, "commit": s.commit}
            for s in result.index.snapshots.values()
        ],
        "findings": [finding_json(ff) for ff in findings],
        "summary": summary(findings),
    }
    if stale:
        doc["baseline_stale"] = list(stale)
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
