"""Issue references: a comment that names an issue or a change on a forge.

Forms: an issue or change URL (`https://github.com/acme/backend/issues/1922`,
`.../pull/791`, GitLab's `.../-/issues/5`, `.../-/merge_requests/12`), `OWNER/NAME#N`,
`REPO#N` (kept only when REPO is a workspace repo: resolution decides), and a bare
`#N` (the citing repo's) when a word before it says it is one (`see #12`, `issue #12`,
`fixes #12`, `(#12)`): a bare `#12` is as often a list item or a colour.

A reference's `claim` is "pending" when its wording says it still waits on the issue
("pending", "until", "blocked on", "deferred to", "waiting for", "once", a
`TODO(...#N)`): AC107 reports such a reference to a closed issue. A neutral mention
("History: backend#1779") claims nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from anchorcheck.model.comment import JoinedText
from anchorcheck.model.reference import Reference, RefKind
from anchorcheck.patterns import compiled_on_use

_URL = compiled_on_use(
    r"https?://(?P<host>[A-Za-z0-9.-]+(?::[0-9]+)?)/(?P<path>[\w.-]+(?:/[\w.-]+)+?)(?:/-)?/"
    r"(?P<kind>issues|pull|merge_requests)/(?P<n>[1-9][0-9]{0,8})(?![\w/-])")
# OWNER/NAME#N, REPO#N, #N: not inside a word, a path or a URL, and not `#N#` or `#Nab`.
_SHORT = compiled_on_use(
    r"(?<![\w/#.:&-])(?:(?P<owner>[A-Za-z0-9][\w.-]{0,38})/)?(?P<repo>[A-Za-z0-9_][\w.-]{0,99})?"
    r"#(?P<n>[1-9][0-9]{0,8})(?![\w#])")
# What every _SHORT match holds.
_HASH_NUMBER = compiled_on_use(r"#[1-9]")
# What makes a bare #N an issue: a word right before it, or parentheses around it.
# ("for #1 and #3", "after #2", "at #1" in git's and pip's comments are list items and
# steps: prepositions alone are no cue.)
_BARE_CUE = compiled_on_use(
    r"(?i:\b(?:see|issue|issues|bug|pr|pull request|mr|ticket|fix|fixes|fixed|close|closes|closed|resolve|"
    r"resolves|resolved|refs?|pending|until|blocked on|blocked by|tracked in|tracked by|awaiting|"
    r"cf\.?)[ \t:]*|\([ \t]*)$")
# The wording of a reference still waited on: before it, in its sentence.
_PENDING = compiled_on_use(
    r"(?i:\bpending\b|\buntil\b|\bblocked[ \t\n]+(?:on|by)\b|\bdeferred[ \t\n]+(?:to|until)\b|"
    r"\bwait(?:s|ing)?[ \t\n]+(?:for|on)\b|\bawaiting\b|\bonce\b|\bworkaround[ \t\n]+for\b|"
    r"\b(?:TODO|FIXME|XXX)\([^)\n]*$)")
# The end of a sentence (also: a URL before a quoted name is in its sentence, citations).
SENTENCE_END = compiled_on_use(r"[.;!?](?:[ \t\n]|$)")


def find_issue_references(joined: JoinedText, free: Callable[[re.Match[str]], bool]) -> Iterator[Reference]:
    """The issue references in a comment's text; `free` marks what a match covers (and
    says whether another reference covered it first)."""
    text = joined.text
    if "://" in text:
        for m in _URL.finditer(text):
            if free(m):
                line, col = joined.locate(m.start())
                # The host goes in target_path; the text says whether it is a change.
                yield Reference.make(RefKind.ISSUE, line, col, m.group(0), name=m.group("n"),
                                     target_repo=m.group("path"), target_path=m.group("host").lower(),
                                     via_url=True, claim=_pending(text, m.start()))
    if "#" not in text or _HASH_NUMBER.search(text) is None:
        return  # (_SHORT names no literal: its search tried every position of the text)
    for m in _SHORT.finditer(text):
        owner, repo = m.group("owner"), m.group("repo")
        if owner and not repo:
            continue
        if not repo and not _BARE_CUE.search(text, max(0, m.start() - 40), m.start()):
            continue
        if not free(m):
            continue
        line, col = joined.locate(m.start())
        target = f"{owner}/{repo}" if owner else repo
        yield Reference.make(RefKind.ISSUE, line, col, m.group(0), name=m.group("n"), target_repo=target,
                             via_url=bool(owner), claim=_pending(text, m.start(), m.end()))


def _pending(text: str, start: int, end: int | None = None) -> str | None:
    """"pending" when the sentence before the reference (or a TODO(...) around it)
    says it is still waited on."""
    begin = max(0, start - 120)
    ends = [e.end() for e in SENTENCE_END.finditer(text, begin, start)]
    if ends:
        begin = ends[-1]
    return "pending" if _PENDING.search(text[begin:start]) else None
