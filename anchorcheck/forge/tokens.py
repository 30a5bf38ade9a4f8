"""Whether a forge token is set: the environment variables locate.py reads them from,
known without importing a forge client (http, ssl, email: a check with no token,
most of them, asks only this; ~20 ms of a warm run's 0.3 s went to those imports)."""

from __future__ import annotations

from collections.abc import Mapping

# The variables each kind's token may be in, in the order locate._auth reads them.
TOKEN_VARIABLES: dict[str, tuple[str, ...]] = {
    "github": ("GITHUB_TOKEN", "GH_TOKEN"),
    "gitlab": ("GITLAB_TOKEN", "CI_JOB_TOKEN"),
}
KINDS = tuple(TOKEN_VARIABLES)


def has_token(kind: str, env: Mapping[str, str]) -> bool:
    return any(env.get(name) for name in TOKEN_VARIABLES[kind])
