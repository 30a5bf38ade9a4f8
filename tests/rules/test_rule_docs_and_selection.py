"""What the rule helpers found while writing a case per rule (issue 44): a summary cut
in two where its sentence ran over two lines, and AC901 selected alone calling every
marker unused."""

from __future__ import annotations

from anchorcheck.rules import REGISTRY
from tests.conftest import WorkspaceBuilder, run_cli


def test_every_rules_summary_is_a_whole_sentence() -> None:
    cut = {code: rule.summary for code, rule in REGISTRY.items() if not rule.summary.endswith((".", ")"))}
    assert cut == {}


def test_a_marker_is_judged_only_when_a_rule_it_names_ran(ws: WorkspaceBuilder) -> None:
    ws.repo("r", {"a.py": "# anchorcheck: ignore[AC101]\n# see NO SUCH HEADING HERE in a.py\nx = 1\n"})
    ws.config()
    alone = run_cli("check", "--select", "AC901", cwd=ws.root)
    assert "AC901" not in alone.out, alone.out  # AC101 did not run: nothing to judge the marker by
    both = run_cli("check", "--select", "AC101", "--select", "AC901", cwd=ws.root)
    assert "AC901" not in both.out and "AC101" not in both.out, both.out  # in use: it hides its AC101


def test_every_rule_says_what_why_an_example_and_how_to_fix() -> None:
    import ast
    from pathlib import Path

    sections = ("What:", "Why:", "Example:", "How to fix:")
    missing = {code: [s for s in sections if s not in rule.doc] for code, rule in REGISTRY.items()}
    assert {code: gone for code, gone in missing.items() if gone} == {}
    modules = Path(__file__).parents[2] / "anchorcheck" / "rules"
    bare = [p.name for p in sorted(modules.glob("ac[0-9]*.py")) if ast.get_docstring(ast.parse(p.read_text())) is None]
    assert bare == []
