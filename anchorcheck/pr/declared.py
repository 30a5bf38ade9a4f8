"""Dependencies a change declares: `Depends-On:` lines in its description, as Zuul and
Mergify write them (`Depends-On: https://github.com/acme/client/pull/791`, or the
short `Depends-On: client#791` with a workspace repo's name)."""

from __future__ import annotations

import urllib.parse
from collections.abc import Callable

from anchorcheck.patterns import compiled_on_use

_LINE = compiled_on_use(r"(?im)^[ \t>*-]*depends[- ]on:[ \t]*(?P<what>\S+)[ \t]*$")
_SHORT = compiled_on_use(r"(?P<repo>[A-Za-z0-9_][A-Za-z0-9_.-]*)[#!](?P<n>[0-9]+)")
# https://host/owner/name/pull/N, https://host/group/name/-/merge_requests/N
_CHANGE_PATH = compiled_on_use(r"/(?P<path>.+?)(?:/-)?/(?:pull|pulls|merge_requests)/(?P<n>[0-9]+)/?")


def declared(body: str, repo_of_url: Callable[[str, str], str | None]) -> tuple[tuple[str, str], ...]:
    """The (label, as written) of every change `body` declares it depends on. A URL's
    repo is mapped to a workspace repo name by `repo_of_url(host, path)`; a line
    naming no workspace change is kept with an empty label (the advisory says so)."""
    out: list[tuple[str, str]] = []
    for m in _LINE.finditer(body or ""):
        what = m.group("what").strip("<>")
        label = ""
        short = _SHORT.fullmatch(what)
        if short is not None:
            label = f"{short.group('repo')}#{short.group('n')}"
        else:
            split = urllib.parse.urlsplit(what)
            path = _CHANGE_PATH.fullmatch(split.path) if split.scheme in ("http", "https") else None
            if path is not None:
                name = repo_of_url(split.netloc.lower(), path.group("path"))
                if name is not None:
                    label = f"{name}#{path.group('n')}"
        if (label, what) not in out:
            out.append((label, what))
    return tuple(out)
