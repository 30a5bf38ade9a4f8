"""What change rules (merge-order) are given: the analysis of the open changes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (pr/analysis.py imports the pr wing, which `check` never needs)
    from anchorcheck.pr.analysis import Analysis


@dataclass(frozen=True, slots=True)
class MergeContext:
    """What the merge rules (AC3xx) read: a merge-order analysis."""

    analysis: Analysis
