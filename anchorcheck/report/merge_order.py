"""Reporting the merge-order advisory: text, Markdown (a PR comment), JSON.

Markdown lands in PR comments, where repo text could otherwise mention people
(`@team`), link (`](javascript:...)`) or inject HTML; every piece of repo text goes
through `md_text` or `md_code`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import partial

from anchorcheck.config.selection import Selection
from anchorcheck.model.finding import Finding, FingerprintedFinding, Severity, fingerprint
from anchorcheck.pr.analysis import Analysis
from anchorcheck.report.markup import ICONS, md_code, md_text
from anchorcheck.report.text import finding_json, render_text, safe_text, summary
from anchorcheck.resolve.graph import build_graph
from anchorcheck.resolve.resolution import Resolution
from anchorcheck.rules import REGISTRY, CheckContext
from anchorcheck.rules.merge import MergeContext

_REFERENCE_RULES = ("AC101", "AC102", "AC103", "AC104", "AC105")


@dataclass(frozen=True)
class Advisory:
    """A merge-order analysis and the findings it reports."""

    analysis: Analysis
    findings: tuple[FingerprintedFinding, ...]

    def for_change(self, label: str) -> list[FingerprintedFinding]:
        return [f for f in self.findings if f.finding.change == label]


def advise(analysis: Analysis, selection: Selection | None = None) -> Advisory:
    selection = selection or Selection()
    findings: list[Finding] = []
    ctx = MergeContext(analysis)
    for rule in REGISTRY.values():
        if rule.mode in ("changes", "both") and selection.enabled(rule.code, rule.enabled_by_default):
            findings.extend(rule.check(ctx, rule))
    findings.extend(_new_dangling(analysis, selection))
    return Advisory(analysis, fingerprint(selection.apply_severity(f) for f in findings))


def _new_dangling(analysis: Analysis, selection: Selection) -> list[Finding]:
    """References a change adds that resolve nowhere, even with every open change in:
    the workspace rules word them, tagged with the change."""
    out: list[Finding] = []
    by_label: dict[str, list[Resolution]] = {}
    for label, res in analysis.dangling:
        by_label.setdefault(label, []).append(res)
    for label, resolutions in by_label.items():
        ctx = CheckContext(analysis.base, tuple(resolutions),
                           partial(build_graph, analysis.base, resolutions, anchors=False))
        for code in _REFERENCE_RULES:
            rule = REGISTRY[code]
            if selection.enabled(code, rule.enabled_by_default):
                out.extend(_tag(f, label) for f in rule.check(ctx, rule))
    return out


def _tag(f: Finding, label: str) -> Finding:
    return replace(f, change=label)


def exit_code(advisory: Advisory, fail_on: Severity | None, only: str | None = None) -> int:
    """2 when a change could not be placed (its order is unknown: the run did not do
    its job for it), whatever `fail_on` says; else 1 when a finding at or above
    `fail_on` stands: any change's, or with `only` (a CI run of one PR, `--for`) that
    change's alone."""
    if any(only is None or label == only for label, _ in advisory.analysis.unplanned):
        return 2
    if fail_on is None:
        return 0
    findings = advisory.findings if only is None else advisory.for_change(only)
    return 1 if any(ff.finding.severity >= fail_on for ff in findings) else 0


def says_something(advisory: Advisory, label: str) -> bool:
    """Whether the advisory has anything to tell `label`'s authors: an order to keep, a
    finding, or that it could not be placed."""
    a = advisory.analysis
    return (any(label in edge for edge in a.edges) or bool(advisory.for_change(label))
            or any(x == label for x, _ in a.unplanned))


# -- text ----------------------------------------------------------------------


def render_merge_text(advisory: Advisory, colour: bool, only: str | None = None) -> str:
    """The order, then the findings (with `only`, `--for`: that change's alone)."""
    a = advisory.analysis
    deps = _depends_on(a)
    lines = ["Merge order:"]
    for i, label in enumerate(a.order, start=1):
        after = f"  (after {', '.join(deps[label])})" if deps[label] else ""
        draft = " (draft)" if any(c.label == label and c.spec.draft for c in a.changes) else ""
        lines.append(f"  {i}. {safe_text(label)}{draft}{after}")
    if a.cycles:
        lines.append("  (changes in a cycle keep the order given)")
    for label, why in a.unplanned:
        lines.append(f"  not placed: {safe_text(label)}: {safe_text(why)}")
    findings = advisory.findings if only is None else advisory.for_change(only)
    return "\n".join(lines) + "\n" + render_text(findings, colour)


def _depends_on(a: Analysis) -> dict[str, list[str]]:
    return {label: sorted((f for f, after in a.edges if after == label), key=a.order.index)
            for label in a.order}


def _blocks(a: Analysis) -> dict[str, list[str]]:
    return {label: sorted((after for f, after in a.edges if f == label), key=a.order.index)
            for label in a.order}


# -- JSON ----------------------------------------------------------------------


def render_merge_json(advisory: Advisory, only: str | None = None) -> str:
    """Every change and the order; the findings (with `only`, `--for`: that change's
    alone, and `for` names it)."""
    a = advisory.analysis
    findings = advisory.findings if only is None else advisory.for_change(only)
    deps, blocks = _depends_on(a), _blocks(a)
    changes = []
    for change in a.changes:
        label = change.label
        changes.append({
            "label": label,
            "repo": change.repo,
            "ref": change.spec.head,
            "head": change.head_commit,
            "base": change.base_ref,
            "merge_base": change.merge_base,
            "depends_on": deps[label],
            "blocks": blocks[label],
            "adds_anchors": [x.display for x in a.added_anchors[label]],
            "removes_anchors": [x.display for x in a.removed_anchors[label]],
            "versions": [
                {"path": b.path, "old": b.old, "new": b.new, "base": b.base_now}
                for b in a.bumps if b.change == label
            ],
            "files_changed": len(change.changed),
            "draft": change.spec.draft,
            "url": change.spec.url or None,
            "declares": [{"label": lab or None, "written": w} for lab, w in change.spec.declares],
        })
    doc = {
        "version": 1,
        "order": list(a.order),
        "cycles": [list(c) for c in a.cycles],
        "changes": changes,
        "unplanned": [{"label": label, "reason": why} for label, why in a.unplanned],
        "for": only,
        "findings": [finding_json(f) for f in findings],
        "summary": summary(findings),
        "stats": {"blobs_read_base": a.blobs_read_base, "blobs_read_changes": a.blobs_read_changes},
    }
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


# -- Markdown ------------------------------------------------------------------

def _mermaid_label(text: str) -> str:
    # Mermaid's entity codes keep quotes, '#' and brackets from ending the label.
    for ch, code in (("#", "#35;"), ('"', "#quot;"), ("<", "#lt;"), (">", "#gt;")):
        text = text.replace(ch, code)
    return text


def mermaid(a: Analysis, labels: Sequence[str] | None = None) -> str:
    shown = list(labels) if labels is not None else list(a.order)
    ids = {label: f"c{i}" for i, label in enumerate(a.order)}
    lines = ["flowchart LR"]
    for label in shown:
        lines.append(f'  {ids[label]}["{_mermaid_label(label)}"]')
    inside = set(shown)
    edges = [(f, after) for f, after in a.edges if f in inside and after in inside]
    for first, after in sorted(edges, key=lambda e: (a.order.index(e[0]), a.order.index(e[1]))):
        lines.append(f"  {ids[first]} --> {ids[after]}")
    return "\n".join(lines)


def render_merge_markdown(advisory: Advisory, only: str | None = None) -> str:
    a = advisory.analysis
    deps, blocks = _depends_on(a), _blocks(a)
    out = ["### anchorcheck: merge order", ""]
    steps = " → ".join(f"{i}. {md_code(label)}" for i, label in enumerate(a.order, start=1))
    out += [f"**Order:** {steps}", ""]
    for label, why in a.unplanned:
        out += [f"**Not placed:** {md_code(label)}: {md_text(why)}", ""]
    related = a.order if only is None else [x for x in a.order if x == only or
                                            x in deps.get(only, ()) or x in blocks.get(only, ())]
    out += ["```mermaid", mermaid(a, related), "```", ""]
    for label in a.order:
        if only is not None and label != only:
            continue
        out += _section(advisory, label, deps[label], blocks[label])
    total = len(advisory.findings if only is None else advisory.for_change(only))
    out.append(f"<sub>{total} finding{'s' if total != 1 else ''}; "
               "`anchorcheck rules CODE` explains each rule.</sub>")
    return "\n".join(out) + "\n"


def _section(advisory: Advisory, label: str, deps: list[str], blocks: list[str]) -> list[str]:
    a = advisory.analysis
    spec = next((c.spec for c in a.changes if c.label == label), None)
    draft = " (draft)" if spec is not None and spec.draft else ""
    out = [f"#### {md_code(label)}{draft}", ""]
    if deps:
        out.append(f"- **Land after:** {', '.join(md_code(d) for d in deps)}")
    if blocks:
        out.append(f"- **Blocks:** {', '.join(md_code(b) for b in blocks)}")
    added = a.added_anchors.get(label, ())
    if added:
        out.append(f"- **Adds anchors:** {', '.join(md_code(x.display) for x in added)}")
    removed = a.removed_anchors.get(label, ())
    if removed:
        out.append(f"- **Removes anchors:** {', '.join(md_code(x.display) for x in removed)}")
    for b in a.bumps:
        if b.change == label:
            out.append(f"- **Version:** {md_code(b.path)} {md_code(b.old or '?')} → {md_code(b.new)}"
                       f" (base now {md_code(b.base_now or '?')})")
    findings = advisory.for_change(label)
    for ff in findings:
        f = ff.finding
        where = md_code(f"{f.repo}:{f.path}:{f.line}") if f.path else "its description"
        out.append(f"- {ICONS[f.severity]} **{f.code}** {where}: {md_text(f.message)}")
    if not (deps or blocks or findings):
        out.append("- Nothing to wait for: mergeable in any order.")
    out.append("")
    return out

