"""Which files are read, as what: the fast name test against posixpath's reading."""

from __future__ import annotations

import posixpath

from hypothesis import given, settings
from hypothesis import strategies as st

from anchorcheck.extract.languages import _BY_EXTENSION, _BY_NAME, language_of


def _reference(path: str) -> str | None:
    name = posixpath.basename(path)
    if name in _BY_NAME:
        return _BY_NAME[name]
    if name.startswith("Dockerfile.") or name.endswith(".dockerfile"):
        return "dockerfile"
    _, ext = posixpath.splitext(name)
    return _BY_EXTENSION.get(ext, _BY_EXTENSION.get(ext.lower()))


_PARTS = st.sampled_from(["a", ".", "..", "/", "x.", ".py", ".PY", ".hs-boot", "Dockerfile", ".dockerfile",
                          "Makefile", ".bashrc", "b", ".R", ".r", "-"])


@settings(max_examples=500, deadline=None)
@given(st.lists(_PARTS, max_size=8).map("".join))
def test_language_of_reads_names_as_posixpath_does(path: str) -> None:
    assert language_of(path) == _reference(path)


def test_known_names() -> None:
    assert language_of("compiler/GHC/Core.hs-boot") == "haskell"
    assert language_of("src/.bashrc") == "shell"
    assert language_of("a/.py") is None  # a hidden file named ".py" has no extension
    assert language_of("a/..py") is None
    assert language_of("a/x.PY") == "python"
    assert language_of("docker/Dockerfile.prod") == "dockerfile"
    assert language_of("a/README") is None


def test_autoconf_m4_and_ghc_test_drivers_are_read() -> None:
    """GHC cites and defines Notes in `configure.ac`, `m4/*.m4` and `all.T` files."""
    from anchorcheck.extract.blob import ExtractOptions, extract

    assert language_of("configure.ac") == "m4"
    assert language_of("m4/fp_link.m4") == "m4"
    assert language_of("testsuite/tests/perf/all.T") == "python"
    assert language_of("t/basic.t") is None  # Perl's tests are not GHC's drivers
    src = ("dnl Note [Dummy values]\ndnl ~~~~~~~~~~~~~~~~~~\ndnl see Note [Other].\n"
           "AC_INIT([x]) # DEPLOY ORDER MATTERS\n# ROLLBACK ON THE DEGRADED PATH\n# Its body.\n")
    found = extract(src, "m4", ExtractOptions())
    assert [(a.kind.value, a.name, a.line) for a in found.anchors] == [
        ("note", "Dummy values", 1), ("caps-heading", "ROLLBACK ON THE DEGRADED PATH", 5)]
    assert [(r.name, r.line) for r in found.references] == [("Other", 3)]
