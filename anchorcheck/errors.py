"""Errors the user can act on. The CLI turns each into one line and exit code 2."""

from __future__ import annotations


class AnchorcheckError(Exception):
    """A usage, configuration or git problem: reported as one line, exit code 2."""


class ConfigError(AnchorcheckError):
    """The workspace configuration is malformed or names something that is not there."""


class GitError(AnchorcheckError):
    """A repository or ref cannot be read."""


class CacheError(AnchorcheckError):
    """A part of a stored value, decoded only when used, is damaged."""

    @classmethod
    def damaged_snapshot(cls, repo: str, exc: Exception) -> CacheError:
        return cls(f"the cache holds a damaged snapshot of {repo} ({exc}); "
                   "run again with --no-cache or delete the cache")
