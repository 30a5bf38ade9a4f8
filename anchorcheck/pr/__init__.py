"""pr: open changes (PRs) across repos. change.py says what a change is (a repo, a
head, its merge base); mergeorder.py indexes each change on top of its base and
computes the dependencies, the breaks, conflicts and version races, asking the
scenarios of scenarios.py (the base with some changes applied); analysis.py holds
what it finds, order.py the order it computes; versions.py reads and bumps versions.

May import: resolve and every wing below it.
"""
