"""Symbol definitions: which names a file defines, for symbol claims (`PATH:name()`).

Python through its own parser; other languages through one definition pattern per
family, which finds functions, classes, types and top-level bindings (what a comment
calls `name()`), not every identifier.
"""

from __future__ import annotations

import ast
import re

from anchorcheck.patterns import compiled_on_use

_GENERIC = compiled_on_use(
    r"\b(?:def|class|func|fn|function|struct|enum|trait|interface|type|module|namespace|impl"
    r"|macro_rules!|procedure|sub|proc)[ \t]+(?:\([^)\n]{0,200}\)[ \t]*)?([A-Za-z_$][\w$]*)"
)
# Blanks and names possessive (`*+`): giving any back can never let what follows
# them match (a keyword or name follows blanks; a blank or `:=(` a name), and each
# line of a C file was tried every way the blanks split between the two runs, each
# with every shorter name (10 C files of GHC's runtime: 69 ms, now 11).
_ASSIGNED_FN = compiled_on_use(
    r"(?m)^[ \t]*+(?:export[ \t]+)?(?:const|let|var|static)?[ \t]*+([A-Za-z_$][\w$]*+)[ \t]*+[:=][ \t]*"
    r"(?:async[ \t]*)?(?:function\b|\([^)\n]{0,200}\)[ \t]*=>|[A-Za-z_$][\w$]*[ \t]*=>)"
)
_C_FUNCTION = compiled_on_use(
    r"(?m)^[A-Za-z_][\w:<>,*& \t]{0,200}?[ \t*&]([A-Za-z_]\w*)[ \t]*\([^;{}\n]{0,300}\)[ \t]*"
    r"(?:const[ \t]*)?(?:\{|$)"
)
_C_LINE_START = compiled_on_use(r"(?m)^([A-Za-z_]\w*)[ \t]*\([^;\n]*$")  # GNU style: type on the line above
# A signature that wraps: `static int path_matches(const char *pathname, int pathlen,`
# with the rest on the next lines (git's style: 4 of the 6 AC202 on git/git were such).
_C_WRAPPED = compiled_on_use(
    r"(?m)^[A-Za-z_][\w:<>,*& \t]{0,200}?[ \t*&]([A-Za-z_]\w*)[ \t]*\([^;{}()\n]{0,300},[ \t]*$")
_METHOD = compiled_on_use(r"(?m)^[ \t]++(?:async[ \t]+|static[ \t]+|public[ \t]+|private[ \t]+)*"
                     r"([A-Za-z_$][\w$]*+)[ \t]*+\([^;\n]{0,300}\)[ \t]*\{")
_HASKELL = compiled_on_use(r"(?m)^([a-z_][\w']*)[ \t]*::|^(?:data|newtype|type|class)[ \t]+([A-Z][\w']*)")
_SHELL = compiled_on_use(
    r"(?m)^[ \t]*(?:function[ \t]+)?([A-Za-z_][\w.-]*)[ \t]*\(\)|^[ \t]*function[ \t]+([A-Za-z_][\w.-]*)"
)
_MAKE = compiled_on_use(r"(?m)^([A-Za-z0-9_.-]+)[ \t]*:(?!=)")


def defined_symbols(text: str, language: str | None) -> dict[str, int]:
    """Names defined in `text`, with the line of their first definition."""
    if language == "python":
        try:
            return _python(ast.parse(text))
        except (SyntaxError, ValueError, RecursionError):
            pass  # a file that does not parse still has definitions worth finding
    out: dict[str, int] = {}
    patterns: tuple[re.Pattern[str], ...]
    if language == "haskell":
        patterns = (_HASKELL,)
    elif language == "shell":
        patterns = (_SHELL,)
    elif language == "make":
        patterns = (_MAKE,)
    elif language in ("c", "js", "rust"):
        patterns = (_GENERIC, _ASSIGNED_FN, _C_FUNCTION, _C_LINE_START, _C_WRAPPED, _METHOD)
    else:
        patterns = (_GENERIC, _ASSIGNED_FN)
    for pattern in patterns:
        for m in pattern.finditer(text):
            name = next(g for g in m.groups() if g)
            if name not in out:
                out[name] = text.count("\n", 0, m.start()) + 1
    return out


def _python(tree: ast.Module) -> dict[str, int]:
    out: dict[str, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            out.setdefault(node.name, node.lineno)
    for node in tree.body:
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, ast.AnnAssign):
            targets = [node.target]
        for target in targets:
            if isinstance(target, ast.Name):
                out.setdefault(target.id, node.lineno)
    return out


def definition_regex(names: list[str]) -> str:
    """A PCRE (and Python) regex matching a definition of any of `names`; the name is
    group `a` (after a keyword), `b` (a top-level binding, signature or C function) or
    `c` (a C function with its types before it on its line)."""
    alternatives = "|".join(re.escape(n) for n in sorted(set(names), key=len, reverse=True))
    # `^name (` is a C function whose return type stands on the line above (GNU style);
    # `^static int name(` one whose types share its line, C's most common style (git's
    # builtin/commit.c's git_status_config was "defined in no file"). Unindented only, as
    # definition_shapes reads them: `\treturn name(` is a call.
    return (
        r"(?:\b(?:def|class|func|fn|function|struct|enum|trait|interface|type|data|newtype)\s+"
        rf"(?:\([^)]*\)\s*)?(?P<a>{alternatives})(?![\w$])|^(?P<b>{alternatives})\s*(?:::|=[^=]|\()"
        rf"|^(?!(?:return|else|case|goto|typedef|do|await|yield|new|throw|if|while|for|switch|sizeof)\b)"
        rf"[A-Za-z_][\w \t*&:<>,]*?[ \t*&](?P<c>{alternatives})\s*\()"
    )
