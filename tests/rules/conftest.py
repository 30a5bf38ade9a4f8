"""Options of the rule tests."""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-snapshots", action="store_true", default=False,
                     help="Rewrite tests/rules/cases/*/expected from what the rules report now.")
