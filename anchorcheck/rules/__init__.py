"""rules: the rule registry, every rule by code in one table, and one module per rule.

Each rule lives in its own module; importing this package registers them all. Rules
read the resolved workspace (CheckContext) and the merge-order analysis
(merge.MergeContext); they never touch git or the file system.

May import: pr and every wing below it (the registry's `from anchorcheck.rules import
rule` inside this wing aside).
"""

from __future__ import annotations

from collections.abc import Callable

from anchorcheck.model.finding import Severity
from anchorcheck.rules.base import CheckContext, CheckFn, Rule

REGISTRY: dict[str, Rule] = {}


def rule(
    code: str, name: str, severity: Severity, *, enabled: bool = True, mode: str = "workspace",
    reads: str = "sources",
) -> Callable[[CheckFn], CheckFn]:
    """Register a check function; its docstring is the rule's documentation."""

    def register(fn: CheckFn) -> CheckFn:
        if code in REGISTRY:
            raise RuntimeError(f"rule code {code} registered twice")
        REGISTRY[code] = Rule(code, name, severity, enabled, fn.__doc__ or name, fn, mode, reads)
        return fn

    return register


def rule_by_name_or_code(key: str) -> Rule | None:
    key = key.strip()
    return REGISTRY.get(key.upper()) or next(
        (r for r in REGISTRY.values() if r.name == key.lower()), None
    )


# Registration happens on import; the order here is the order of `anchorcheck rules`.
from anchorcheck.rules import (  # noqa: E402
    ac101_dangling_reference,
    ac102_wrong_location,
    ac103_ambiguous_reference,
    ac104_unknown_repo,
    ac105_dangling_path,
    ac106_unknown_issue,
    ac107_closed_issue_pending,
    ac108_site_only_link,
    ac110_duplicate_anchor,
    ac120_unreferenced_anchor,
    ac201_stale_line_claim,
    ac202_missing_symbol,
    ac203_removed_symbol_mention,
    ac204_restated_value_drift,
    ac205_rewritten_cited_lines,
    ac206_stale_comment,
    ac207_hardcoded_passthrough,
    ac301_merge_after,
    ac302_breaks_reference,
    ac303_dependency_cycle,
    ac304_merge_conflict,
    ac305_version_race,
    ac306_version_guard,
    ac307_undeclared_dependency,
    ac308_unneeded_declared_dependency,
    ac901_unused_suppression,
)

__all__ = [
    "REGISTRY",
    "CheckContext",
    "Rule",
    "ac101_dangling_reference",
    "ac102_wrong_location",
    "ac103_ambiguous_reference",
    "ac104_unknown_repo",
    "ac105_dangling_path",
    "ac106_unknown_issue",
    "ac107_closed_issue_pending",
    "ac108_site_only_link",
    "ac110_duplicate_anchor",
    "ac120_unreferenced_anchor",
    "ac201_stale_line_claim",
    "ac202_missing_symbol",
    "ac203_removed_symbol_mention",
    "ac204_restated_value_drift",
    "ac205_rewritten_cited_lines",
    "ac206_stale_comment",
    "ac207_hardcoded_passthrough",
    "ac301_merge_after",
    "ac302_breaks_reference",
    "ac303_dependency_cycle",
    "ac304_merge_conflict",
    "ac305_version_race",
    "ac306_version_guard",
    "ac307_undeclared_dependency",
    "ac308_unneeded_declared_dependency",
    "ac901_unused_suppression",
    "rule",
    "rule_by_name_or_code",
]
