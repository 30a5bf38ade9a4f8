"""Issues and changes as a forge says they are now: what AC106 and AC107 compare a
comment's issue references with."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class IssueState:
    """An issue or a change (pull or merge request) on a forge."""

    number: int
    state: str  # "open" or "closed" (a merged change is closed)
    is_change: bool
    title: str
    url: str

    @property
    def closed(self) -> bool:
        return self.state == "closed"
