"""Facts: values extracted from code, addressed as `REPO:PATH::KEY`.

- YAML (Helm templates too, read tolerantly: `{{ }}` directives are skipped or kept
  as text), JSON and TOML: a dotted key path (`spec.strategy.type`), or a last key
  that is unique in the file (`containerPort`).
- Python: `NAME` for a module-level constant, `env.NAME` for the default passed to
  `os.getenv("NAME", ...)`, `os.environ.get(...)` or `os.environ.setdefault(...)`,
  also inside `int(...)`/`float(...)`/`str(...)`.
"""

from __future__ import annotations

import ast
import json
import posixpath
import re
import tomllib
from dataclasses import dataclass
from typing import Any

from anchorcheck.extract.languages import language_of
from anchorcheck.extract.yaml_scalars import yaml_block_scalar_lines
from anchorcheck.patterns import compiled_on_use


@dataclass(frozen=True, slots=True)
class Fact:
    """A value a file sets under a key (`image.tag`), and its line."""

    key: str
    value: str
    line: int


@dataclass(frozen=True, slots=True)
class FactAddress:
    """Where a fact is: `[repo:]path::key`."""

    repo: str | None
    path: str
    key: str

    @classmethod
    def parse(cls, text: str) -> FactAddress:
        location, sep, key = text.partition("::")
        if not sep or not key or not location:
            raise ValueError(f"a fact address is [REPO:]PATH::KEY, got {text!r}")
        repo, colon, path = location.partition(":")
        if not colon:
            repo, path = "", location
        return cls(repo or None, path, key)

    def __str__(self) -> str:
        return f"{self.repo + ':' if self.repo else ''}{self.path}::{self.key}"


def facts_of(path: str, text: str) -> dict[str, Fact]:
    """Every fact of a file, by key path. Unparseable files give none."""
    name = posixpath.basename(path)
    ext = posixpath.splitext(name)[1].lower()
    try:
        if ext == ".json":
            return _from_tree(json.loads(text), text, ":")
        if ext == ".toml":
            return _from_tree(tomllib.loads(text), text, "=")
        if language_of(path) == "python":
            return _python(text)
        if ext in (".yaml", ".yml", ".tpl"):
            return _yaml(text)
    except (ValueError, SyntaxError, RecursionError, tomllib.TOMLDecodeError):
        return {}
    return {}


def lookup(facts: dict[str, Fact], key: str) -> Fact | list[str] | None:
    """The fact at `key` (a full key path, or a last key unique in the file); a list
    of candidates when the last key is not unique; None when there is none."""
    if key in facts:
        return facts[key]
    suffix = [k for k in facts if k.endswith("." + key)]
    if len(suffix) == 1:
        return facts[suffix[0]]
    return sorted(suffix) or None


def same_value(a: str, b: str) -> bool:
    a, b = a.strip().strip("\"'"), b.strip().strip("\"'")
    if a == b:
        return True
    try:
        return float(a) == float(b)
    except ValueError:
        return False


# -- YAML ------------------------------------------------------------------------

_YAML_KEY = compiled_on_use(
    r"^(?P<indent>[ \t]*)(?P<dash>-[ \t]+)?(?P<key>[^\s:#{}\[\],'\"][^:#]*?|\"[^\"]*\"|'[^']*')"
    r"[ \t]*:(?:[ \t]+(?P<value>.*?))?[ \t]*$"
)
_DIRECTIVE_ONLY = compiled_on_use(r"^[ \t]*(?:\{\{.*?\}\}[ \t]*)+$")


def _yaml(text: str) -> dict[str, Fact]:
    facts: dict[str, Fact] = {}
    stack: list[tuple[int, str]] = []  # (indent, key)
    in_block_scalar = yaml_block_scalar_lines(text)
    for number, raw in enumerate(text.split("\n"), start=1):
        if number in in_block_scalar:
            continue
        stripped = raw.strip()
        indent = len(raw) - len(raw.lstrip(" \t"))
        if not stripped or stripped.startswith("#") or _DIRECTIVE_ONLY.match(raw):
            continue
        m = _YAML_KEY.match(_strip_comment(raw))
        if m is None:
            continue
        key = m.group("key").strip().strip("\"'")
        level = indent + (len(m.group("dash")) if m.group("dash") else 0)
        while stack and stack[-1][0] >= level:
            stack.pop()
        value = (m.group("value") or "").strip()
        dotted = ".".join([k for _, k in stack] + [key])
        if not value:
            stack.append((level, key))
        elif value[0] not in "|>":  # a block scalar's text is not a one-line value
            facts.setdefault(dotted, Fact(dotted, value.strip("\"'"), number))
    return facts


def _strip_comment(line: str) -> str:
    quote = ""
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1] in " \t"):
            return line[:i].rstrip()
    return line


# -- JSON and TOML -------------------------------------------------------------------


def _from_tree(data: Any, text: str, assign: str) -> dict[str, Fact]:
    facts: dict[str, Fact] = {}

    def walk(node: Any, prefix: str) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, f"{prefix}.{k}" if prefix else str(k))
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, f"{prefix}[{i}]")
        elif prefix:
            value = json.dumps(node) if isinstance(node, bool) or node is None else str(node)
            facts[prefix] = Fact(prefix, value, _line_of(text, prefix, assign))

    walk(data, "")
    return facts


def _line_of(text: str, key: str, assign: str) -> int:
    last = re.sub(r"\[\d+\]$", "", key.rsplit(".", 1)[-1])
    m = re.search(rf"(?m)^[ \t]*\"?{re.escape(last)}\"?[ \t]*{re.escape(assign)}", text)
    return text.count("\n", 0, m.start()) + 1 if m else 1


# -- Python --------------------------------------------------------------------------

_ENV_CALLS = {("os", "getenv"), ("environ", "get"), ("environ", "setdefault")}


def _python(text: str) -> dict[str, Fact]:
    tree = ast.parse(text)
    facts: dict[str, Fact] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            value = _constant(node.value)
            for target in targets:
                if isinstance(target, ast.Name) and value is not None:
                    facts.setdefault(target.id, Fact(target.id, value, node.lineno))
    for call in ast.walk(tree):
        if isinstance(call, ast.Call) and _is_env_call(call) and len(call.args) >= 2:
            name, default = _constant(call.args[0]), _constant(call.args[1])
            if name is not None and default is not None:
                key = f"env.{name}"
                facts.setdefault(key, Fact(key, default, call.lineno))
    return facts


def _is_env_call(call: ast.Call) -> bool:
    func = call.func
    if not isinstance(func, ast.Attribute):
        return False
    owner = func.value
    owner_name = owner.attr if isinstance(owner, ast.Attribute) else getattr(owner, "id", "")
    return (owner_name, func.attr) in _ENV_CALLS


def _constant(node: ast.expr) -> str | None:
    # int(os.getenv("PORT", "8080")) restates 8080 as much as the bare call does
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in (
        "int", "float", "str", "bool"
    ) and len(node.args) == 1:
        return _constant(node.args[0])
    if isinstance(node, ast.Constant) and isinstance(node.value, str | int | float | bool):
        return str(node.value)
    return None
