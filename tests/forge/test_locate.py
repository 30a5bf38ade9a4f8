"""Forge tokens: found where the clients look for them."""

from __future__ import annotations


def test_has_token_reads_the_variables_the_clients_read() -> None:
    """cli asks forge.tokens whether a token is set (without importing a client); it
    must say yes exactly where locate's clients find a token."""
    from anchorcheck.forge.locate import _auth
    from anchorcheck.forge.tokens import KINDS, TOKEN_VARIABLES, has_token

    names = {name for variables in TOKEN_VARIABLES.values() for name in variables} | {"GITEA_TOKEN"}
    for kind in KINDS:
        assert not has_token(kind, {}) and _auth(kind, {}) is None
        for name in names:
            env = {name: "t0ken"}
            assert has_token(kind, env) == (_auth(kind, env) is not None), (kind, name)
