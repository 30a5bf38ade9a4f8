"""Haskell module names as locations: `Note [X] in GHC.Tc.Module` names the file of
that module (`compiler/GHC/Tc/Module.hs`), wherever the source tree keeps it."""

from __future__ import annotations

from anchorcheck.patterns import compiled_on_use

# A dotted module name, or one word shaped as a module (an inner capital: `MkId`,
# `TcRnDriver`); "GHC" or "Haskell" alone name no module.
_MODULE = compiled_on_use(r"[A-Z][\w']*(?:\.[A-Z][\w']*)+|[A-Z][a-z0-9']+[A-Z][\w']*")
_EXTENSIONS = (".hs", ".lhs", ".hs-boot", ".hsc", ".hsig", ".x", ".y")


def is_module(written: str) -> bool:
    return _MODULE.fullmatch(written) is not None


def defines_module(path: str, module: str) -> bool:
    """Whether `path` is the source file of `module`, whose leading parts may be
    written as their initials (bytestring's `D.B.Internal.Type` is
    `Data.ByteString.Internal.Type`)."""
    base = "/" + module.replace(".", "/")
    if any(("/" + path).endswith(base + ext) for ext in _EXTENSIONS):
        return True
    written = module.split(".")
    held = module_of(path)
    if held is None or len(written) < 2 or len(written[0]) != 1:
        return False
    parts = held.split(".")[-len(written):]
    return len(parts) == len(written) and all(
        w == p or (len(w) == 1 and p.startswith(w)) for w, p in zip(written, parts, strict=True))


def module_of(path: str) -> str | None:
    """The module a Haskell source file holds, by its path: the capitalised parts at
    its end (`compiler/GHC/Types/Id/Make.hs` -> `GHC.Types.Id.Make`)."""
    stem, dot, ext = path.rpartition(".")
    if not dot or f".{ext}" not in _EXTENSIONS:
        return None
    parts = stem.split("/")
    names: list[str] = []
    for part in reversed(parts):
        if not part[:1].isupper():
            break
        names.append(part)
    return ".".join(reversed(names)) or None
