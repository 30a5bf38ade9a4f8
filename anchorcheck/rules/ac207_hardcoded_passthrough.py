"""AC207 hardcoded-passthrough: a chart literal that restates an overridable env default."""

from __future__ import annotations

import re
from collections.abc import Iterator

from anchorcheck.model.finding import Finding, Severity
from anchorcheck.resolve.restated import Restatement
from anchorcheck.rules import rule
from anchorcheck.rules.base import CheckContext, Rule


@rule("AC207", "hardcoded-passthrough", Severity.INFO, enabled=False, reads="all")
def check(ctx: CheckContext, self: Rule) -> Iterator[Finding]:
    """A chart passes an env variable through, yet hardcodes the value the runtime reads from it.

    What: a literal in a chart (`containerPort: 8080`, a probe's `port: 8080`) equals
    the default a program in another repo reads from an env variable
    (`int(os.getenv("INGESTION_HTTP_PORT", "8080"))`), the names relate (a port and a
    `_PORT`, or the same name), no `restates` marker or contract ties them, and the
    chart passes its `.Values.env` through to the container. Off by default (it
    reads every fact file again): `--enable AC207`. `anchorcheck facts --restated`
    lists every such restatement, passthrough or not.
    Why: an operator who sets the variable through the passthrough moves the program
    and not the literal: `--set env.INGESTION_HTTP_PORT=9090` makes a pod whose probe
    still knocks on 8080 and never becomes Ready.
    Example: a chart's jobs-manager-deployment.yaml, its `port: 8080` and the
    runtime's INGESTION_HTTP_PORT.
    How to fix: derive the literal from the passed-through value
    (`{{ .Values.env.INGESTION_HTTP_PORT | default 8080 }}`) so the two move together;
    where it must stay a literal, add the `restates` marker the message gives, so that
    AC204 reports the default's drift.
    """
    for r in ctx.restated:
        if not r.passthrough:
            continue
        msg = (f"{r.value} here restates {r.fact} ({r.why}), which the chart lets operators set through "
               f"its .Values.env passthrough: derive it, or mark it `{r.marker}`")
        yield self.finding(r.repo, r.path, r.line, _column(ctx, r), msg, r.at)


def _column(ctx: CheckContext, r: Restatement) -> int:
    """Where the literal stands on its line (0-based), so an editor lands on it; 0 when
    the line does not spell the value as a word of its own. The file is read again
    (facts keep no columns), for these few findings only."""
    lines = (ctx.index.text(r.repo, r.path) or "").splitlines()
    if not 0 < r.line <= len(lines):
        return 0
    value = r.value.strip().strip("\"'")
    m = re.search(rf"(?<![\w.]){re.escape(value)}(?![\w.])", lines[r.line - 1]) if value else None
    return m.start() if m else 0
