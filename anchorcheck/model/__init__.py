"""model: the vocabulary every stage speaks (DESIGN.md's table), as frozen dataclasses.

Holds anchors, references, comments, findings (and their line-free fingerprints),
inline suppressions, snapshots (what one repo at one commit defines and cites) and
how these pickle between processes. No I/O.

May import: the helpers at the package's top (errors, patterns) only; no wing.
"""
