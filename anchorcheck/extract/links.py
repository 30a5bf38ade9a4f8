"""Links in comments and in Markdown: Markdown links and link reference definitions,
HTML links (`<a href>`, `<img src>`), and blob URLs of a forge, each a reference to a
file of the workspace or to a heading or the lines of one, found by its finder
(find_markdown_links, find_link_definitions, find_html_links, find_blob_urls), which
find_references runs; what a link's text claims of the lines it links to; and the code
spans and URL spans where no citation stands.

Its own room: a link names its target in the link's own syntax (a relative path, a
`repo:path`, a URL), where the other citation forms (citations.py) name a heading,
a Note or a location in words.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator
from dataclasses import replace
from urllib.parse import unquote

from anchorcheck.extract import claims
from anchorcheck.extract.locations import looks_like_path
from anchorcheck.model.anchor import fold_space
from anchorcheck.model.comment import Comment, JoinedText
from anchorcheck.model.reference import Reference, RefKind
from anchorcheck.patterns import compiled_on_use

# A Markdown link as CommonMark reads one: its text may hold brackets (`[a [b] c]`) and
# wrap onto the next lines; its target may be `<...>` or empty; its title may be in
# "", '' or (), and spaces may stand before the `)`. (Each repeat of the text's inner
# part starts with `[` or a line break, so no run can be split two ways: linear.)
_MD_LINK = compiled_on_use(
    r"\[(?P<label>[^\[\]\n]{0,300}(?:(?:\n(?![ \t]*\n)|\[[^\[\]\n]{0,300}\])[^\[\]\n]{0,300}){0,10})\]"
    r"\([ \t]*(?P<target><[^<>\n]{0,500}>|[^()\[\]\s]{0,500})"
    r"(?:[ \t\n]+(?:\"[^\"\n]{0,300}\"|'[^'\n]{0,300}'|\([^()\n]{0,300}\)))?[ \t]*\)"
)
# A Markdown link reference definition, `[label]: target "title"`, on its own line.
_MD_REF_DEF = compiled_on_use(
    # (Not a footnote, `[^1]: This is done...`, nor a line that goes on with words:
    # hls's `[1]: HLint is incompatible with GHC 9.10` is a paragraph, as CommonMark
    # has it, and HLint no file.)
    r"(?m)^[ \t]{0,3}\[(?!\^)[^\]\n]{1,300}\]:[ \t]*(?P<target><[^<>\n]{1,500}>|[^\s<>]{1,500})"
    r"""(?=(?:[ \t]+(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\)))?[ \t]*$)"""
)
_URL = compiled_on_use(r"\b[a-z][a-z0-9+.-]{1,20}://\S{1,2000}")
# An HTML link or image in Markdown (GitHub follows them as it follows Markdown's).
_HTML_LINK = compiled_on_use(
    r"""<(?:a|img|source|video|audio)\b[^<>]{0,500}?\s(?:href|src)[ \t]*=[ \t]*"""
    r"""(?:"(?P<dq>[^"<>]{0,500})"|'(?P<sq>[^'<>]{0,500})'|(?P<bare>[^\s"'<>`=]{1,500}))"""
)
# A file in a repo on a forge, at a ref: GitHub's blob and tree pages, its raw files,
# GitLab's /-/blob/ pages (a group may nest); then the fragment, `#L12-L20` or a slug.
_BLOB_URL = compiled_on_use(
    r"https?://(?:github\.com/(?P<owner>[\w.-]{1,100})/(?P<name>[\w.-]{1,100})/(?P<page>blob|tree)/"
    r"|raw\.githubusercontent\.com/(?P<rowner>[\w.-]{1,100})/(?P<rname>[\w.-]{1,100})/"
    r"|[\w.-]{1,100}/(?:[\w.-]{1,100}/){0,5}?(?P<gowner>[\w.-]{1,100})/(?P<gname>[\w.-]{1,100})"
    r"/-/(?P<gpage>blob|tree)/)"
    # (A path stops at markup and escapes: `…/sig-release</u>`, `guidelines.md\#x`.)
    r"(?P<ref>[^/\s]{1,200})/(?P<path>[^\s#?)<>\]\"'`\\]{1,500})"
    # A query (`?plain=1`, which shows a Markdown file's source, so `#L83` is a line)
    r"(?:\?[^\s#)>\]\"'`]{0,200})?"
    r"(?:#(?:L(?P<l1>\d+)(?:-L(?P<l2>\d+))?(?![\w-])|(?P<frag>[^\s)>\]\"'`]{1,300})))?"
)
# The branch names a repo's default branch goes by, and `HEAD` (GitHub's name for it).
_MOVING_REFS = frozenset({"main", "master", "trunk", "develop", "development", "dev", "head"})
GUTTER = compiled_on_use(r"\n[ \t]*(?:[#*>]+|//+|--+|;+)?[ \t]*")


# A link target a build substitutes: upper-case words joined by `_` (no file is named so;
# `LICENSE` alone still is a file).
_PLACEHOLDER = compiled_on_use(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+")
# A Markdown code span: a run of backticks, then the text up to the same run.
_CODE_SPAN = compiled_on_use(r"(?<!`)(`+)(?!`).+?(?<!`)\1(?!`)", re.DOTALL)
_BACKTICKS = compiled_on_use(r"`+")


def code_spans(text: str) -> list[tuple[int, int]]:
    """`[m.span() for m in _CODE_SPAN.finditer(text)]`, from the text's runs of
    backticks: a span opens at a run and closes at the next run of the same length,
    and the search goes on after it. _CODE_SPAN's lazy `.+?` tried the closing run
    at every character up to there, and to the end for a run never closed (8% of
    Markdown's reference finding). (A hypothesis test compares the two.)"""
    runs = [(m.start(), m.end() - m.start()) for m in _BACKTICKS.finditer(text)]
    following = [-1] * len(runs)  # the next run of the same length, by index
    last: dict[int, int] = {}
    for k in range(len(runs) - 1, -1, -1):
        following[k] = last.get(runs[k][1], -1)
        last[runs[k][1]] = k
    out = []
    i = 0
    while i < len(runs):
        j = following[i]
        if j < 0:
            i += 1
            continue
        out.append((runs[i][0], runs[j][0] + runs[j][1]))
        i = j + 1
    return out


# What may stand between a URL's scheme's first letter and its `://` (_URL).
_SCHEME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789+.-")


def url_spans(text: str) -> Iterator[tuple[int, int]]:
    """`m.span() for m in _URL.finditer(text)`, found from where `://` stands: _URL
    opens with `\\b[a-z]`, which the engine tried at every word of every comment
    holding a URL (a license header's every word). From each `://` the scheme is read
    back, and _URL matched at its letters, left to right, as finditer would reach
    them (a match starts at most 21 characters before its `://`). (A hypothesis test
    compares the two.)"""
    match = _URL.match
    pos = 0
    i = text.find("://")
    while i >= 0:
        low = max(pos, i - 21)
        j = i
        while j > low and text[j - 1] in _SCHEME_CHARS:
            j -= 1
        found = None
        for start in range(j, i - 1):
            if "a" <= text[start] <= "z" and (found := match(text, start)) is not None:
                break
        if found is None:
            i = text.find("://", i + 1)
            continue
        yield found.span()
        pos = found.end()
        i = text.find("://", pos)


# A link target `NAME:path`, which names a file of a workspace repo when NAME is no URL
# scheme browsers and systems open (IANA's permanent ones people link, and common ones).
_REPO_LINK = compiled_on_use(r"(?P<repo>[A-Za-z0-9][\w.-]*):(?!/)(?P<rest>[^\s:]+)")
_URL_SCHEMES = frozenset({
    "about", "blob", "bitcoin", "callto", "chrome", "data", "dict", "facetime", "fax", "feed", "file",
    "ftp", "ftps", "geo", "git", "gopher", "http", "https", "im", "irc", "ircs", "itms", "itms-apps",
    "javascript", "jar", "ldap", "magnet", "mailto", "market", "matrix", "mms", "news", "nntp",
    "sftp", "sip", "sips", "skype", "slack", "sms", "smb", "spotify", "ssh", "steam", "svn", "tag",
    "tel", "telnet", "urn", "view-source", "vscode", "vscode-insiders", "webcal", "ws", "wss",
    "xmpp", "zoommtg", "doi", "isbn", "cid", "mid", "content", "intent", "x-apple-data-detectors",
})
# A link target that is a URL: a scheme, or `//host` (relative to the page's scheme).
_SCHEME = compiled_on_use(r"[A-Za-z][A-Za-z0-9+.-]*:|//")


# Shaped as code: a `-`, `_` or `$`, or a capital inside (`maxLineLength`).
CODE_SHAPE = compiled_on_use(r"[-_$]|[a-z][A-Z]")
# One identifier, perhaps qualified (`mod.name`, `Class::method`, `$el`).
CODE_NAME = compiled_on_use(r"[A-Za-z_$][\w$]*(?:(?:\.|::)[A-Za-z_$][\w$]*)*")


def flat(text: str) -> str:
    return fold_space(GUTTER.sub(" ", text))


def _md_link_reference(joined: JoinedText, m: re.Match[str], in_markdown: bool) -> Reference | None:
    target = m.group("target").strip("<>")
    if in_markdown and "\\" in target:
        # CommonMark reads a backslash before punctuation in a destination as that
        # character (nats.docs' GitBook export writes `request\_reply.md`).
        target = _ESCAPED.sub(r"\1", target)
    if not target:
        # `[the guide]()` goes nowhere (AC105); mkdocs-autorefs' `[](){#id}` is an anchor.
        label = m.groupdict().get("label") or ""
        if in_markdown and label.strip() and not m.string.startswith("{", m.end()):
            line, col = joined.locate(m.start())
            return Reference.make(RefKind.PATH, line, col, flat(m.group(0)), target_path="", relative=True)
        return None
    return _target_reference(joined, m.start(), m.group(0), target, in_markdown,
                             m.group(0).find("](") + 2)


# A backslash escape of ASCII punctuation (CommonMark's "Backslash escapes").
_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")


def _html_link_reference(joined: JoinedText, m: re.Match[str]) -> Reference | None:
    """`<a href="x.md#y">`, `<img src="img/a.png">` in Markdown: links as GitHub shows them.
    (anchorcheck: ignore[AC105]: examples.)"""
    target = html.unescape(m.group("dq") or m.group("sq") or m.group("bare") or "").strip()
    if not target:
        return None
    end = m.string.find(">", m.end(), m.end() + 1000)
    if end > 0 and re.search(rf"""\s(?:id|name)[ \t]*=[ \t]*["']?{re.escape(target)}(?:["'\s>]|$)""",
                             m.string[m.start():end + 1]):
        # `<a href="x" id="x"></a>`: an anchor naming itself (GitBook gives a heading
        # its id so), not a link.
        return None
    return _target_reference(joined, m.start(), m.group(0), target, True, None)


def _target_reference(
    joined: JoinedText, start: int, written: str, target: str, in_markdown: bool, text_end: int | None,
) -> Reference | None:
    """The reference a link's target makes (`text_end`: where the link text ends, in
    `written`, for a `#L` link's claimed text)."""
    repo_link = _REPO_LINK.fullmatch(target) if in_markdown else None
    if repo_link is not None and repo_link.group("repo").lower() not in _URL_SCHEMES:
        # `[x](app:README.md#health-checks)`: a file of the workspace's repo `app`, as
        # a `repo:path` citation names it (a scheme no workspace repo is named is not
        # judged: resolver, Unchecked.URL_SCHEME).
        found = _target_reference(joined, start, written, repo_link.group("rest"), in_markdown, text_end)
        return replace(found, target_repo=repo_link.group("repo")) if found is not None else None
    if _SCHEME.match(target):
        return None  # a URL (blob URLs into the workspace are read separately)
    if any(ch in target for ch in "{}$<>|*") or _PLACEHOLDER.fullmatch(target):
        return None  # templated (`ENGLISH_VERSION_URL`, which fastapi's build fills in) or a glob
    path, _, frag = target.partition("#")
    path = path.split("?", 1)[0]
    if "%" in target:  # a link is a URL: `my%20notes.md` is the file `my notes.md`
        path, frag = unquote(path), unquote(frag)
    if path and not in_markdown and not looks_like_path(path):
        return None  # `[rsen](results)` in a code comment is not a link
    line, col = joined.locate(start)
    text = flat(written)
    if not path:
        if not frag:
            return None
        return Reference.make(RefKind.SLUG, line, col, text, name=frag, relative=True,
                              target_path=None)
    lines = re.fullmatch(r"L(\d+)(?:-L(\d+))?", frag)
    span = claims.line_range(lines.group(1), lines.group(2)) if lines else None
    if span is not None:
        claim = link_text_claim(written, text_end, path) if text_end is not None else None
        return Reference.make(RefKind.LINES, line, col, text, target_path=path, relative=True,
                              lines=span, claim=claim)
    if lines:
        return Reference.make(RefKind.PATH, line, col, text, target_path=path, relative=True)
    if frag:
        return Reference.make(RefKind.SLUG, line, col, text, name=frag, target_path=path,
                              relative=True)
    return Reference.make(RefKind.PATH, line, col, text, target_path=path, relative=True)


def _blob_url_reference(joined: JoinedText, m: re.Match[str]) -> Reference:
    line, col = joined.locate(m.start())
    # The repo is kept as `owner/name`; the resolver maps it to a workspace repo by
    # name or configured URL, and ignores the link when none matches.
    owner = m.group("owner") or m.group("rowner") or m.group("gowner")
    repo = f"{owner}/{m.group('name') or m.group('rname') or m.group('gname')}"
    # (ty's generated rules page links `blob/main/crates%2Fty_python_semantic%2F...`.)
    path = unquote(m.group("path").rstrip(".,;:"))
    span = claims.line_range(m.group("l1"), m.group("l2")) if m.group("l1") else None
    text = m.group(0)
    if span is not None:
        claim = link_text_claim(joined.text, m.start(), path) or claims.claimed_text(joined.text, m.start())
        return Reference.make(RefKind.LINES, line, col, text, target_repo=repo,
                              target_path=path, lines=span, via_url=True, claim=claim)
    frag = unquote(m.group("frag") or "").rstrip(".,;:")
    if frag:
        # A heading of a Markdown file in another repo, cited as people cite one: by
        # its page's URL (a folder's: the README shown below its listing). Checked as
        # a relative link to it is.
        return Reference.make(RefKind.SLUG, line, col, text, name=frag, target_repo=repo,
                              target_path=path, via_url=True)
    return Reference.make(RefKind.PATH, line, col, text, target_repo=repo,
                          target_path=path, via_url=True)


# `[VolumeError](https://.../types.go#L219)`: the text of a link that ends where the
# URL starts, when it is code (a code span, or a name shaped as code).
_LINK_TEXT_BEFORE = compiled_on_use(r"\[(?P<text>[^\[\]\n]{1,200})\]\([ \t]*<?\Z")
_CALL = compiled_on_use(r"(?P<name>[A-Za-z_$][\w$]*(?:(?:\.|::)[A-Za-z_$][\w$]*)*)\(\)")


def link_text_claim(text: str, start: int, path: str) -> str | None:
    """The code a link's text names, claimed to stand on the lines it links to: a code
    span's content, an identifier, a dotted or `::` path, or a call (`f()` claims `f`).
    Prose link text ("the handler") claims nothing, and nor does the linked file's own
    name (`[Makefile](.../Makefile#L3)`, `[TAG](.../TAG#L1)`): it names the file."""
    m = _LINK_TEXT_BEFORE.search(text, max(0, start - 220), start)
    if m is None:
        return None
    said = m.group("text").strip()
    base = path.rpartition("/")[2]
    if said.strip("`").strip() in (path, base, base.partition(".")[0]):
        return None
    if len(said) > 2 and said.startswith("`") and said.endswith("`"):
        inner = said.strip("`").strip()
        return inner or None
    call = _CALL.fullmatch(said)
    if call is not None:
        return call.group("name")
    if CODE_NAME.fullmatch(said) and (CODE_SHAPE.search(said) or "." in said or "::" in said
                                       or said[:1].isupper()):
        return said
    return None


def find_blob_urls(
    comment: Comment, joined: JoinedText,
    take: Callable[[tuple[int, int]], None], free: Callable[[re.Match[str]], bool],
) -> Iterator[Reference]:
    """The files of other repos a comment links by their forge's blob URLs, at a
    branch that moves (find_references' `take` and `free`)."""
    text = joined.text
    # In Markdown nothing in a code span is a link: a URL shown there is text
    # (jaeger's OpenSSF evidence table lists the stale URLs to replace so; gunicorn's
    # old news keeps reST's `` `name <url>`_ `` across two lines of a list item). (A
    # span across a table's `|` or a blank line is not trusted: a table's cells are
    # read one by one, which code_spans does not; oauth2-proxy's chart README.)
    shown = [(a, b) for a, b in code_spans(text) if "\n\n" not in text[a:b] and "|" not in text[a:b]] \
        if "`" in text and comment.kind in ("prose", "heading") else []
    for m in _BLOB_URL.finditer(text):
        if shown and any(a <= m.start() < b for a, b in shown):
            take(m.span())
            continue
        # A URL at a sha, a tag or a release branch is pinned: what it shows there
        # holds whatever the branch checked now says (loki's `tree/v1.3.0/docs/
        # configuration`). Only a branch that moves is checked against the tree.
        if free(m) and m.group("ref").lower() in _MOVING_REFS:
            yield _blob_url_reference(joined, m)


def find_markdown_links(
    joined: JoinedText, in_markdown: bool, shown_as_code: Callable[[re.Match[str]], bool],
    take: Callable[[tuple[int, int]], None], free: Callable[[re.Match[str]], bool],
) -> Iterator[Reference]:
    """The files and headings a comment's Markdown links name, `[text](target)`
    (find_references' `take`, `free` and `shown_as_code`)."""
    for m in _MD_LINK.finditer(joined.text):
        if shown_as_code(m):
            continue
        ref = _md_link_reference(joined, m, in_markdown)
        if ref is not None:
            if free(m):
                yield ref
        elif _SCHEME.match(m.group("target").lstrip("<")):
            # A link to a URL: its text names what is there, not a file of ours
            # (cert-manager's `[definition/reconciler.go#L55](https://github.com/
            # crossplane/...)`: 12 false AC105).
            take(m.span())


def find_html_links(
    joined: JoinedText, shown_as_code: Callable[[re.Match[str]], bool],
    take: Callable[[tuple[int, int]], None], free: Callable[[re.Match[str]], bool],
) -> Iterator[Reference]:
    """The files and headings a Markdown block's HTML links and images name
    (find_references' `take`, `free` and `shown_as_code`)."""
    text = joined.text
    for m in _HTML_LINK.finditer(text):
        if shown_as_code(m):
            continue
        ref = _html_link_reference(joined, m)
        if ref is not None and free(m):
            yield ref
        # The rest of the tag is attributes, not prose (a Medium export's
        # `data-href="../contributing/README.md#..."` beside the href: knative).
        end = text.find(">", m.end(), m.end() + 1000)
        if end > 0:
            take((m.end(), end + 1))


def find_link_definitions(joined: JoinedText, free: Callable[[re.Match[str]], bool]) -> Iterator[Reference]:
    """The files and headings a Markdown block's link reference definitions name,
    `[label]: target` (find_references' `free`)."""
    for m in _MD_REF_DEF.finditer(joined.text):
        ref = _md_link_reference(joined, m, True)
        if ref is not None and free(m):
            yield ref
