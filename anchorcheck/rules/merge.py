"""What change rules (merge-order) are given: the analysis of the open changes."""

from __future__ import annotations

from dataclasses import dataclass

from anchorcheck.mergeorder import Analysis


@dataclass(frozen=True, slots=True)
class MergeContext:
    analysis: Analysis
