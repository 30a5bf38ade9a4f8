"""Anchors: named headings that comments elsewhere can cite."""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass
from enum import StrEnum

from anchorcheck.model.pickling import by_constructor
from anchorcheck.patterns import compiled_on_use


class AnchorKind(StrEnum):
    CAPS = "caps-heading"
    NOTE = "note"
    MARKDOWN = "markdown-heading"
    HADDOCK = "haddock-anchor"  # `-- #name#` in Haskell, cited as `[text](#name)`
    TITLE = "comment-title"  # a comment line a citation names with its file (lone_heading)


@by_constructor
@dataclass(frozen=True, slots=True)
class Anchor:
    """A citable heading. `name` is the key as written (whitespace folded);
    `slug` is its GitHub-style fragment, so `PATH#slug` can cite it too.
    `repo` and `path` are empty while the anchor belongs to a blob, not yet a file."""

    name: str
    kind: AnchorKind
    line: int
    col: int
    slug: str
    repo: str = ""
    path: str = ""

    @classmethod
    def make(cls, name: str, kind: AnchorKind, line: int, col: int, slug: str = "") -> Anchor:
        key = fold_space(name)
        if not key:
            raise ValueError("an anchor needs a name")
        if line < 1 or col < 0:
            raise ValueError(f"bad anchor position {line}:{col}")
        return cls(key, kind, line, col, slug or github_slug(key))

    @property
    def scope_key(self) -> tuple[str, ...]:
        """Where a second definition of the same name is a duplicate: notes are cited
        without a location, so they must be unique in the workspace; headings are cited
        with their file, so they must be unique in their file."""
        if self.kind is AnchorKind.NOTE:
            return (self.kind.value, self.name)
        return (self.kind.value, self.repo, self.path, self.name)

    @property
    def display(self) -> str:
        return f"Note [{self.name}]" if self.kind is AnchorKind.NOTE else self.name


_SPACE = compiled_on_use(r"\s+")
_SLUG_DROP = compiled_on_use(r"[^\w\- ]", re.UNICODE)


def fold_space(text: str) -> str:
    return _SPACE.sub(" ", text).strip()


_IMAGE = compiled_on_use(r"!\[[^\]\n]*\]\([^)\n]*\)")
_LINK_TARGET = compiled_on_use(r"\]\([^)\n]*\)")
_TAG = compiled_on_use(r"</?[A-Za-z][^<>\n]*>")
_MARKUP = compiled_on_use(r"\\([!-/:-@\[-`{-~])|[*`\[\]]|(?<!\w)_+|_+(?!\w)")


def rendered_text(source: str) -> str:
    """A Markdown heading's rendered text without an inline parser: link targets, tags
    and emphasis, code and escape characters dropped (a word's inner `_` kept). For
    Markdown files past their parsed headings (markdown.py) and Rust doc comments."""
    text = _TAG.sub("", _LINK_TARGET.sub("", _IMAGE.sub("", source)))
    return _MARKUP.sub(lambda m: m.group(1) or "", text)


def github_slug(text: str) -> str:
    """GitHub's heading fragment: lower case, punctuation dropped, spaces to dashes.
    Combining marks stay, as github-slugger keeps them: Hindi's `अन्य` keeps its
    virama (a regex word class drops it)."""
    text = unicodedata.normalize("NFC", text).strip().lower()
    if text.isascii():
        return _SLUG_DROP.sub("", text).replace(" ", "-")
    return "".join(ch for ch in text if slug_char(ch)).replace(" ", "-")


def slug_char(ch: str) -> bool:
    """Whether GitHub keeps this character in a heading's slug."""
    return ch.isalnum() or ch in "-_ " or unicodedata.category(ch)[0] == "M"


_TOC_DROP = compiled_on_use(r"[^\w\s-]")
_TOC_RUN = compiled_on_use(r"[-\s]+")


@functools.lru_cache(maxsize=4096)
def toc_slug(text: str) -> str:
    """Python-Markdown's heading id (its `toc` extension, so MkDocs'): as GitHub's, but
    runs of dashes and spaces are one dash and other scripts are dropped to ASCII:
    `users & usersFile` is `users-usersfile` there, `users--usersfile` on GitHub
    (traefik's MkDocs site links the first)."""
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return _TOC_RUN.sub("-", _TOC_DROP.sub("", text).strip().lower())


_PANDOC_DROP = compiled_on_use(r"[^\w\s.-]")
_SPACES = compiled_on_use(r"\s+")


@functools.lru_cache(maxsize=4096)
def pandoc_slug(text: str) -> str:
    """pandoc's heading id (its `auto_identifiers`): as GitHub's, but periods are kept
    and everything before the first letter is dropped, so `Module pandoc.text` is
    `module-pandoc.text` (pandoc.org's lua-filters page links it so) and
    `module-pandoctext` on GitHub."""
    text = _SPACES.sub("-", _PANDOC_DROP.sub("", unicodedata.normalize("NFC", text).strip().lower()))
    first = next((i for i, ch in enumerate(text) if ch.isalpha()), len(text))
    return text[first:] or "section"


@functools.lru_cache(maxsize=4096)
def blackfriday_slug(text: str) -> str:
    """Hugo's heading id with `autoHeadingIDType = "blackfriday"`: letters and digits,
    lower-cased, each run of anything else one dash, none at either end, so
    `get_metrics` is `get-metrics` and `What's new 🗞️` is `what-s-new` (falco.org's
    links; GitHub's are `get_metrics` and `whats-new-`)."""
    out: list[str] = []
    dash = False
    for ch in text:
        if ch.isalpha() or unicodedata.category(ch)[0] == "N":
            if dash and out:
                out.append("-")
            dash = False
            out.append(ch.lower())
        else:
            dash = True
    return "".join(out)


@functools.lru_cache(maxsize=4096)
def github_ascii_slug(text: str) -> str:
    """Hugo's heading id with `autoHeadingIDType = "github-ascii"`: GitHub's, with
    accents and other non-ASCII letters dropped to ASCII (`Café` is `cafe`)."""
    return github_slug(unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii"))


_VITEPRESS_SPECIAL = compiled_on_use(r"[\s~`!@#$%^&*()\-_+=\[\]{}|\\;:\"'“”‘’<>,.?/]+")
_COMBINING = compiled_on_use(r"[\u0300-\u036f]")
_CONTROL = compiled_on_use(r"[\u0000-\u001f]")


@functools.lru_cache(maxsize=4096)
def vitepress_slug(text: str) -> str:
    """VitePress's heading id (@mdit-vue's slugify): every run of punctuation and
    spaces is one dash, so `build.target` is `build-target` there and `buildtarget`
    on GitHub (vite's docs link the first 100 times); accents dropped, a leading digit
    given an `_`."""
    text = _CONTROL.sub("", _COMBINING.sub("", unicodedata.normalize("NFKD", text)))
    slug = _VITEPRESS_SPECIAL.sub("-", text).strip("-")
    if slug[:1].isdigit():
        slug = "_" + slug
    return slug.lower()
