"""`anchorcheck rules`: the rule table, or one rule's documentation."""

from __future__ import annotations

import click

from anchorcheck.cli.app import cli
from anchorcheck.errors import AnchorcheckError


@cli.command()
@click.argument("code", required=False)
@click.option("--format", "fmt", type=click.Choice(["text", "markdown"]), default="text",
              show_default=True, help="markdown: the page docs/rules.md is generated from.")


def rules(code: str | None, fmt: str) -> None:
    """List the rules, or print one rule's documentation."""
    from anchorcheck.rules import REGISTRY, rule_by_name_or_code

    if fmt == "markdown":
        from anchorcheck.report.rulesdoc import rules_markdown

        click.echo(rules_markdown(), nl=False)
        return
    if code:
        rule = rule_by_name_or_code(code)
        if rule is None:
            raise AnchorcheckError(f"unknown rule {code!r} (see 'anchorcheck rules')")
        state = "on" if rule.enabled_by_default else "off"
        click.echo(f"{rule.code} {rule.name} ({rule.severity.label}, {state} by default)\n")
        import inspect  # here: the other commands do not need it (6 ms of every start)

        click.echo(inspect.cleandoc(rule.doc))
        return
    for rule in REGISTRY.values():
        state = "" if rule.enabled_by_default or "off by default" in rule.summary else "  [off by default]"
        click.echo(f"{rule.code}  {rule.name:<22} {rule.severity.label:<8} {rule.summary}{state}")
