"""config: what the user asked for. The workspace (anchorcheck.toml, --repo/--ref),
its settings, the rule selection (--select/--ignore, severities) and the path rules
(excludes, .gitignore patterns). workspace.py holds the workspace and reads it,
values.py the checks of a config's values (types, tables, choices, rule codes),
selection.py the rule selection, excludes.py the path rules.

May import: extract (for its option types), git (to validate refs and find the repo a
command runs in), model, and the helpers at the package's top.
"""
