"""AC203 removed-symbol-mention: a code mention of a name that history shows was removed."""

from __future__ import annotations

from collections.abc import Iterator

from anchorcheck.model.finding import Finding, Severity
from anchorcheck.rules import rule
from anchorcheck.rules.base import CheckContext, Rule


@rule("AC203", "removed-symbol-mention", Severity.WARNING)
def check(ctx: CheckContext, self: Rule) -> Iterator[Finding]:
    """A comment names a symbol that the repo's history shows was removed.

    What: a code-shaped mention (`` `name` ``, `` `mod.name()` ``, `name()`) of a
    name that no file of the workspace defines now, but that a commit in the last
    `history-depth` commits of a repo removed the definition of; the finding names
    that commit. A mention is matched with its own repo's history, and with another
    repo's only when its line names that repo or the file the name was removed from
    (a C comment's `memmove()` is no finding for another repo that once defined
    one). Names never defined in the workspace's history (library calls, prose in
    backticks) are not findings; nor is a name its old file still spells in
    quotes (served by a module's `__getattr__`, an `__all__`, a shim), nor a test
    file's or a vendored copy's definition named outside that file (a framework's or
    the C library's function of the same name).
    Why: the comment describes code that is gone, and is on its way to teaching the
    wrong thing.
    Example: "`_healthz_report()` checks authz_mount" after commit 1a2b3c4 deleted
    `def _healthz_report`.
    How to fix: read the commit the finding names, and rewrite the comment for the
    code that replaced the name, or drop the mention. A name that is another project's
    (a library's function of the same name) takes `anchorcheck: ignore[AC203]`.
    """
    for found in ctx.removed:
        m, r = found.mention, found.removal
        msg = (f"{m.name} is no longer defined anywhere in the workspace; commit {r.commit[:12]} "
               f"in {r.repo} ({r.subject!r}) removed it from {r.path}")
        yield self.finding(m.repo, m.path, m.line, m.col, msg, m.name)
