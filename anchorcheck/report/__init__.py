"""report: every output. text.py (terminal and JSON), ci.py (SARIF, GitHub
annotations, Markdown, JUnit), merge_order.py (the PR advisory), graph_export.py (the
graph as DOT, Mermaid, JSON, GraphML, HTML with graph.html), rulesdoc.py (the rule
table), markup.py (repo text made inert in Markdown), fix.py (drifted numbers and
paths rewritten, as a diff or in place).

May import: check and every wing below it, but not git: the report shows what a check
found and opens no repository (pyproject.toml's contracts).
"""
