"""compiled_on_use: module-level regexes compile on first use, then are the compiled
pattern itself in their module."""

from __future__ import annotations

import re
from typing import Any

import pytest


def _module(source: str) -> dict[str, Any]:
    namespace: dict[str, Any] = {}
    exec("from anchorcheck.patterns import compiled_on_use\n" + source, namespace)
    return namespace


def test_a_pattern_compiles_on_first_use_and_then_is_the_compiled_pattern_in_its_module() -> None:
    ns = _module("import re\nBROKEN = compiled_on_use('(')\nWORD = compiled_on_use(r'a+(b)', re.IGNORECASE)\n"
                 "ALIAS = WORD\nKEPT = (WORD,)\n")
    # Nothing compiled at import: a pattern that cannot compile fails only when used.
    assert not isinstance(ns["WORD"], re.Pattern)
    with pytest.raises(re.error):
        ns["BROKEN"].search("x")
    m = ns["WORD"].search("xAAB")
    assert m is not None and m.group(1) == "B"
    # Every name of the module bound to it now holds the compiled pattern itself.
    assert ns["WORD"] is ns["ALIAS"] and isinstance(ns["WORD"], re.Pattern)
    assert ns["WORD"].flags & re.IGNORECASE
    # A reference kept elsewhere at import answers as the pattern does.
    kept = ns["KEPT"][0]
    assert not isinstance(kept, re.Pattern) and kept.pattern == "a+(b)"
    assert [x.group(0) for x in kept.finditer("ab aab")] == ["ab", "aab"]
    assert kept.sub("-", "xab") == "x-" and "a+(b)" in repr(kept)


def test_a_stand_in_is_not_mistaken_for_a_copyable_or_picklable_pattern_before_use() -> None:
    ns = _module("P = compiled_on_use('x')\n")
    with pytest.raises(AttributeError):
        ns["P"].__deepcopy__  # noqa: B018 - probing, as copy does
    assert not isinstance(ns["P"], re.Pattern)  # probing compiled nothing
