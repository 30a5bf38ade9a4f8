"""What a rule is, and what it is given: the resolved references and the graph, never
git or files."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from anchorcheck.model.finding import Finding, Severity
from anchorcheck.model.issue import IssueState
from anchorcheck.model.reference import Reference
from anchorcheck.model.suppression import Suppression
from anchorcheck.resolve.resolution import Resolution, Status
from anchorcheck.resolve.workspace_index import WorkspaceIndex

if TYPE_CHECKING:
    import networkx as nx

    # Types only: a merge-order run loads the rules but never verifies claims or
    # reads history, and skips importing those modules (and their patterns).
    from anchorcheck.resolve.history import RemovedMention
    from anchorcheck.resolve.restated import Restatement
    from anchorcheck.resolve.verify import ClaimCheck, ContractBreach


@dataclass(frozen=True, slots=True)
class CheckContext:
    """What the rules read: the index, the resolutions, the claims checked, and more."""

    index: WorkspaceIndex
    # Every reference's resolution. The reference rules need no more than these.
    resolved: tuple[Resolution, ...]
    # The reference graph, built on first call: most runs never need it, and networkx
    # costs 0.2 s to import and the graph ~0.3 s to build on a large workspace.
    graph: Callable[[], nx.MultiDiGraph]
    claims: tuple[ClaimCheck, ...] = ()
    contracts: tuple[ContractBreach, ...] = ()
    removed: tuple[RemovedMention, ...] = ()
    unused_suppressions: tuple[Suppression, ...] = ()
    # Issue references and what the forge said of each (None: no such issue); empty
    # when no forge was asked (check/issues.py).
    issues: Mapping[Reference, IssueState | None] = field(default_factory=dict)
    # Literals restating another repo's fact unmarked (resolve/restated.py), when AC207
    # is on (it reads every fact file again).
    restated: tuple[Restatement, ...] = ()

    def failed_claims(self, code: str) -> Iterator[ClaimCheck]:
        return (c for c in self.claims if c.code == code)

    def resolutions(self, status: Status) -> Iterator[Resolution]:
        return (res for res in self.resolved if res.status is status)


# Workspace rules get a CheckContext; change rules (merge-order) a MergeContext.
CheckFn = Callable[[Any, "Rule"], Iterator[Finding]]


# What a finding with no reference of its own was read from, by rule.
_EVIDENCE_BY_CODE = {"AC110": "anchor", "AC120": "anchor", "AC203": "code-mention", "AC204": "restated-value",
                     "AC206": "comment", "AC207": "template", "AC302": "anchor", "AC901": "suppression"}


@dataclass(frozen=True, slots=True)
class Rule:
    """A rule: a code that is never reused, a name, a default severity, and a doc
    with What / Why / Example that `anchorcheck rules CODE` prints."""

    code: str
    name: str
    severity: Severity
    enabled_by_default: bool
    doc: str
    check: CheckFn
    mode: str = "workspace"  # "workspace" (check) or "changes" (merge-order)
    # The files a check must read for this rule: "sources", the files it reports on
    # (the kinds `--kind` names, every kind by default), whatever they cite being read
    # as it is needed (check/pipeline.py); "all", every file whatever it reports on
    # (a duplicate or an unreferenced anchor is one only among all the anchors and all
    # the references); or one file kind, the only kind its findings can come from
    # (AC108: Markdown READMEs).
    reads: str = "sources"

    @property
    def summary(self) -> str:
        """The docstring's first sentence, whole where it runs over two lines (AC206's
        and AC307's were cut in two in docs/rules.md)."""
        first = self.doc.strip().split("\n\n", 1)[0]
        return " ".join(first.split())

    def finding(
        self, repo: str, path: str, line: int, column: int, message: str, subject: str,
        suggestion: str | None = None, change: str | None = None,
    ) -> Finding:
        """A finding about no reference: its evidence is what the rule reads."""
        return Finding(self.code, self.name, self.severity, repo, path, line, column + 1,
                       message, subject, suggestion, change, _EVIDENCE_BY_CODE.get(self.code))

    def cited(
        self, ref: Reference, message: str, subject: str, suggestion: str | None = None,
        change: str | None = None,
    ) -> Finding:
        """A finding at a reference, saying which syntax it was read from (issue 40)."""
        return Finding(self.code, self.name, self.severity, ref.repo, ref.path, ref.line, ref.col + 1,
                       message, subject, suggestion, change, str(ref.evidence), ref.evidence.prose)

    def at(self, res: Resolution, message: str, suggestion: str | None = None) -> Finding:
        return self.cited(res.reference, message, res.reference.text, suggestion)
