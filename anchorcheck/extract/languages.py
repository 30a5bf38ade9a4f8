"""Which comment syntax a file uses, and whether it is a test's, decided from its name
alone (no content sniffing)."""

from __future__ import annotations

import re
from collections.abc import Iterable

# Family names are the keys of families._SOURCES, plus "markdown".
_BY_EXTENSION: dict[str, str] = {
    ".py": "python", ".pyi": "python", ".pyx": "python",
    ".yaml": "yaml", ".yml": "yaml", ".tpl": "yaml",
    ".sh": "shell", ".bash": "shell", ".zsh": "shell", ".ksh": "shell",
    ".toml": "toml",
    ".ini": "ini", ".cfg": "ini", ".conf": "ini", ".properties": "ini",
    ".go": "c", ".c": "c", ".h": "c", ".cc": "c", ".cpp": "c", ".cxx": "c", ".hpp": "c",
    ".hh": "c", ".hxx": "c", ".java": "c", ".kt": "c", ".kts": "c", ".scala": "c",
    ".swift": "c", ".cs": "c", ".js": "js", ".jsx": "js", ".mjs": "js", ".cjs": "js",
    ".ts": "js", ".tsx": "js", ".mts": "js", ".cts": "js", ".rs": "rust",
    ".proto": "c", ".css": "css", ".scss": "c", ".less": "c", ".tf": "hcl", ".hcl": "hcl",
    ".hs": "haskell", ".lhs": "haskell", ".hsc": "haskell", ".hs-boot": "haskell",
    ".cmm": "c", ".x": "haskell", ".y": "haskell",
    ".sql": "sql", ".lua": "sql",
    ".html": "html", ".htm": "html", ".xml": "html", ".svg": "html", ".xsl": "html",
    ".vue": "html",
    ".mk": "make",
    # Autoconf and m4 (`dnl` and `#` comments), and GHC's testsuite drivers (`all.T`,
    # Python): GHC defines and cites Notes in both.
    ".m4": "m4", ".ac": "m4", ".T": "python",
    ".rb": "hash", ".pl": "hash", ".pm": "hash", ".r": "hash", ".R": "hash",
    ".cmake": "hash", ".nix": "hash", ".ps1": "hash",
    ".md": "markdown", ".markdown": "markdown",
}

_BY_NAME: dict[str, str] = {
    "Dockerfile": "dockerfile", "Containerfile": "dockerfile",
    "Makefile": "make", "GNUmakefile": "make", "makefile": "make",
    "CMakeLists.txt": "hash", "Jenkinsfile": "c", "Vagrantfile": "hash",
    "Gemfile": "hash", "Rakefile": "hash", "BUILD": "python", "WORKSPACE": "python",
    ".gitignore": "ini", ".dockerignore": "ini", ".editorconfig": "ini",
    ".bashrc": "shell", ".profile": "shell",
}


# Every file kind (comment family) anchorcheck reads: what `--kind` and `kinds` name.
KINDS: frozenset[str] = frozenset(_BY_EXTENSION.values()) | frozenset(_BY_NAME.values())


def language_of(path: str) -> str | None:
    """The comment family of `path`, or None when anchorcheck does not read such files.
    (Asked for every file of every tree: string slicing, not posixpath's functions.)"""
    name = path[path.rfind("/") + 1:]
    found = _BY_NAME.get(name)
    if found is not None:
        return found
    if name.startswith("Dockerfile.") or name.endswith(".dockerfile"):
        return "dockerfile"
    dot = name.rfind(".")
    if dot <= 0 or (name[0] == "." and not name[:dot].lstrip(".")):
        return None  # no extension (as posixpath.splitext: leading dots start none)
    ext = name[dot:]
    found = _BY_EXTENSION.get(ext)
    return found if found is not None else _BY_EXTENSION.get(ext.lower())


# git pathspecs of the files anchorcheck reads (by extension or name, in any directory),
# for git searches that should skip the rest: test outputs, docs, data.
READ_PATHSPECS: tuple[str, ...] = (
    *(f"*{ext}" for ext in _BY_EXTENSION),
    *(spec for name in _BY_NAME for spec in (name, f"*/{name}")),
    "*/Dockerfile.*", "Dockerfile.*", "*.dockerfile",
)


def kind_pathspecs(kinds: Iterable[str]) -> tuple[str, ...]:
    """git pathspecs of the files of these kinds (an extension in any case, as
    language_of reads it: `:(icase)`), a superset: the caller asks language_of."""
    wanted = set(kinds)
    return (
        *(f":(icase)*{ext}" for ext, kind in _BY_EXTENSION.items() if kind in wanted),
        *(spec for name, kind in _BY_NAME.items() if kind in wanted for spec in (name, f"*/{name}")),
        *(("*/Dockerfile.*", "Dockerfile.*", "*.dockerfile") if "dockerfile" in wanted else ()),
    )


# Folders whose files are tests and their inputs (a Markdown parser's fixtures, a site
# generator's test site, a test's helpers), not pages a reader follows or an API.
TEST_DIRS = frozenset({"test", "tests", "__tests__", "fixtures", "__fixtures__", "test_data", "test-data",
                       "testsuite", "test-fixtures"})
# Test files by their own names: pytest's `test_x.py`/`x_test.py`, Go's `x_test.go`,
# Jest's and Vitest's `x.test.ts`/`x.spec.js`, Hspec's `XSpec.hs`, JUnit's `XTest.java`.
_TEST_NAME = re.compile(r"test_[^/]*\.py|[^/]*_test\.(?:py|go|rs|c|cc|cpp)|[^/]*\.(?:test|spec)\.[cm]?[jt]sx?"
                        r"|[^/]*(?:Spec|Test|Tests)\.(?:hs|java|kt|scala|cs)")


def in_tests(path: str) -> bool:
    """Whether a file is a test's: under a test folder, or named as one."""
    parts = path.lower().split("/")
    return not TEST_DIRS.isdisjoint(parts[:-1]) or _TEST_NAME.fullmatch(path.rpartition("/")[2]) is not None
