"""index: the stage that turns each repo at its ref into a snapshot. crawl.py is the
stage and its only door to the cache: it asks the cache at its edges (a snapshot by
commit; then the blobs a plan wants), plans what is left to read (plan.py), sends it
through the extraction pool (pool.py), and stores what was new. cache.py is the
SQLite cache; stored.py how a snapshot is stored; lazy.py the parts decoded on use.

May import: config, extract, git, model, and the helpers at the package's top.
"""
