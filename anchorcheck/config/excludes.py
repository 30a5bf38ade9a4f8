"""Paths the crawl does not read: vendored code and whatever the workspace excludes.

A repo's `vendor/` (Go modules, Composer, Bundler) or a committed `node_modules/`
holds other projects' comments: their findings are not the repo's to fix, and in a Go
service they can be most of the tree (grafana/loki: 13,723 of its 17,846 files and 204
of its 273 findings; its check took 5.4 s with them, 1.1 s without). Excluded files stay
in the tree's listing, so a citation of one still finds its file; they are only not
read, so nothing they define is an anchor (a finding that looked in one says so) and
nothing they cite is checked.

Patterns are a subset of gitignore's, matched against paths from the repo's root:
`*` and `?` within one path part, `**` across parts; a pattern with a `/` before its
end is anchored at the root, one without matches a part at any depth; a trailing `/`
matches directories only. A pattern that matches a directory excludes everything
under it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from anchorcheck.errors import ConfigError

# `testdata/` is Go's convention for test inputs (the go tool ignores it), and other
# projects keep fixtures there too: haskell-language-server's Notes plugin tests cite
# Notes that must not exist, helm's chart fixtures copy old charts' READMEs.
DEFAULT_EXCLUDE: tuple[str, ...] = ("vendor/", "node_modules/", "testdata/")


def check_patterns(patterns: Sequence[object], where: str) -> tuple[str, ...]:
    """The patterns, or a ConfigError naming the first one that is not a pattern."""
    out = []
    for pattern in patterns:
        if not isinstance(pattern, str) or not pattern.strip("/") or "\0" in pattern:
            raise ConfigError(f"{where}: {pattern!r} is not a path pattern")
        if any(part in (".", "..") for part in pattern.strip("/").split("/")):
            raise ConfigError(f"{where}: {pattern!r}: patterns are paths from the repo's root, "
                              "without '.' or '..'")
        out.append(pattern)
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Excluder:
    """Whether a path is excluded by a set of patterns, each a rule (IgnoreRule) that
    tries its literal part before its regex: over GHC's 25k paths, none excluded, one
    regex for them all took 10 ms, the literals first 2.5-4 ms."""

    rules: tuple[IgnoreRule, ...]
    # Each rule's (literal, regex), compiled up front: search runs on every path of
    # every tree (an IgnoreRule compiles when first matched, which costs a call each).
    checks: tuple[tuple[str, re.Pattern[str]], ...]

    def search(self, path: str) -> bool:
        for literal, regex in self.checks:  # (a plain loop: any() over a generator took twice as long)
            if (not literal or literal in path) and regex.fullmatch(path):
                return True
        return False

    def first(self, path: str) -> str | None:
        """The first pattern that excludes `path`, or None."""
        return next((rule.pattern for rule in self.rules if rule.matches(path)), None)


def excluder(patterns: tuple[str, ...]) -> Excluder | None:
    """The Excluder of the patterns (None for none), made once per set of patterns."""
    return _compiled(tuple(sorted(set(patterns))))


@functools.lru_cache(maxsize=32)
def _compiled(patterns: tuple[str, ...]) -> Excluder | None:
    if not patterns:
        return None
    rules = tuple(IgnoreRule.of(p) for p in patterns)
    return Excluder(rules, tuple((rule.literal, _rule_regex(rule.pattern)) for rule in rules))


def _literal(pattern: str) -> str:
    """The longest part of the pattern every path it excludes holds as it is."""
    # (Without the slashes at its ends: `**/gen/` excludes `gen/x`, with no `/gen/` in it.)
    return max((run.strip("/") for run in re.split(r"[*?]+", pattern)), key=len)


def _translate(pattern: str) -> str:
    dir_only = pattern.endswith("/")
    body = pattern.strip("/")
    anchored = pattern.startswith("/") or "/" in body
    out = []
    i = 0
    while i < len(body):
        if body.startswith("**/", i):
            out.append("(?:[^/]*/)*")  # zero or more whole parts
            i += 3
        elif body.startswith("**", i):
            out.append(".*")
            i += 2
        elif body[i] == "*":
            out.append("[^/]*")
            i += 1
        elif body[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(body[i]))
            i += 1
    lead = "" if anchored else "(?:[^/]*/)*"
    # A directory's pattern matches what lies under it; a file's, itself too.
    tail = "/.*" if dir_only else "(?:/.*)?"
    return lead + "".join(out) + tail


def excluded_by(patterns: tuple[str, ...], path: str) -> str | None:
    """The first of the patterns (in sorted order) that excludes `path`, or None."""
    found = excluder(patterns)
    return None if found is None else found.first(path)


@dataclass(frozen=True, slots=True)
class IgnoreRule:
    """One line of a `.gitignore`: its pattern, whether it takes paths back (`!`),
    its literal part (every path it matches holds it) and whether it names a place
    (anchored: `/rules/`)."""

    pattern: str
    negated: bool = False
    literal: str = ""
    anchored: bool = False

    @classmethod
    def of(cls, pattern: str, negated: bool = False) -> IgnoreRule:
        return cls(pattern, negated, _literal(pattern), "/" in pattern.rstrip("/"))

    def matches(self, path: str) -> bool:
        """Whether the rule matches `path`. The literal is tried first, and the regex
        compiled (cached) only then: GHC's .gitignore files hold 2,370 rules, and
        compiling them all took ~90 ms of a check that resolved one missing path."""
        if self.literal and self.literal not in path:
            return False
        return _rule_regex(self.pattern).fullmatch(path) is not None

    def matches_place(self, path: str) -> bool:
        """Whether the rule matches `path`, or `path` as a directory (a link may name one)."""
        return self.matches(path) or self.matches(path + "/")


@functools.lru_cache(maxsize=4096)
def _rule_regex(pattern: str) -> re.Pattern[str]:
    return re.compile(_translate(pattern), re.DOTALL)


@functools.lru_cache(maxsize=256)
def _lowered(ignore: IgnoreFile) -> IgnoreFile:
    return IgnoreFile(ignore.directory.lower(),
                      tuple(IgnoreRule.of(r.pattern.lower(), r.negated) for r in ignore.rules))


@dataclass(frozen=True, slots=True)
class IgnoreFile:
    """One `.gitignore` of a tree: its directory and its rules, in order."""

    directory: str  # "" at the root
    rules: tuple[IgnoreRule, ...]

    @classmethod
    def parse(cls, directory: str, text: str) -> IgnoreFile:
        rules = []
        for raw in text.splitlines():
            line = raw.rstrip()
            if not line or line.startswith("#"):
                continue
            negated = line.startswith("!")
            pattern = line[1:] if negated else line
            pattern = pattern.removeprefix("\\")  # `\#file`, `\!file`: literal
            if not pattern.strip("/"):
                continue
            rules.append(IgnoreRule.of(pattern, negated))
        return cls(directory, tuple(rules))

    def lowered(self) -> IgnoreFile:
        """This file with its directory and patterns in lower case: what it ignores
        among a site's lower-cased URLs (Hugo's)."""
        return _lowered(self)

    def verdict(self, path: str) -> bool | None:
        """Whether this file ignores `path` (its last matching rule says), or None
        when no rule matches or the path lies outside its directory."""
        if self.directory:
            if not path.startswith(self.directory + "/"):
                return None
            path = path[len(self.directory) + 1:]
        found = None
        for rule in self.rules:
            if rule.matches_place(path):
                found = not rule.negated
        return found

    def names(self, suffix: str) -> bool:
        """Whether this file ignores `suffix` placed under its directory by a rule that
        names a place there (anchored: `/rules/` for `rules/x.md`) and whose literal
        part the suffix holds, no later rule taking it back. A rule for any depth
        (`pkg`, `*.yaml`, in a vendored library's .gitignore) would take any path for
        a build's output."""
        found = False
        for rule in self.rules:
            if (rule.negated or (rule.anchored and rule.literal)) and rule.matches_place(suffix):
                found = not rule.negated
        return found


def git_ignores(files: list[IgnoreFile], path: str) -> bool:
    """Whether git would ignore `path` by these `.gitignore` files: the deepest that
    has a matching rule decides, as in git (which also reads `.git/info/exclude` and
    the user's global file; a tree does not hold those)."""
    ignored = False
    for ignore in sorted(files, key=lambda f: f.directory.count("/") + bool(f.directory)):
        verdict = ignore.verdict(path)
        if verdict is not None:
            ignored = verdict
    return ignored
