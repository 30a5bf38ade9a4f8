"""What a definition looks like, for AC203 (history.py): names_defined_in, the one
definition of "defined", and the patterns by which git picks the lines it matches on
(PCRE, or POSIX where git lacks it); and defined_names, every name defined at a
commit, for an index file. Its own room: the log's events (definition_events.py) and
the search for today's definitions (defined_among.py) both start from these shapes."""

from __future__ import annotations

import re

from anchorcheck.extract.languages import READ_PATHSPECS
from anchorcheck.git.repo import GitRepo
from anchorcheck.index.cache import BlobCache
from anchorcheck.patterns import compiled_on_use

KEYWORDS = r"(def|class|func|fn|function|struct|enum|trait|interface|type|data|newtype|macro|module)"
KEYWORD_LIST = tuple(KEYWORDS[1:-1].split("|"))
_IDENT = compiled_on_use(r"[A-Za-z_$][A-Za-z0-9_$]*")


def _defined_key(commit: str) -> str:
    return f"defined-names:v6:{commit}"  # v5: Go methods; v6: indented C functions


def defined_names(git: GitRepo, commit: str, cache: BlobCache | None = None) -> frozenset[str]:
    """Every name something defines at `commit` (names_defined_in over every line git
    finds of that shape), for an index file: the job that combines index files has no
    git to ask about its candidates. Cached by commit."""
    key = _defined_key(commit)
    stored = cache.get_result(key) if cache is not None else None
    if isinstance(stored, list) and all(isinstance(n, str) for n in stored):
        return frozenset(stored)
    found = frozenset(names_defined_in(git.grep_parts(_DEFINITION_PERL, _DEFINITION_POSIX, commit,
                                                      READ_PATHSPECS)))
    if cache is not None:
        cache.put_result(key, sorted(found))
    return found


def names_defined_in(lines: str) -> set[str]:
    """Every name the lines define, generously: any name after a definition keyword,
    any top-level assignment or signature, every name of an import line; so that only
    names truly gone count as removed. The one definition of "defined": git only picks
    the lines (by a pattern matching at least these), this matches on them."""
    return {name for m in _DEFINITION.finditer(lines) for name in _IDENT.findall(m.group())}


# What names_defined_in matches, on each line by itself (`[^\S\n]`: space but not a
# line break) and in ASCII, as git's PCRE reads it.
# The fourth alternative is a Go method (`func (c *Client) StandardClient()`: go-
# retryablehttp's was reported removed, as a struct of that name was), tried before the
# fifth, a C-style function at the start of a line, its types before it (`void
# hashTypeSetExDone(HashTypeSetEx *ex) {`, a prototype, `gnu_style (x)`): no keyword says
# so, and redis's hashTypeSetExDone, defined so, was reported removed; the sixth the same
# indented, its types then required (miniz's API in `extern "C" {`, indented by
# clang-format; a call, `    helper(x);`, has none). The last is a C macro (`#define
# RMATCH(ra, rb)`: libgit2's pcre2 was reported removed).
_DEFINITION = compiled_on_use(
    rf"\b(?:{KEYWORDS[1:-1]}|const|let|var)[^\S\n]+[A-Za-z_$][\w$]*"
    r"|^[A-Za-z_][A-Za-z0-9_]*[^\S\n]*(?:=(?!=)|::)"
    r"|^[^\S\n]*(?:from[^\S\n]+[\w.]+[^\S\n]+)?import[^\S\n]+[\w., ]+"
    r"|^func[^\S\n]*\([^)\n]*\)[^\S\n]*[A-Za-z_]\w*"
    r"|^(?:[A-Za-z_][\w \t*&:<>,]*?[ \t*&])?[A-Za-z_]\w*(?=[^\S\n]*\()"
    r"|^[ \t]+(?!(?:return|else|case|goto|typedef|do|await|yield|new|throw)\b)"
    r"[A-Za-z_][\w \t*&:<>,]*?[ \t*&][A-Za-z_]\w*(?=[^\S\n]*\()"
    r"|^[^\S\n]*#[^\S\n]*define[^\S\n]+[A-Za-z_]\w*",
    re.MULTILINE | re.ASCII,
)
# The lines git picks for it: every line it matches, with PCRE, or where git lacks it
# with any of the POSIX patterns (which match more lines: no word boundaries).
_DEFINITION_PERL = (
    rf"\b(?:{KEYWORDS[1:-1]}|const|let|var)\s+[A-Za-z_$][\w$]*"
    r"|^[A-Za-z_][A-Za-z0-9_]*\s*(?:=(?!=)|::)"
    r"|^\s*(?:from\s+[\w.]+\s+)?import\s+[\w., ]+"
    r"|^func\s*\([^)\n]*\)\s*[A-Za-z_]\w*"
    r"|^(?:[A-Za-z_][\w \t*&:<>,]*?[ \t*&])?[A-Za-z_]\w*(?=\s*\()"
    r"|^[ \t]+(?!(?:return|else|case|goto|typedef|do|await|yield|new|throw)\b)"
    r"[A-Za-z_][\w \t*&:<>,]*?[ \t*&][A-Za-z_]\w*(?=\s*\()"
    r"|^\s*#\s*define\s+[A-Za-z_]\w*"
)
_DEFINITION_POSIX = (
    rf"{KEYWORDS}[[:space:]]+[A-Za-z_$][A-Za-z0-9_$]*",
    r"(const|let|var)[[:space:]]+[A-Za-z_$][A-Za-z0-9_$]*",
    r"^[A-Za-z_][A-Za-z0-9_]*[[:space:]]*(::|=)",
    r"^[[:space:]]*(from[[:space:]]+[A-Za-z0-9_.]+[[:space:]]+)?import[[:space:]]+[A-Za-z0-9_., ]+",
    r"^([A-Za-z_][A-Za-z0-9_*&:<>,[:blank:]]*[*&[:blank:]])?[A-Za-z_][A-Za-z0-9_]*[[:space:]]*\(",
    r"^[[:blank:]]+[A-Za-z_][A-Za-z0-9_*&:<>,[:blank:]]*[*&[:blank:]][A-Za-z_][A-Za-z0-9_]*[[:space:]]*\(",
    r"^[[:space:]]*#[[:space:]]*define[[:space:]]+[A-Za-z_][A-Za-z0-9_]*",
    r"^func[[:space:]]*\([^)]*\)[[:space:]]*[A-Za-z_][A-Za-z0-9_]*",
)
