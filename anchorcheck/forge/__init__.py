"""forge: where a repo's PRs and issues live (GitHub, GitLab), over their REST APIs.
Lists a repo's open changes, reads an issue's or a change's state, and finds, creates
and edits anchorcheck's own comment on a change. Plain data out; no cache (callers
cache what they may), and a token never leaves a request header.

May import: the helpers at the package's top (errors). Rules never call it: what they
need of a forge is asked before they run, and handed to them.
"""
