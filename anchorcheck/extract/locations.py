"""How a location is written in a comment: `[REPO:]PATH`, and what counts as a file.

The pattern pieces start at a run start (a lookbehind that refuses to begin inside
a run of path characters), so each run is tried once and matching stays linear:
without it, "a/" * 50_000 is tried from every position, which is quadratic.
"""

from __future__ import annotations

import re

from anchorcheck.extract.languages import language_of
from anchorcheck.patterns import compiled_on_use

# A backslash starts no run either: `C:\\foo\\bar.py:12` is a Windows path, not bar.py.
RUN_START = r"(?<![A-Za-z0-9_.~/+@:\\-])"
REPO = r"(?P<repo>[A-Za-z0-9_][A-Za-z0-9_.-]{0,100}):(?=[A-Za-z_.~])"
PATH = r"(?P<path>(?:\./)?[A-Za-z0-9_.~+-][A-Za-z0-9_.~/+@-]{0,300}[A-Za-z0-9_+-])"

_HOST = compiled_on_use(
    r"(?:www\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|org|net|io|dev|edu|gov|info|co|uk|de|fr|jp"
    r"|ai|app|cloud|sh|me|us|eu|ly|gl|gg|rs|ch|nl|ru|cn|in|au|ca)/",
    re.IGNORECASE,
)
_EXTENSION = compiled_on_use(r"\.[A-Za-z0-9]{1,10}$")
_PLAIN_EXTENSIONS = frozenset(
    {".txt", ".json", ".rst", ".lock", ".csv", ".j2", ".tmpl", ".gotmpl", ".env", ".in"}
)


def looks_like_path(path: str) -> bool:
    """A location must look like a file: a directory part, or an extension of a file
    kind we know. `networkx.algorithms` (a module), `1.9.59` (a version) and
    `w3.org/TR/x.html` (a URL without its scheme) are not."""
    if "://" in path or _HOST.match(path):
        return False
    if "/" in path.strip("/"):
        return True
    ext = _EXTENSION.search(path)
    return ext is not None and (
        language_of(path) is not None or ext.group(0).lower() in _PLAIN_EXTENSIONS
    )


# A copy of another project's code: vendored, bundled, or one version's copy
# (`vendor/`, `third_party/`, `_vendor/`, `ghc-9.2/`, Clash's `src-bin-9.10.1/`).
_COPY = compiled_on_use(r"(?:^|/)(?:vendor|vendored|_vendor|third[_-]?party|3rdparty|external|extern|deps|"
                        r"subprojects|bundled|[\w.-]*?-?v?\d+(?:\.\d+)+)/")
# What a generated file says of itself near its top: Go's `// Code generated ... DO NOT
# EDIT.`, `@generated`, happy's `-- parser produced by Happy Version 2.1.6` (line 34).
_GENERATED = compiled_on_use(
    r"(?i)\bcode generated\b.*\bdo not edit\b|@generated\b|\bauto-?generated\b|\bautomatically generated\b"
    r"|\b(?:this|the) (?:file|code) (?:is|was) generated\b"
    r"|\b(?:parser|lexer|file|code) (?:produced|generated) by\b")


def generated_text(text: str) -> bool:
    """Whether a file's text says near its top that a tool wrote it (its first 4 KB)."""
    return _GENERATED.search(text, 0, 4096) is not None


def copied_path(path: str) -> bool:
    """Whether a path lies in a copy of code from elsewhere (whose citations point at
    its upstream, and whose definitions repeat it)."""
    return _COPY.search(path) is not None
