"""Which forge a repository lives on, and a client for it.

The repo's web URL (`url` in anchorcheck.toml, else its remote's URL) names the host
and the path. The host names the kind: github.com, or the host of `GITHUB_SERVER_URL`
(GitHub Actions sets it, GitHub Enterprise included), is GitHub; gitlab.com, or the
host of `CI_SERVER_URL` (GitLab CI), is GitLab; a host with "github" or "gitlab" in
its name is taken for that kind; a repo's `forge` key says it outright. The API base
is `GITHUB_API_URL` / `CI_API_V4_URL` when set, else the host's documented one.
Tokens: `GITHUB_TOKEN` or `GH_TOKEN` for GitHub; `GITLAB_TOKEN` (a personal or
project token) or `CI_JOB_TOKEN` for GitLab. They go into a request header only.
"""

from __future__ import annotations

import re
import urllib.parse
from collections.abc import Mapping

from anchorcheck.forge.base import Forge, ForgeRepo
from anchorcheck.forge.github import GitHub
from anchorcheck.forge.gitlab import GitLab
from anchorcheck.forge.http import RUN, Auth, Http

# https://host/path(.git), ssh://git@host/path, git@host:path
_URL = re.compile(r"(?:(?P<scheme>[a-z][a-z0-9+.-]*)://(?:[^@/\s]+@)?(?P<host>[^/\s:]+)(?::\d+)?/"
                  r"|[\w.-]+@(?P<scp_host>[\w.-]+):)(?P<path>[^\s]+?)(?:\.git)?/*")


def locate(url: str | None, env: Mapping[str, str], kind: str | None = None) -> ForgeRepo | None:
    """The forge repo a web or remote URL names; None for a local path, a `file://`
    URL, or a host of no known kind."""
    if not url:
        return None
    m = _URL.fullmatch(url.strip())
    if m is None or m.group("scheme") == "file":
        return None
    host = (m.group("host") or m.group("scp_host") or "").lower()
    path = m.group("path").strip("/")
    # A web URL may go on past the repo (…/owner/name/tree/main): GitLab marks that
    # with /-/, GitHub repos are always two parts.
    path = path.split("/-/")[0]
    kind = kind or _kind(host, env)
    if kind == "github":
        path = "/".join(path.split("/")[:2])
    if kind is None or path.count("/") < 1:
        return None
    return ForgeRepo(kind, _api(kind, host, env), host, path)


def _kind(host: str, env: Mapping[str, str]) -> str | None:
    github_host = urllib.parse.urlsplit(env.get("GITHUB_SERVER_URL", "")).netloc.lower()
    gitlab_host = (urllib.parse.urlsplit(env.get("CI_SERVER_URL", "")).netloc
                   or env.get("CI_SERVER_HOST", "")).lower()
    if host == "github.com" or (github_host and host == github_host):
        return "github"
    if host == "gitlab.com" or (gitlab_host and host == gitlab_host):
        return "gitlab"
    if "github" in host:
        return "github"
    if "gitlab" in host:
        return "gitlab"
    return None


def _api(kind: str, host: str, env: Mapping[str, str]) -> str:
    if kind == "github":
        if env.get("GITHUB_API_URL"):
            return env["GITHUB_API_URL"]
        return "https://api.github.com" if host == "github.com" else f"https://{host}/api/v3"
    if env.get("CI_API_V4_URL"):
        return env["CI_API_V4_URL"]
    return f"https://{host}/api/v4"


def _auth(kind: str, env: Mapping[str, str]) -> Auth | None:
    if kind == "github":
        token = env.get("GITHUB_TOKEN") or env.get("GH_TOKEN")
        return Auth("Authorization", f"Bearer {token}", token) if token else None
    if env.get("GITLAB_TOKEN"):
        return Auth("PRIVATE-TOKEN", env["GITLAB_TOKEN"], env["GITLAB_TOKEN"])
    if env.get("CI_JOB_TOKEN"):
        return Auth("JOB-TOKEN", env["CI_JOB_TOKEN"], env["CI_JOB_TOKEN"])
    return None


def connect(repo: ForgeRepo, env: Mapping[str, str], timeout: float = 10.0, max_wait: float = 60.0) -> Forge:
    """A client for `repo`'s forge, with the token the environment gives (or none)."""
    http = Http(repo.api, _auth(repo.kind, env), timeout=timeout, max_wait=max_wait, budget=RUN)
    if repo.kind == "github":
        return GitHub(repo, http, in_actions=env.get("GITHUB_ACTIONS") == "true")
    return GitLab(repo, http)
