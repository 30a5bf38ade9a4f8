"""A config's values, checked: each key against the type a TOML user names ("must be
an integer, got a string"), the `[[table]]` arrays with their unknown keys, lists of
choices, regular expressions, rule codes and severities, file kinds; a wrong value is
a one-line ConfigError saying where it is. Apart from workspace.py, which says what
the keys are and builds the workspace from them: these checks know no workspace."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from anchorcheck.config.excludes import check_patterns
from anchorcheck.config.selection import parse_codes
from anchorcheck.errors import ConfigError
from anchorcheck.extract.languages import KINDS
from anchorcheck.model.finding import Severity


def array_tables(
    data: dict[str, Any], key: str, path: Path, known: set[str], warnings: list[str],
) -> Iterator[tuple[int, str, dict[str, Any]]]:
    """The `[[key]]` tables of a config, numbered from 1, each with where it is (for
    messages); a key none of them knows is warned about."""
    raw = data.get(key, [])
    if not isinstance(raw, list):
        raise ConfigError(f"{path}: {key!r} must be an array of tables ([[{key}]])")
    for i, table in enumerate(raw, start=1):
        where = f"{path}: [[{key}]] #{i}"
        if not isinstance(table, dict):
            raise ConfigError(f"{where}: must be a table")
        for unknown in sorted(set(table) - known):
            import difflib  # (here: ~3 ms of every start otherwise)

            close = difflib.get_close_matches(unknown, sorted(known), n=1, cutoff=0.6)
            if close and close[0] not in table:
                # `paht = "chart"`: a typo of a key the table lacks, which a "missing
                # required key 'path'" would hide, or whose default would stand in silence.
                raise ConfigError(f"{where}: unknown key {unknown!r} (did you mean {close[0]!r}?)")
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            warnings.append(f"{where}: unknown key {unknown!r} ignored{hint}")
        yield i, where, table


def chosen(raw: list[Any] | None, allowed: tuple[str, ...], default: tuple[str, ...], where: str,
            key: str) -> tuple[str, ...]:
    """A setting that lists some of `allowed` (`note-styles`, `version-guard`), in
    their order; anything else is a config error naming what may be listed."""
    if raw is None:
        return default
    unknown = [x for x in raw if x not in allowed]
    if unknown:
        raise ConfigError(f"{where}: {key}: {unknown[0]!r} is not one of {', '.join(allowed)}")
    return tuple(x for x in allowed if x in raw)


def file_kinds(values: list[Any], where: str) -> tuple[str, ...]:
    """File kinds as given (`kinds`, `--kind`), checked, sorted and each once."""
    for value in values:
        if not isinstance(value, str) or value not in KINDS:
            raise ConfigError(f"{where}: {value!r} is no file kind (one of {', '.join(sorted(KINDS))})")
    return tuple(sorted(set(values)))


def per_file_ignores_in(rules: dict[str, Any], path: Path) -> tuple[tuple[str, tuple[str, ...]], ...]:
    table = rules.get("per-file-ignores", {})
    where = f"{path}: [rules] per-file-ignores"
    if not isinstance(table, dict):
        raise ConfigError(f"{where} must be a table of pattern = [codes]")
    out = []
    for pattern, codes in table.items():
        check_patterns([pattern], where)
        if not (isinstance(codes, list) and all(isinstance(c, str) for c in codes)):
            raise ConfigError(f"{where}: {pattern!r} must be a list of rule codes")
        out.append((pattern, parse_codes(codes)))
    return tuple(out)


def regexes(values: list[Any], where: str) -> tuple[str, ...]:
    for value in values:
        if not isinstance(value, str):
            raise ConfigError(f"{where}: {value!r} is not a string")
        try:
            re.compile(value)
        except re.error as exc:
            raise ConfigError(f"{where}: {value!r} is not a regular expression ({exc})") from None
    return tuple(values)


def severities_in(rules: dict[str, Any], path: Path) -> tuple[tuple[str, Severity], ...]:
    raw = rules.get("severity", {})
    if not isinstance(raw, dict):
        raise ConfigError(f"{path}: [rules] severity must be a table of CODE = \"error|warning|info\"")
    out = []
    for code, level in raw.items():
        try:
            out.append((code.upper(), Severity.parse(str(level))))
        except ValueError as exc:
            raise ConfigError(f"{path}: [rules] severity {code}: {exc}") from None
    return tuple(out)


def codes_in(rules: dict[str, Any], key: str, path: Path) -> list[str]:
    value = rules.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{path}: [rules] {key} must be a list of rule codes")
    return [v.upper() for v in value]


# What a TOML user calls the types a key may hold.
_TOML_WORDS: dict[type, str] = {
    str: "a string", int: "an integer", bool: "true or false", float: "a number",
    list: "an array", dict: "a table",
}


def typed(
    table: dict[str, Any], key: str, kind: type | Callable[..., Any], where: str,
    required: bool = False,
) -> Any:
    if key not in table:
        if required:
            raise ConfigError(f"{where}: missing required key {key!r}")
        return None
    value = table[key]
    # bool is an int in Python; a config `max-file-size = true` is still a mistake.
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):  # type: ignore[arg-type]
        name: str = getattr(kind, "__name__", str(kind))
        expected = _TOML_WORDS[kind] if isinstance(kind, type) and kind in _TOML_WORDS else name
        got = _TOML_WORDS.get(type(value), type(value).__name__)
        raise ConfigError(f"{where}: {key!r} must be {expected}, got {got}")
    return value
