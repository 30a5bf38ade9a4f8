"""A documentation site's config, read as text: a key's value by its pattern in a YAML,
TOML or JS config (`key_value`), a JS config's objects and lists by their brackets
(Docusaurus' plugin options), a JSON list of strings (versions.json), a MkDocs config
with the configs it INHERITs, mkdocs-redirects' `redirect_maps`, and a folder a config
names, from the config's own. A JS or TS config is code, never run here: the few keys
resolve/sites.py needs are found in its text. A room of its own: these readers know
the configs' syntax, not sites; resolve/sites.py, which decides the sites a tree
builds, asks them.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Callable, Mapping
from collections.abc import Set as AbstractSet

YAML_KEY = r"(?m)^{key}\s*:\s*['\"]?([^'\"#\n]+?)['\"]?\s*(?:#.*)?$"
TOML_KEY = r"(?m)^{key}\s*=\s*['\"]([^'\"\n]+)['\"]"
# (A key may be quoted, as in JSON: pnpm.io's `"path": "./docs"`.)
JS_KEY = r"\b{key}['\"]?\s*:\s*['\"`]([^'\"`\n]+)['\"`]"
_MKDOCS_KEYS = re.compile(r"(?m)^(?:site_name|INHERIT|docs_dir|nav)\s*:")
_REDIRECT = re.compile(r"""^\s+['"]?([^'":\s][^'":]*?\.md)['"]?\s*:\s*['"]?([^'"\s#]+)['"]?\s*$""")


def mkdocs_config(config: str, read: Callable[[str], str | None], known: AbstractSet[str]) -> str | None:
    """A MkDocs config's text, the configs it INHERITs after it (a key found first
    wins, as the child's does in MkDocs); None for a file that is no MkDocs config,
    or is one only other configs INHERIT (a fragment, not a build of its own). The
    configs of one folder that share a docs folder make one site, the first's."""
    text = read(config)
    base = posixpath.basename(config)
    if base not in ("mkdocs.yml", "mkdocs.yaml"):
        if text is None or _MKDOCS_KEYS.search(text) is None:
            return None
        where = posixpath.dirname(config)
        for other in known:
            if other != config and posixpath.dirname(other) == where and \
                    posixpath.basename(other).startswith("mkdocs") and \
                    key_value(YAML_KEY, "INHERIT", read(other)) == base:
                return None  # inherited by another config: that one is the build
    texts, seen = [text or ""], {config}
    while (parent := key_value(YAML_KEY, "INHERIT", texts[-1])) is not None:
        path = join(posixpath.dirname(config), parent)
        if path in seen:
            break
        seen.add(path)
        texts.append(read(path) or "")
    return "\n".join(texts)


def js_block(text: str, key: str) -> str | None:
    """The text of the object a JS config gives `key` (`docs: { ... }`), braces
    matched; None when there is none."""
    m = re.search(rf"\b{re.escape(key)}['\"]?\s*:\s*\{{", text)
    return None if m is None else braced(text, m.end())


def top_level(block: str) -> str:
    """A JS object's text without the objects nested in it: its own keys only (the
    docs plugin's `path`, not a version's `versions: {3: {path: "v3"}}`: helm-www)."""
    out, depth = [], 0
    for ch in block:
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if depth == 0 and ch != "}":
            out.append(ch)
    return "".join(out)


def braced(text: str, start: int) -> str:
    """The text of a JS object from just after its `{` at `start - 1`, braces matched."""
    depth, at = 1, start
    while at < len(text) and depth:
        depth += {"{": 1, "}": -1}.get(text[at], 0)
        at += 1
    return text[start:at - 1]


def json_strings(text: str | None) -> list[str]:
    """The strings of a JSON list (Docusaurus' versions.json); [] for anything else."""
    try:
        found = json.loads(text) if text else []
    except (ValueError, RecursionError):
        return []
    return [str(x) for x in found if isinstance(x, str)] if isinstance(found, list) else []


def js_list(text: str, key: str) -> tuple[str, ...]:
    """The strings of a JS config's `key: ['a', 'b']`."""
    m = re.search(rf"\b{re.escape(key)}['\"]?\s*:\s*\[([^\]]*)\]", text)
    return tuple(re.findall(r"['\"`]([^'\"`]+)['\"`]", m.group(1))) if m else ()




def key_value(pattern: str, key: str, text: str | None) -> str | None:
    if not text:
        return None
    m = re.search(pattern.format(key=re.escape(key)), text)
    return m.group(1).strip() if m else None


def mapping(value: object) -> Mapping[str, object]:
    return value if isinstance(value, Mapping) else {}


def join(where: str, sub: str | None) -> str:
    if not sub:
        return where
    joined = posixpath.normpath(posixpath.join(where, sub))
    return "" if joined == "." else joined


def mkdocs_redirects(text: str | None) -> dict[str, str]:
    """mkdocs-redirects' `redirect_maps:` (`old.md: new.md`, both in docs_dir)."""
    out: dict[str, str] = {}
    if not text or "redirect_maps" not in text:
        return out
    inside = False
    indent = -1
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("redirect_maps:"):
            inside, indent = True, len(line) - len(line.lstrip())
            continue
        if not inside or not stripped or stripped.startswith("#"):
            continue
        if len(line) - len(line.lstrip()) <= indent:
            break
        m = _REDIRECT.match(line)
        if m:
            out[m.group(1)] = m.group(2)
    return out
