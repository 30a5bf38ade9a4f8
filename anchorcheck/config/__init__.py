"""config: what the user asked for. The workspace (anchorcheck.toml, --repo/--ref),
its settings, the rule selection (--select/--ignore, severities) and the path rules
(excludes, .gitignore patterns).

May import: extract (for its option types), git (to validate refs and find the repo a
command runs in), model, and the helpers at the package's top.
"""
