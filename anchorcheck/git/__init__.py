"""git: the only wing that runs git. Reads refs, trees and blobs from git objects
(one long-lived `git cat-file --batch` per repo), searches (`git grep`, `git log`),
decodes blob bytes to text, and builds repos for the demo and the tests. repo.py
holds the commands (GitRepo), with its searches (search.py) and its reads of history
(history.py) as mixins over gitdir.py (the repository opened, git run in it);
oversized.py the files over the size limit git leaves alone; process.py how git runs
(the pinned command line, the background pool, the blob readers), output.py the
readers of what git prints.

May import: the helpers at the package's top (errors). Not model: what it returns is
git's own data (tree entries, blob bytes, grep lines).
"""
