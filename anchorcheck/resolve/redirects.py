"""Redirects a site's host serves: Netlify's `netlify.toml` `[[redirects]]` and
`_redirects` file (Cloudflare Pages reads the same file; a Hugo site may write it from
a template), Vercel's `vercel.json`
`redirects` and `rewrites`. A page URL one of them catches is the host's to answer
(dexidp.io's `/docs/api` goes to `/docs/configuration/api/`): it is no file, and not
judged as one."""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Callable, Iterable
from dataclasses import dataclass

# The files that declare them, by name (wherever they are: `static/_redirects` is
# copied to the site's root).
REDIRECT_FILES = frozenset(("netlify.toml", "_redirects", "vercel.json"))
# A Hugo template that writes the `_redirects` file as an output format of the home
# page (keda.sh's layouts/index.redirects: `/http-add-on/latest/*` to the newest
# version the config names); what a template expression writes is any one segment.
_HUGO_REDIRECTS = re.compile(r"(?:^|/)layouts/(?:_default/)?index\.redirects$")
_TEMPLATE_EXPRESSION = re.compile(r"\{\{.*?\}\}")


def declares_redirects(path: str) -> bool:
    """Whether the file at `path` declares a host's redirects (HostRedirects.read)."""
    return path.rpartition("/")[2] in REDIRECT_FILES or _HUGO_REDIRECTS.search(path) is not None
# A placeholder in a rule's source: Netlify's splat `*` and `:name`, Vercel's `:path*`.
_PLACEHOLDER = re.compile(r":[A-Za-z_]\w*[*+?]?|\*")


@dataclass(frozen=True, slots=True)
class HostRedirects:
    """The URL paths a host redirects or rewrites, as one pattern."""

    pattern: re.Pattern[str] | None = None

    def catches(self, url: str) -> bool:
        """Whether `url` (a root-relative path, `/docs/api/`) is a rule's source."""
        if self.pattern is None:
            return False
        path = "/" + re.sub(r"/+", "/", url.partition("#")[0].partition("?")[0]).strip("/")
        return self.pattern.fullmatch(path) is not None

    @classmethod
    def read(cls, paths: Iterable[str], read: Callable[[str], str | None]) -> HostRedirects:
        """The rules of every redirect file among `paths`, `read` giving a file's text."""
        sources: list[str] = []
        for path in sorted(paths):
            name = path.rpartition("/")[2]
            if not declares_redirects(path):
                continue
            text = read(path) or ""
            if name.endswith(".redirects"):
                name, text = "_redirects", _TEMPLATE_EXPRESSION.sub(":template", text)
            if name == "_redirects":
                # (A rule with a query's condition, `/docs/* go-get=:go-get ...`, holds only
                # for such requests: knative's go-get redirects.)
                # (A target's own query, porter's `https://github.com/pulls?q=is:open`,
                # is no condition.)
                sources += [words[0] for words in map(str.split, text.splitlines())
                            if len(words) > 1 and words[0].startswith("/")
                            and ("=" not in words[1] or words[1].startswith(("/", "http://", "https://")))]
            elif name == "netlify.toml":
                sources += _netlify(text)
            else:
                sources += _vercel(text)
        if not sources:
            return cls()
        return cls(re.compile("|".join(_as_regex(s) for s in sorted(set(sources)))))


def _netlify(text: str) -> list[str]:
    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError):
        return []
    rules = data.get("redirects")
    return [str(r["from"]) for r in rules if isinstance(r, dict) and isinstance(r.get("from"), str)
            and r["from"].startswith("/") and not r.get("query") and not r.get("conditions")] \
        if isinstance(rules, list) else []


def _vercel(text: str) -> list[str]:
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return []
    if not isinstance(data, dict):
        return []
    rules = [r for key in ("redirects", "rewrites") if isinstance(data.get(key), list) for r in data[key]]
    return [str(r["source"]) for r in rules if isinstance(r, dict) and isinstance(r.get("source"), str)
            and r["source"].startswith("/")]


def _as_regex(source: str) -> str:
    """A rule's source as a pattern over URL paths with no trailing slash (a rule is
    matched with or without one)."""
    source = "/" + source.split("?")[0].strip("/")
    out, at = [], 0
    for m in _PLACEHOLDER.finditer(source):
        literal = source[at:m.start()]
        if m.group(0) == "*" and literal.endswith("/") and m.end() == len(source):
            # `/http-add-on/latest/*` catches `/http-add-on/latest/` too, which is
            # matched without its trailing slash.
            out.append(re.escape(literal[:-1]) + "(?:/.*)?")
        else:
            out.append(re.escape(literal))
            out.append(".*" if m.group(0).endswith(("*", "+")) else "[^/]+")
        at = m.end()
    out.append(re.escape(source[at:]))
    return "(?:" + "".join(out).rstrip("/") + ")"
