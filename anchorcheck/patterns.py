"""Module-level regexes, compiled when first used.

Every command imports the extraction, resolution and report modules, and with them ~90
module-level patterns; compiling them all took ~15 ms of every start, and a command
uses few of them (a merge-order run on a 10-file PR: 33 of 75). `compiled_on_use`
stands in for `re.compile` in a module-level assignment: the pattern compiles on the
first attribute asked of it (a search, a match, its `pattern`), and then replaces
itself in that module's globals, so the module's functions use the compiled pattern
itself (a stand-in's attribute costs more per call: 3.11 specializes method calls on
a compiled pattern, not on an instance holding its bound methods; +2% of extraction).
"""

from __future__ import annotations

import re
import sys
from typing import Any, cast


class _OnUse:
    """A regex that compiles on first use: __getattr__ runs only for an attribute not
    on the instance, so only the first time."""

    def __init__(self, source: str, flags: int, module: dict[str, Any]) -> None:
        self._source = source
        self._flags = flags
        self._module = module  # the globals of the module that assigned it

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):  # copy, pickle and the like probe for these
            raise AttributeError(name)
        compiled = re.compile(self._source, self._flags)
        for key, value in list(self._module.items()):
            if value is self:
                self._module[key] = compiled
        # Whoever kept the stand-in itself (a tuple built at import) gets the compiled
        # pattern's attributes from now on.
        for attr in dir(compiled):
            if not attr.startswith("_"):
                setattr(self, attr, getattr(compiled, attr))
        # A class with __getattr__ looks every attribute up through a slower path (a
        # hook that tries __getattribute__ first); a compiled one has none.
        self.__class__ = _Compiled  # type: ignore[assignment]  # same layout: no slots
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"compiled_on_use({self._source!r}, {self._flags!r})"


class _Compiled:
    """An _OnUse once compiled: its attributes are the compiled pattern's."""

    def __repr__(self) -> str:
        return f"re.compile({self.pattern!r}, {self.flags!r})"  # type: ignore[attr-defined]


def compiled_on_use(source: str, flags: int | re.RegexFlag = 0) -> re.Pattern[str]:
    """`re.compile(source, flags)`, compiled when first used, for a module-level
    assignment (`_NAME = compiled_on_use(...)`). Typed as the pattern it stands for: it
    answers every public attribute of one (not isinstance)."""
    return cast("re.Pattern[str]", _OnUse(source, int(flags), sys._getframe(1).f_globals))
