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


def _register_all() -> None:
    """Import every rule module of this package (`acNNN_name.py`): each registers its
    rule on import, so a new rule is its module alone, named nowhere else. In code
    order, the order of `anchorcheck rules`."""
    import importlib
    import pkgutil

    names = (m.name for m in pkgutil.iter_modules(__path__))
    for name in sorted(n for n in names if n[:2] == "ac" and n[2:5].isdigit()):
        importlib.import_module(f"{__name__}.{name}")


_register_all()

__all__ = ["REGISTRY", "CheckContext", "Rule", "rule", "rule_by_name_or_code"]
