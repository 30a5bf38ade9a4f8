"""check: the pipeline, end to end. pipeline.py indexes the workspace (or reads it
from index files, index_file.py, or a whole result from result_cache.py), resolves,
runs the selected rules, applies suppressions and severities and fingerprints the
findings; baseline.py and changed.py are the filters after it; on_disk.py says whether
a file on disk is still what was read (fix rewrites only such files).

May import: rules and every wing below it.
"""
