"""Finding references in comment blocks: find_references, which runs every form over a
comment, and the forms that name what they cite in words (a heading, `see "Title" in
PATH`, `PATH#slug`, `PATH § TITLE`; a Note, `Note [Name]`). Links are read by links.py.

A comment block's lines are joined with newlines (leaders already removed) and the
patterns below run over the joined text, so a reference may wrap across lines of one
block. Every pattern starts with a literal or a narrow class and has no nested
unbounded repetition, so matching is linear in the block's length.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import replace

from anchorcheck.extract import claims, triggers
from anchorcheck.extract.headings import note_definition_spans
from anchorcheck.extract.issues import SENTENCE_END, find_issue_references
from anchorcheck.extract.languages import language_of
from anchorcheck.extract.links import (
    CODE_NAME,
    CODE_SHAPE,
    GUTTER,
    code_spans,
    find_blob_urls,
    find_html_links,
    find_link_definitions,
    find_markdown_links,
    flat,
    url_spans,
)
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
        yield from _note_references(comment, joined, note_definitions, take, free)
    if "github.com/" in text or "githubusercontent.com/" in text or "/-/blob/" in text or "/-/tree/" in text:
        yield from find_blob_urls(comment, joined, take, free)
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
        yield from find_markdown_links(joined, in_markdown, shown_as_code, take, free)
    if in_markdown and ("href" in text or "src" in text):
        yield from find_html_links(joined, shown_as_code, take, free)
    if in_markdown and "]:" in text:
        yield from find_link_definitions(joined, free)
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
    verbatim = Verbatim(comment)
    yield from _heading_references(comment, joined, verbatim, in_markdown, shown_as_code, free)
    # Docstrings are full of example output ("at test_module.py:2"): their line and
    # symbol claims are not claims. A URL's path is not a file of ours either.
    if comment.kind != "docstring":
        yield from claims.find_claims(joined, free, verbatim)


def _note_references(
    comment: Comment, joined: JoinedText, note_definitions: set[tuple[int, int]] | None,
    take: Callable[[tuple[int, int]], None], free: Callable[[re.Match[str]], bool],
) -> Iterator[Reference]:
    """The Notes a comment cites, `Note [Name]` (find_references' `take` and `free`):
    a Note definition (at one of `note_definitions`, else found here) cites nothing."""
    text = joined.text
    definitions = note_definitions if note_definitions is not None else note_definition_spans(comment)
    for m in _NOTE.finditer(text):
        line, col = joined.locate(m.start())
        if (line, col) in definitions:
            take(m.span())
            continue
        name = fold_space(GUTTER.sub(" ", m.group("name")))
        # `Note [ ]` names nothing (no reference; the file's others are still read)
        if name and free(m):
            yield Reference.make(RefKind.NOTE, line, col, flat(m.group(0)), name=name,
                                 target_path=_note_location(text, m.end()),
                                 claim=_TITLE if _title_shaped(comment, line, m.group(0)) else None)


def _heading_references(
    comment: Comment, joined: JoinedText, verbatim: Verbatim, in_markdown: bool,
    shown_as_code: Callable[[re.Match[str]], bool], free: Callable[[re.Match[str]], bool],
) -> Iterator[Reference]:
    """The headings a comment cites by name or slug, and the lines of files it cites
    by fragment: `see "Title" in PATH`, `TITLE (in PATH)`, `PATH § TITLE`, `PATH#slug`,
    `PATH#L3-L9` (find_references' `free`, and its `shown_as_code`)."""
    text = joined.text
    # (matches, whether they are LOC#... fragments), in this order of precedence
    found: list[tuple[Iterator[re.Match[str]], bool]] = []
    found.append((see_matches(text), False))  # it looks for its lead words itself
    if _PAREN_HINT.search(text):
        found.append((_PAREN.finditer(text), False))
    if "§" in text:
        found.append((_SECTION.finditer(text), False))
    if _FRAGMENT_HINT.search(text):
        found.append((_FRAGMENT.finditer(text), True))
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
            if ref is not None and ref.kind is RefKind.SLUG and text.startswith("(", m.end()) \
                    and not (ref.target_path or "").lower().endswith(_PAGE_SUFFIXES):
                # git's `wt-status.c#wt_status_collect_untracked()`: a source file's
                # function, written as FILE#function, is a symbol the file defines
                # (AC202 checks it), not a heading's fragment.
                # (anchorcheck: ignore[AC105]: an example, not a citation)
                ref = replace(ref, kind=RefKind.SYMBOL)
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


# Files read as pages, whose `#name` is a fragment even before a `(`.
_PAGE_SUFFIXES = (".md", ".markdown", ".mdx", ".rst", ".adoc", ".asciidoc", ".html", ".htm", ".txt", ".org")


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
    text = flat(m.group(0))
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
    name = flat(name)
    if quoted is not None and (name.endswith(")") or not any(ch.isalpha() for ch in name)):
        return None  # `name()` is a symbol claim, not a heading
    if path is None and quoted is None:
        return None  # an unquoted heading needs a location to be told from prose
    if quoted is not None and path is not None and CODE_NAME.fullmatch(name) \
            and any(ch.islower() for ch in name) and language_of(path) != "markdown":
        # "see `addReplyHumanLongDouble` in networking.c" names code: outside Markdown a
        # heading is caps words (or a Note, cited as one), never one mixed-case token.
        return None
    if quoted is not None and path is None and joined.comment.kind not in ("prose", "heading") \
            and _CODE_TOKEN.fullmatch(name) and CODE_SHAPE.search(name):
        # In code, "See `unused-noqa`" names a rule, an option or a flag: one token
        # shaped as code, not a title (ruff: 2 AC103 matching two sections of a test
        # document). A plain word ('Installation') may still be a title.
        return None
    if quoted is not None and _FLAG.search(name):
        return None  # "see `ty check --help` output" is a command line (ruff, 2 AC101)
    if quoted is not None and path is None and "://" in joined.text and _after_a_url(joined.text, m.start()):
        # "See: https://github.com/systemd/systemd/blob/main/NEWS / Under the "CHANGES
        # WITH 226" section" (ansible) names a section of that page, not a heading of
        # the workspace.
        return None
    if quoted is not None and path is None and _UI_ELEMENT.match(joined.text, m.end()):
        # "under the `DOWNLOAD FULL DATA` button" names a screen's control, not a
        # heading (cloudevents' data-classification extension).
        return None
    return Reference.make(RefKind.HEADING, line, col, text, name=name, target_repo=repo,
                          target_path=path)


def _after_a_url(text: str, start: int) -> bool:
    """Whether a URL stands before `start`, on its line or the line before, in its
    sentence (helm/charts' "[exporter](https://...) sidecar. See `values.yaml` file"
    names a file of the chart)."""
    line_start = text.rfind("\n", 0, start)
    before = text.rfind("\n", 0, line_start) if line_start > 0 else -1
    url = text.rfind("://", before + 1, start)
    return url >= 0 and SENTENCE_END.search(text, url, start) is None


# A word naming a control of a screen, right after a quoted name.
_UI_ELEMENT = compiled_on_use(r"[\s*_]*(?:button|tab|menu|icon|checkbox|dropdown|toggle|link)s?\b", re.I)
# One code-like token: an identifier, or words joined by `-` (`unused-noqa`), shaped as
# code by a `-`, `_` or `$` or a capital inside (`maxLineLength`: CODE_SHAPE).
_CODE_TOKEN = compiled_on_use(r"[A-Za-z_$][\w$]*(?:-[\w$]+)*")
# A command-line option among the words: ` --help`, ` -v`.
_FLAG = compiled_on_use(r"(?:^|\s)--?[A-Za-z]")


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
