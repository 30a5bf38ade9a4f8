"""Version facts: the version a version file declares (Chart.yaml, pyproject.toml,
package.json), and how versions compare and bump."""

from __future__ import annotations

import json
import posixpath
import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from anchorcheck.config.workspace import VERSION_FILES
from anchorcheck.git.repo import GitRepo
from anchorcheck.patterns import compiled_on_use

DEFAULT_VERSION_FILES = VERSION_FILES

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
    except (ValueError, AttributeError, tomllib.TOMLDecodeError, RecursionError):
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



def guarded_packages(paths: Iterable[str], names: tuple[str, ...]) -> dict[str, str]:
    """Package folder -> its version file, for every guarded version file in `paths`
    ("" for one at the repo's root). A Helm subchart (a chart in another chart's
    `charts/` folder) is packaged with its parent and is guarded as part of it: on
    prometheus-community/helm-charts, 10 of 13 commits flagged in 600 changed a
    vendored CRD subchart whose parent they did bump."""
    found = {posixpath.dirname(p): p for p in paths if posixpath.basename(p) in names}
    charts = [f for f, p in found.items() if posixpath.basename(p) == "Chart.yaml"]
    for folder in charts:
        if any(folder.startswith(f"{parent}/charts/" if parent else "charts/") for parent in charts
               if parent != folder):
            del found[folder]
    return found


def package_of(path: str, packages: Mapping[str, str]) -> str | None:
    """The innermost guarded package folder holding `path`, if any."""
    folder = posixpath.dirname(path)
    while True:
        if folder in packages:
            return folder
        if not folder:
            return None
        folder = posixpath.dirname(folder)


@dataclass(frozen=True, slots=True)
class Unbumped:
    """A package whose content differs between two commits while its version does not."""

    path: str  # the version file
    version: str
    touched: tuple[str, ...]
    line: int  # of the version, in the version file at the later commit


def unbumped_packages(
    git: GitRepo, paths: Iterable[str], changed: Iterable[str], base: str, head: str,
    names: tuple[str, ...], skip: tuple[str, ...] = (),
) -> list[Unbumped]:
    """The packages (`names`: their version files) that `changed` paths edit between
    `base` and `head` without a new version. A file belongs to its innermost package
    (a chart inside a Python repo is the chart's); a folder in `skip` guards nothing;
    a package added or removed between the two is not one left unbumped."""
    packages = guarded_packages(paths, names)
    touched: dict[str, list[str]] = {}
    for path in changed:
        folder = package_of(path, packages)
        if folder is not None and not any(folder == s or folder.startswith(s + "/") for s in skip):
            touched.setdefault(folder, []).append(path)
    out = []
    for folder, files in sorted(touched.items()):
        version_file = packages[folder]
        old_text, new_text = git.text_at(base, version_file), git.text_at(head, version_file)
        if old_text is None or new_text is None:
            continue
        old, new = read_version(version_file, old_text), read_version(version_file, new_text)
        if old is None or new != old:
            continue  # bumped (AC305 tells whether in time), or no version to bump
        out.append(Unbumped(version_file, old, tuple(sorted(files)), version_line(new_text, old)))
    return out


def version_line(text: str, version: str) -> int:
    """The line declaring `version` in a version file's text (1 when none does)."""
    for number, line in enumerate(text.split("\n"), start=1):
        if version in line and "version" in line:
            return number
    return 1
