"""Finding references in comment blocks.

A comment block's lines are joined with newlines (leaders already removed) and the
patterns below run over the joined text, so a reference may wrap across lines of one
block. Every pattern starts with a literal or a narrow class and has no nested
unbounded repetition, so matching is linear in the block's length.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from dataclasses import replace
from urllib.parse import unquote

from anchorcheck.extract import claims, triggers
from anchorcheck.extract.headings import note_definition_spans
from anchorcheck.extract.issues import find_issue_references
from anchorcheck.extract.languages import language_of
from anchorcheck.extract.locations import PATH, REPO, RUN_START, looks_like_path
from anchorcheck.extract.modules import is_module
from anchorcheck.extract.verbatim import Verbatim
from anchorcheck.model.anchor import fold_space
from anchorcheck.model.comment import Comment, JoinedText
from anchorcheck.model.reference import Reference, RefKind
from anchorcheck.patterns import compiled_on_use

# Every pattern that does not start with a literal starts with a lookbehind that
# only lets it begin at the start of a run (of caps words, of path characters), so
# each run is tried once and matching stays linear; without it, "A" * 100_000 or
# "a/" * 50_000 is tried from every position, which is quadratic.
_WORD = r"[A-Z0-9][A-Z0-9'&/-]*"
# Words are separated by at least one blank: an empty separator would let one word
# split into many, and the matcher would try every split (exponential).
_CAPS = rf"(?<![A-Za-z0-9'&/_.-]){_WORD}(?:[ \t\n]+{_WORD}){{1,9}}"
_QUOTED = (
    r"\"(?P<q1>[^\"\n]{2,100}(?:\n[^\"\n]{1,100})?)\""
    r"|'(?P<q2>[^'\n]{2,100}(?:\n[^'\n]{1,100})?)'"
    r"|`(?P<q3>[^`\n]{2,100}(?:\n[^`\n]{1,100})?)`"
    r"|“(?P<q4>[^”\n]{2,100}(?:\n[^”\n]{1,100})?)”"
)
# A location; its path may wrap onto the next comment line after a `/`
# (`client/templates/` then `jobs-manager-deployment.yaml`): one path (see _WRAP).
_ON_THE_NEXT_LINE = r"(?:(?<=/)\n[ \t]*[A-Za-z0-9_.~+-][A-Za-z0-9_.~/+@-]{0,300})?"
_WRAPPED_PATH = PATH.replace("{0,300}[A-Za-z0-9_+-])", "{0,300}" + _ON_THE_NEXT_LINE + "[A-Za-z0-9_+-])")
assert _WRAPPED_PATH != PATH
_LOC = rf"{RUN_START}(?:{REPO})?{_WRAPPED_PATH}"
_WRAP = compiled_on_use(r"/\n[ \t]*")
_LEAD = r"(?i:see|per|under|cf\.?|described\s+in|explained\s+in)"
_NOUN = r"(?:[ \t\n]+(?i:note|section|heading|comment|block))?"

# see HEADING in LOC / see "Heading" [in LOC]
_SEE = compiled_on_use(
    rf"\b{_LEAD}[ \t\n]+(?:(?i:the)[ \t\n]+)?(?:{_QUOTED}|(?P<caps>{_CAPS})){_NOUN}"
    rf"(?:[ \t\n]*,?[ \t\n]+in[ \t\n]+(?:the[ \t\n]+)?{_LOC})?"
)
# HEADING (in LOC)
_PAREN = compiled_on_use(rf"(?:{_QUOTED}|(?P<caps>{_CAPS}))[ \t\n]*\([ \t\n]*in[ \t\n]+{_LOC}[ \t\n]*\)")
# LOC § HEADING
_SECTION = compiled_on_use(rf"{_LOC}[ \t\n]*§[ \t\n]*(?:{_QUOTED}|(?P<caps>{_CAPS}))")
# LOC#HEADING, LOC#slug, LOC#L10-L20
_FRAGMENT = compiled_on_use(
    rf"{RUN_START}(?:{REPO})?(?P<path>(?:\./)?[A-Za-z0-9_.~+-][A-Za-z0-9_.~/+@-]{{0,300}}"
    r"\.[A-Za-z0-9]{1,10})#(?:L(?P<l1>\d+)(?:-L?(?P<l2>\d+))?\b|(?P<caps>"
    # A GitHub slug is lower case; `Boolean.html#parseBoolean` (a wrapped Javadoc URL)
    # is not one.
    # (`config.md#pydantic.config.ConfigDict` is no slug `pydantic`: a `.` and a word
    # character go on with the fragment; a sentence's last `.` does not.)
    rf"{_CAPS})|(?P<slug>[a-z0-9_-]{{0,200}}[a-z0-9_])(?![\w%]|\.\w))"
)
# Every _FRAGMENT match holds this (a file extension right before its `#`); a `#`
# alone (GHC's `Int#`, `#if`) does not make _FRAGMENT worth trying at every position.
_FRAGMENT_HINT = compiled_on_use(r"\.[A-Za-z0-9]{1,10}#")
# (Not a Markdown link: vite's `::: tip Note` over a line that opens with
# ``[`server.sourcemapIgnoreList`](#...)``.)
_NOTE = compiled_on_use(r"Note[ \t\n]*\[(?P<name>[^\[\]\n]{1,200}(?:\n[^\[\]\n]{1,200})?)\](?!\()")
# What may follow a Note's name: where it is, `in PATH` or `in Module.Name`.
_NOTE_IN = compiled_on_use(
    r"[ \t]*(?:\n[ \t]*(?:[#*>]+|//+|--+|;+|\{-)?[ \t]*)?in[ \t\n]+(?P<loc>[\w./'-]{2,200})")
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
_GUTTER = compiled_on_use(r"\n[ \t]*(?:[#*>]+|//+|--+|;+)?[ \t]*")


# Every reference form contains one of these (see triggers.REFERENCE_PATTERN).
TRIGGER = compiled_on_use(triggers.REFERENCE_PATTERN)


_SEE_HINT = compiled_on_use(r"(?i:see|per|under|cf\b|described|explained)")
_CF = compiled_on_use(r"cf\b")


def _see_hint(text: str) -> bool:
    """`_SEE_HINT.search(text)`, without trying its six case-blind words at every
    position: plain substrings of the case-folded text (a superset where Unicode case
    folding is wider than the regex's)."""
    if len(text) < 64:
        return _SEE_HINT.search(text) is not None  # short: the one regex call is cheaper
    folded = text.casefold()
    return any(w in folded for w in ("see", "per", "under", "described", "explained")) or \
        _CF.search(folded) is not None


_PAREN_HINT = compiled_on_use(r"\([ \t\n]*in[ \t\n]")
_LEAD_WORDS = ("see", "per", "under", "cf", "described", "explained")


def see_matches(text: str) -> Iterator[re.Match[str]]:
    """`_SEE.finditer(text)`, found from where its lead words stand. _SEE opens with a
    case-blind alternation after `\\b`, which hides every literal from the regex
    engine: finditer tried it at every position of every comment (the costliest
    pattern here). In ASCII text the lead words are found in the lower-cased text by
    `str.find` (same offsets) and _SEE is matched only there, left to right,
    skipping starts inside the previous match as finditer does. Outside ASCII, where
    case-blind matching reaches further (`ſ` is an `s`), finditer as before, where
    the lead words' hint finds one. (A hypothesis test compares the two.)"""
    if not text.isascii():
        if _see_hint(text):
            yield from _SEE.finditer(text)
        return
    low = text.lower()
    starts: list[int] = []
    for word in _LEAD_WORDS:
        i = low.find(word)
        while i >= 0:
            starts.append(i)
            i = low.find(word, i + 1)
    starts.sort()
    end = 0
    match = _SEE.match
    for start in starts:
        if start < end:
            continue
        m = match(text, start)
        if m is not None:
            end = m.end()
            yield m


def find_references(
    comment: Comment, joined: JoinedText | None = None, note_definitions: set[tuple[int, int]] | None = None,
    triggered: bool = False,
) -> Iterator[Reference]:
    """The references in one comment. `note_definitions`: (line, col) of the file's
    Note definitions when the caller has them (extraction found them as anchors), so
    that they are not looked for again here. `triggered`: the caller kept the comment
    for holding a trigger (Markdown's keep test), so it is not tested again here (the
    test only spares the patterns below, each of which needs a trigger to match)."""
    joined = joined or JoinedText.of(comment)
    text = joined.text
    if not triggered and not triggers.REFERENCE(text, 0, len(text)) and not (
            comment.kind in ("prose", "heading") and ("href" in text or "src" in text)):
        return
    # Which characters a reference (or a URL, or a Note definition) already covers: a
    # byte per character keeps the overlap test linear however many references a
    # comment holds (a list of spans made it quadratic on hostile input).
    taken = bytearray(len(text))

    def take(span: tuple[int, int]) -> None:
        s, e = span
        taken[s:e] = b"\x01" * (e - s)

    def free(m: re.Match[str]) -> bool:
        s, e = m.span()
        if 1 in taken[s:e]:
            return False
        take((s, e))
        return True

    # Each pattern runs only where its literal occurs: most comments that pass the
    # trigger hold one kind of reference, and the caps-heading patterns are the
    # costly ones.
    if "Note" in text:
        definitions = note_definitions if note_definitions is not None else note_definition_spans(comment)
        for m in _NOTE.finditer(text):
            line, col = joined.locate(m.start())
            if (line, col) in definitions:
                take(m.span())
                continue
            name = fold_space(_GUTTER.sub(" ", m.group("name")))
            # `Note [ ]` names nothing (no reference; the file's others are still read)
            if name and free(m):
                yield Reference.make(RefKind.NOTE, line, col, _flat(m.group(0)), name=name,
                                     target_path=_note_location(text, m.end()),
                                     claim=_TITLE if _title_shaped(comment, line, m.group(0)) else None)
    if "github.com/" in text or "githubusercontent.com/" in text or "/-/blob/" in text or "/-/tree/" in text:
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
    in_markdown = comment.kind in ("prose", "heading")
    # A link written inside a code span is code (fastapi's docs show
    # `[text](url){.internal-link}` as the syntax to keep), in Markdown and in the
    # docstrings and doc comments that tools render as Markdown or reST (MyST-Parser's
    # ``[text](./doc.md)`` in a docstring: reST's literal); so is an HTML tag shown in
    # one (`` `<a href="/...">` ``). Neither's path is a citation of its own either.
    # In Markdown a `PATH#slug` in a code span is shown too (mdBook's guide: "For
    # example, `mdbook.md#text-and-paragraphs` would link to..."): a link is written as one.
    # (anchorcheck: ignore[AC105]: examples, not citations)
    code = code_spans(text) if "`" in text and ("](" in text or "href" in text or "src" in text
                                                 or (in_markdown and "#" in text)) else []

    def shown_as_code(m: re.Match[str]) -> bool:
        if code and any(a <= m.start() < b for a, b in code):
            take(m.span())
            return True
        return False

    if "](" in text:
        for m in _MD_LINK.finditer(text):
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
    if in_markdown and ("href" in text or "src" in text):
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
    if in_markdown and "]:" in text:
        for m in _MD_REF_DEF.finditer(text):
            ref = _md_link_reference(joined, m, True)
            if ref is not None and free(m):
                yield ref
    # Issue references before URLs are set aside and before `PATH#slug`: `acme/api#12`
    # is an issue, not the fragment `12` of the file `api`.
    if "#" in text or "/issues/" in text or "/pull/" in text or "/merge_requests/" in text:
        yield from find_issue_references(joined, free)
    # A URL's path and fragment are no file of ours (`tree/core/INSTALL.txt?h=8.3.x#n152`
    # read as the file `8.3.x`; blob URLs into the workspace were read above).
    # (anchorcheck: ignore[AC105]: examples, not citations)
    if "://" in text:
        for span in url_spans(text):
            take(span)
    # (matches, whether they are LOC#... fragments), in this order of precedence
    found: list[tuple[Iterator[re.Match[str]], bool]] = []
    found.append((see_matches(text), False))  # it looks for its lead words itself
    if _PAREN_HINT.search(text):
        found.append((_PAREN.finditer(text), False))
    if "§" in text:
        found.append((_SECTION.finditer(text), False))
    if _FRAGMENT_HINT.search(text):
        found.append((_FRAGMENT.finditer(text), True))
    verbatim = Verbatim(comment)
    # In Markdown, a snippet import shown in a code span is an example of the syntax
    # (vitepress's `<<< ./my#file.js#region`), not one.
    shown = [(a, b) for a, b in code_spans(text) if "<<<" in text[a:b]] \
        if comment.kind in ("prose", "heading") and "<<<" in text else []
    snippets = "<<<" in text
    for matches, fragment in found:
        for m in matches:
            if shown and any(a <= m.start() < b for a, b in shown):
                continue
            ref = _heading_reference(joined, m, fragment)
            if fragment and in_markdown and ref is not None and ref.kind in _FILE_CLAIMS and shown_as_code(m):
                continue  # (`PATH#L3-L9` too: a line anchor is a URL's fragment, shown as code)
            if ref is not None and ref.kind is RefKind.SLUG \
                    and _EXAMPLE_BEFORE.search(text, max(0, m.start() - 24), m.start()):
                # An example of a value's form, `(e.g., "system.md#system-memory-state")`
                # in opentelemetry-collector's metadata schema: a path of another
                # project's docs, shown, not cited.
                continue
            if ref is not None and ref.kind is RefKind.SLUG and snippets and _snippet_before(text, m.start()):
                # VitePress's `<<< ./deploy.yaml#content` imports the file's `#region
                # content`: the file is cited, the region is no heading.
                # (anchorcheck: ignore[AC105]: examples, not citations)
                ref = replace(ref, kind=RefKind.PATH, name=None)
            # `PATH#L12` and `PATH#slug` in pasted output are no citation (verbatim.py);
            # a heading cited by name is one wherever it stands.
            if ref is not None and not (fragment and ref.kind in _FILE_CLAIMS and ref.line in verbatim) \
                    and free(m):
                yield ref
    # Docstrings are full of example output ("at test_module.py:2"): their line and
    # symbol claims are not claims. A URL's path is not a file of ours either.
    if comment.kind != "docstring":
        yield from claims.find_claims(joined, free, verbatim)


# What introduces an example just before it: `e.g.`, `for example`, `such as`, and
# an opening quote or bracket.
_EXAMPLE_BEFORE = compiled_on_use(r"(?i)(?:\be\.g\.|\bfor example|\bsuch as)[,:]?[ \t]*[\"'`(\[]?[ \t]*\Z")
# A VitePress code snippet import, `<<< ./file.yaml#region`, up to its path.
_SNIPPET = compiled_on_use(r"<<<[ \t]+\Z")


def _snippet_before(text: str, start: int) -> bool:
    """Whether the line up to `start` is `<<< ` and blanks: looked for in the few
    characters before, not from the comment's start (that was quadratic in the
    number of `PATH#slug` links of one comment: 5.2 s at 200 KB)."""
    lo = max(0, start - 64)
    m = _SNIPPET.search(text, lo, start)
    if m is None:
        return False
    k = m.start()
    while k > 0 and text[k - 1] in " \t":
        k -= 1
    return k == 0 or text[k - 1] == "\n"


# What a `PATH#...` fragment claims of a file (not a heading it names).
_FILE_CLAIMS = (RefKind.LINES, RefKind.SLUG)


def _note_location(text: str, end: int) -> str | None:
    """The place after a Note's name (`in typecheck/TcRnDriver.hs`, `in GHC.Tc.Module`,
    `in MkId`); "in the typechecker" names none."""
    m = _NOTE_IN.match(text, end)
    if m is None:
        return None
    loc = m.group("loc").rstrip(".,;:'-")
    return loc if is_module(loc) or (looks_like_path(loc) and ("/" in loc or "." in loc)) else None


def _flat(text: str) -> str:
    return fold_space(_GUTTER.sub(" ", text))


def _heading_reference(joined: JoinedText, m: re.Match[str], fragment: bool) -> Reference | None:
    groups = m.groupdict()
    path = groups.get("path")
    repo = groups.get("repo")
    if path is not None:
        path = _WRAP.sub("/", path).removeprefix("./") if "\n" in path else path.removeprefix("./")
        if not looks_like_path(path):
            return None
    quoted = next((groups[k] for k in ("q1", "q2", "q3", "q4") if groups.get(k)), None)
    caps = groups.get("caps")
    line, col = joined.locate(m.start())
    text = _flat(m.group(0))
    if fragment and groups.get("l1"):
        span = claims.line_range(groups["l1"], groups.get("l2"))
        if span is None:
            return None
        return Reference.make(RefKind.LINES, line, col, text, target_repo=repo,
                              target_path=path, lines=span,
                              claim=claims.claimed_text(joined.text, m.start()))
    if fragment and groups.get("slug"):
        return Reference.make(RefKind.SLUG, line, col, text, name=groups["slug"],
                              target_repo=repo, target_path=path)
    name = quoted if quoted is not None else caps
    if name is None:
        return None
    name = _flat(name)
    if quoted is not None and (name.endswith(")") or not any(ch.isalpha() for ch in name)):
        return None  # `name()` is a symbol claim, not a heading
    if path is None and quoted is None:
        return None  # an unquoted heading needs a location to be told from prose
    if quoted is not None and path is not None and _CODE_NAME.fullmatch(name) \
            and any(ch.islower() for ch in name) and language_of(path) != "markdown":
        # "see `addReplyHumanLongDouble` in networking.c" names code: outside Markdown a
        # heading is caps words (or a Note, cited as one), never one mixed-case token.
        return None
    if quoted is not None and path is None and joined.comment.kind not in ("prose", "heading") \
            and _CODE_TOKEN.fullmatch(name) and _CODE_SHAPE.search(name):
        # In code, "See `unused-noqa`" names a rule, an option or a flag: one token
        # shaped as code, not a title (ruff: 2 AC103 matching two sections of a test
        # document). A plain word ('Installation') may still be a title.
        return None
    if quoted is not None and _FLAG.search(name):
        return None  # "see `ty check --help` output" is a command line (ruff, 2 AC101)
    if quoted is not None and path is None and _UI_ELEMENT.match(joined.text, m.end()):
        # "under the `DOWNLOAD FULL DATA` button" names a screen's control, not a
        # heading (cloudevents' data-classification extension).
        return None
    return Reference.make(RefKind.HEADING, line, col, text, name=name, target_repo=repo,
                          target_path=path)


# A word naming a control of a screen, right after a quoted name.
_UI_ELEMENT = compiled_on_use(r"[\s*_]*(?:button|tab|menu|icon|checkbox|dropdown|toggle|link)s?\b", re.I)
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


# One code-like token: an identifier, or words joined by `-` (`unused-noqa`), shaped as
# code by a `-`, `_` or `$` or a capital inside (`maxLineLength`).
_CODE_TOKEN = compiled_on_use(r"[A-Za-z_$][\w$]*(?:-[\w$]+)*")
_CODE_SHAPE = compiled_on_use(r"[-_$]|[a-z][A-Z]")
# A command-line option among the words: ` --help`, ` -v`.
_FLAG = compiled_on_use(r"(?:^|\s)--?[A-Za-z]")


# One identifier, perhaps qualified (`mod.name`, `Class::method`, `$el`).
_CODE_NAME = compiled_on_use(r"[A-Za-z_$][\w$]*(?:(?:\.|::)[A-Za-z_$][\w$]*)*")


# A Note citation shaped as a title (alone on its line, opening its block or after a
# blank line): in a repo that writes its Notes so (Clash), the definition (see
# WorkspaceIndex.titled_notes).
_TITLE = "title"


def _title_shaped(comment: Comment, line: int, written: str) -> bool:
    lines = comment.lines
    i = line - lines[0].line
    if not 0 <= i < len(lines) or lines[i].line != line:
        return False
    text = lines[i].text.strip()
    # Alone on its line (`-- Note [X]`, `Note [X]:`), or opening its paragraph as a
    # term its text defines (xmonad-contrib's `-- Note [Ignored Arguments]: Most of
    # the time, this function...`, cited as "see Note [Ignored Arguments]").
    if text.rstrip(":") != written.strip() and not text.startswith(written.strip() + ": "):
        return False
    return i == 0 or not lines[i - 1].text.strip()


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
            return Reference.make(RefKind.PATH, line, col, _flat(m.group(0)), target_path="", relative=True)
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
    text = _flat(written)
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
    if _CODE_NAME.fullmatch(said) and (_CODE_SHAPE.search(said) or "." in said or "::" in said
                                       or said[:1].isupper()):
        return said
    return None
