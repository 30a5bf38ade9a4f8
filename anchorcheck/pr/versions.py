"""Version facts: the version a version file declares (Chart.yaml, pyproject.toml,
package.json), and how versions compare and bump."""

from __future__ import annotations

import json
import posixpath
import re
import tomllib

from anchorcheck.patterns import compiled_on_use

DEFAULT_VERSION_FILES = ("Chart.yaml", "pyproject.toml", "package.json")

_CHART_VERSION = compiled_on_use(r"^version:[ \t]*[\"']?([^\"'\s#]+)", re.MULTILINE)


def is_version_file(path: str, names: tuple[str, ...] = DEFAULT_VERSION_FILES) -> bool:
    return posixpath.basename(path) in names


def read_version(path: str, text: str) -> str | None:
    """The declared version, or None when the file declares none (or cannot be parsed)."""
    name = posixpath.basename(path)
    try:
        if name.endswith((".yaml", ".yml")):
            m = _CHART_VERSION.search(text)
            return m.group(1) if m else None
        if name.endswith(".toml"):
            data = tomllib.loads(text)
            project = data.get("project", {})
            poetry = data.get("tool", {}).get("poetry", {})
            version = project.get("version") or poetry.get("version")
            return version if isinstance(version, str) else None
        if name.endswith(".json"):
            version = json.loads(text).get("version")
            return version if isinstance(version, str) else None
    except (ValueError, AttributeError, tomllib.TOMLDecodeError):
        return None
    return None


def version_key(version: str) -> tuple[tuple[int, str], ...]:
    """Orders 1.9.10 after 1.9.9; non-numeric parts compare as text after numbers."""
    parts = re.split(r"[.\-+]", version.lstrip("v"))
    return tuple((int(p), "") if p.isdigit() else (1 << 60, p) for p in parts)


def bumped_part(old: str, new: str) -> int:
    """Index of the first dotted part that differs (0 major, 1 minor, 2 patch...)."""
    a, b = old.lstrip("v").split("."), new.lstrip("v").split(".")
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return i
    return min(len(a), len(b)) - 1


def bump(version: str, part: int) -> str:
    """`version` with dotted part `part` incremented and the later parts zeroed."""
    prefix = "v" if version.startswith("v") else ""
    core = re.match(r"[0-9]+(?:\.[0-9]+)*", version.lstrip("v"))
    if core is None:
        return version
    nums = [int(x) for x in core.group(0).split(".")]
    part = min(part, len(nums) - 1)
    nums[part] += 1
    nums[part + 1:] = [0] * (len(nums) - part - 1)
    return prefix + ".".join(map(str, nums))
