"""One case per rule (issue 44): `acNNN_name/case.py` builds a small workspace and says
which command to run; `acNNN_name/expected` holds what that command prints, as a
snapshot (tests/rules/test_rule_snapshots.py). `pytest tests/rules
--update-snapshots` rewrites the snapshots on purpose; read the diff before keeping it."""
