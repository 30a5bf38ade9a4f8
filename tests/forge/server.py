"""A forge on 127.0.0.1: the GitHub REST v3 and GitLab v4 endpoints anchorcheck uses,
their bodies shaped as the forges document them (GitHub's from its OpenAPI
description, tests/data/github/), with faults to order: pages of a chosen size, rate
limits, a hang, a token required. Every request is logged for the tests to inspect."""

from __future__ import annotations

import json
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

_TIME = "2026-11-30T12:00:00Z"


def _user(login: str = "octocat") -> dict[str, Any]:
    base = f"https://api.github.com/users/{login}"
    return {
        "login": login, "id": 1, "node_id": "MDQ6VXNlcjE=", "avatar_url": "https://github.com/images/error/octocat.gif",
        "gravatar_id": "", "url": base, "html_url": f"https://github.com/{login}",
        "followers_url": f"{base}/followers", "following_url": f"{base}/following{{/other_user}}",
        "gists_url": f"{base}/gists{{/gist_id}}", "starred_url": f"{base}/starred{{/owner}}{{/repo}}",
        "subscriptions_url": f"{base}/subscriptions", "organizations_url": f"{base}/orgs",
        "repos_url": f"{base}/repos", "events_url": f"{base}/events{{/privacy}}",
        "received_events_url": f"{base}/received_events", "type": "User", "site_admin": False,
    }


def _link(href: str) -> dict[str, str]:
    return {"href": href}


@dataclass
class GitHubRepo:
    path: str  # owner/name
    pulls: list[dict[str, Any]] = field(default_factory=list)
    issues: dict[int, dict[str, Any]] = field(default_factory=dict)
    comments: dict[int, list[dict[str, Any]]] = field(default_factory=dict)

    def add_pull(self, number: int, *, title: str, body: str, head_sha: str, head_ref: str, base_ref: str,
                 draft: bool = False, fork: str | None = None) -> None:
        """An open pull request, and its issue (GitHub's pulls are issues too)."""
        api = f"https://api.github.com/repos/{self.path}"
        html = f"https://github.com/{self.path}/pull/{number}"
        head_repo = _repository(fork or self.path)
        self.pulls.append({
            "url": f"{api}/pulls/{number}", "id": 1000 + number, "node_id": f"PR_{number}", "html_url": html,
            "diff_url": f"{html}.diff", "patch_url": f"{html}.patch", "issue_url": f"{api}/issues/{number}",
            "commits_url": f"{api}/pulls/{number}/commits", "review_comments_url": f"{api}/pulls/{number}/comments",
            "review_comment_url": f"{api}/pulls/comments{{/number}}", "comments_url": f"{api}/issues/{number}/comments",
            "statuses_url": f"{api}/statuses/{head_sha}", "number": number, "state": "open", "locked": False,
            "title": title, "user": _user(), "body": body, "labels": [], "milestone": None,
            "active_lock_reason": None, "created_at": _TIME, "updated_at": _TIME, "closed_at": None,
            "merged_at": None, "merge_commit_sha": None, "assignee": None, "assignees": [],
            "requested_reviewers": [], "requested_teams": [],
            "head": {"label": f"{(fork or self.path).split('/')[0]}:{head_ref}", "ref": head_ref, "sha": head_sha,
                     "user": _user(), "repo": head_repo},
            "base": {"label": f"{self.path.split('/')[0]}:{base_ref}", "ref": base_ref, "sha": "0" * 40,
                     "user": _user(), "repo": _repository(self.path)},
            "_links": {"self": _link(f"{api}/pulls/{number}"), "html": _link(html),
                       "issue": _link(f"{api}/issues/{number}"), "comments": _link(f"{api}/issues/{number}/comments"),
                       "review_comments": _link(f"{api}/pulls/{number}/comments"),
                       "review_comment": _link(f"{api}/pulls/comments{{/number}}"),
                       "commits": _link(f"{api}/pulls/{number}/commits"),
                       "statuses": _link(f"{api}/statuses/{head_sha}")},
            "author_association": "MEMBER", "auto_merge": None, "draft": draft,
        })
        self.add_issue(number, title=title, state="open", pull=True)

    def add_issue(self, number: int, *, title: str, state: str, pull: bool = False) -> None:
        api = f"https://api.github.com/repos/{self.path}"
        kind = "pull" if pull else "issues"
        doc: dict[str, Any] = {
            "id": 2000 + number, "node_id": f"I_{number}", "url": f"{api}/issues/{number}",
            "repository_url": api, "labels_url": f"{api}/issues/{number}/labels{{/name}}",
            "comments_url": f"{api}/issues/{number}/comments", "events_url": f"{api}/issues/{number}/events",
            "html_url": f"https://github.com/{self.path}/{kind}/{number}", "number": number, "state": state,
            "title": title, "body": None, "user": _user(), "labels": [], "assignee": None, "assignees": [],
            "milestone": None, "locked": False, "comments": 0, "created_at": _TIME, "updated_at": _TIME,
            "closed_at": _TIME if state == "closed" else None, "author_association": "MEMBER",
            "state_reason": "completed" if state == "closed" else None,
        }
        if pull:
            doc["pull_request"] = {"url": f"{api}/pulls/{number}", "html_url": doc["html_url"],
                                   "diff_url": f"{doc['html_url']}.diff", "patch_url": f"{doc['html_url']}.patch",
                                   "merged_at": None}
        self.issues[number] = doc


def _repository(path: str) -> dict[str, Any]:
    """A repository as GitHub's `repository` schema has it (every required member)."""
    owner, name = path.split("/")
    api = f"https://api.github.com/repos/{path}"
    doc: dict[str, Any] = {
        "id": 1 + sum(map(ord, path)), "node_id": "R_1", "name": name, "full_name": path, "private": False,
        "owner": _user(owner), "html_url": f"https://github.com/{path}", "description": None, "fork": False,
        "url": api, "clone_url": f"https://github.com/{path}.git", "git_url": f"git://github.com/{path}.git",
        "ssh_url": f"git@github.com:{path}.git", "svn_url": f"https://github.com/{path}", "homepage": None,
        "mirror_url": None, "language": None, "license": None, "default_branch": "main",
        "created_at": _TIME, "updated_at": _TIME, "pushed_at": _TIME,
    }
    for key in ("forks", "forks_count", "open_issues", "open_issues_count", "size", "stargazers_count",
                "watchers", "watchers_count"):
        doc[key] = 0
    for key in ("archived", "disabled", "has_downloads", "has_issues", "has_pages", "has_projects", "has_wiki"):
        doc[key] = key in ("has_issues", "has_downloads", "has_wiki", "has_projects")
    for key in ("archive", "assignees", "blobs", "branches", "collaborators", "comments", "commits", "compare",
                "contents", "contributors", "deployments", "downloads", "events", "forks", "git_commits",
                "git_refs", "git_tags", "hooks", "issue_comment", "issue_events", "issues", "keys", "labels",
                "languages", "merges", "milestones", "notifications", "pulls", "releases", "stargazers",
                "statuses", "subscribers", "subscription", "tags", "teams", "trees"):
        doc[f"{key}_url"] = f"{api}/{key}"
    return doc


@dataclass
class GitLabProject:
    path: str
    id: int
    merge_requests: list[dict[str, Any]] = field(default_factory=list)
    issues: dict[int, dict[str, Any]] = field(default_factory=dict)
    notes: dict[int, list[dict[str, Any]]] = field(default_factory=dict)

    def add_merge_request(self, iid: int, *, title: str, description: str, sha: str, source_branch: str,
                          target_branch: str, draft: bool = False, fork_id: int | None = None) -> None:
        self.merge_requests.append({
            "id": 5000 + iid, "iid": iid, "project_id": self.id, "title": title, "description": description,
            "state": "opened", "draft": draft, "work_in_progress": draft, "sha": sha,
            "source_branch": source_branch, "target_branch": target_branch,
            "source_project_id": fork_id or self.id, "target_project_id": self.id,
            "web_url": f"https://gitlab.com/{self.path}/-/merge_requests/{iid}",
        })

    def add_issue(self, iid: int, *, title: str, state: str) -> None:
        self.issues[iid] = {"id": 6000 + iid, "iid": iid, "project_id": self.id, "title": title,
                            "state": "closed" if state == "closed" else "opened",
                            "web_url": f"https://gitlab.com/{self.path}/-/issues/{iid}"}


@dataclass
class Fault:
    """What the server does to the next matching requests."""

    # "rate-limit", "retry-after", "hang", "5xx"; hostile ones (issue 43): "trickle" (a
    # body a byte every `seconds`), "huge" (`size` bytes, with or without a length),
    # "deep" (JSON nested `size` deep), "endless" (pages with `Link: rel="next"` for
    # ever, `size` items each), "elsewhere" (a redirect to another host)
    kind: str
    times: int = 1
    seconds: float = 0.0  # rate limits: until the reset; hang: how long
    path: str = ""  # only requests whose path starts with this
    size: int = 0
    length: bool = True  # "huge": send a Content-Length


class Forge:
    """The server's state; `with Forge() as forge:` serves it on 127.0.0.1."""

    def __init__(self, token: str | None = None, page_size: int = 30,
                 login: str | None = "github-actions[bot]") -> None:
        self.token = token
        self.page_size = page_size
        # Whom the token is: GET /user answers this login; None answers 403, as GitHub
        # does for an Actions token ("Resource not accessible by integration").
        self.login = login
        self.github: dict[str, GitHubRepo] = {}
        self.gitlab: dict[str, GitLabProject] = {}
        self.faults: list[Fault] = []
        self.log: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        self._next_id = 1
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def env(self) -> dict[str, str]:
        """The variables a CI job would have, pointed at this server."""
        env = {"GITHUB_API_URL": self.url, "CI_API_V4_URL": f"{self.url}/api/v4",
               "NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost"}
        if self.token:
            env["GITHUB_TOKEN"] = self.token
            env["GITLAB_TOKEN"] = self.token
        return env

    def repo(self, path: str) -> GitHubRepo:
        return self.github.setdefault(path, GitHubRepo(path))

    def project(self, path: str) -> GitLabProject:
        return self.gitlab.setdefault(path, GitLabProject(path, 100 + len(self.gitlab)))

    def __enter__(self) -> Forge:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def add_foreign_comment(self, path: str, number: int, text: str, login: str) -> None:
        """A comment someone else wrote (a PR's author), on GitHub or GitLab."""
        if path in self.github:
            repo = self.github[path]
            repo.comments.setdefault(number, []).append(self._github_comment(repo, number, text, login))
        else:
            self._next_id += 1
            self.gitlab[path].notes.setdefault(number, []).append(
                {"id": self._next_id, "body": text, "noteable_iid": number, "author": {"username": login}})

    def comment_bodies(self, path: str, number: int) -> list[str]:
        if path in self.github:
            return [c["body"] for c in self.github[path].comments.get(number, [])]
        return [n["body"] for n in self.gitlab[path].notes.get(number, [])]

    # The request handling.

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        forge = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def _serve(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                forge._answer(self, raw)

            do_GET = do_POST = do_PATCH = do_PUT = _serve

        return Handler

    def _answer(self, h: BaseHTTPRequestHandler, raw: bytes) -> None:
        split = urllib.parse.urlsplit(h.path)
        query = dict(urllib.parse.parse_qsl(split.query))
        body = json.loads(raw) if raw else None
        with self.lock:
            self.log.append({"method": h.command, "path": split.path, "query": query, "body": body,
                             "headers": dict(h.headers.items())})
            fault = next((f for f in self.faults if f.times > 0 and split.path.startswith(f.path)), None)
            if fault is not None:
                fault.times -= 1
        if fault is not None and self._fault(h, fault):
            return
        if self.token is not None and not self._authorised(h):
            return self._send(h, 401, {"message": "Bad credentials"})
        try:
            status, doc, headers = self._route(h.command, split.path, query, body)
        except KeyError:
            status, doc, headers = 404, {"message": "Not Found"}, {}
        self._send(h, status, doc, headers)

    def _fault(self, h: BaseHTTPRequestHandler, fault: Fault) -> bool:
        if fault.kind in ("trickle", "huge", "deep", "endless", "elsewhere"):
            self._hostile(h, fault)
            return True
        if fault.kind == "hang":
            time.sleep(fault.seconds)
            return False
        if fault.kind == "5xx":
            self._send(h, 502, {"message": "Bad Gateway"})
            return True
        if fault.kind == "retry-after":
            self._send(h, 429, {"message": "You have exceeded a secondary rate limit."},
                       {"Retry-After": str(int(fault.seconds))})
            return True
        reset = int(time.time() + fault.seconds)
        self._send(h, 403, {"message": "API rate limit exceeded"},
                   {"X-RateLimit-Limit": "5000", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": str(reset)})
        return True

    def _hostile(self, h: BaseHTTPRequestHandler, fault: Fault) -> None:
        try:
            if fault.kind == "trickle":
                data = json.dumps([{"number": 1}] * 50).encode()
                h.send_response(200)
                h.send_header("Content-Type", "application/json")
                h.send_header("Content-Length", str(len(data)))
                h.end_headers()
                for byte in data:
                    h.wfile.write(bytes([byte]))
                    h.wfile.flush()
                    time.sleep(fault.seconds)
            elif fault.kind == "huge":
                h.send_response(200)
                h.send_header("Content-Type", "application/json")
                if fault.length:
                    h.send_header("Content-Length", str(fault.size))
                else:
                    h.send_header("Connection", "close")
                    h.close_connection = True
                h.end_headers()
                block = b" " * 65536
                for _ in range(fault.size // len(block)):
                    h.wfile.write(block)
            elif fault.kind == "deep":
                self._send_raw(h, 200, b"[" * fault.size + b"]" * fault.size)
            elif fault.kind == "endless":
                split = urllib.parse.urlsplit(h.path)
                page = int(dict(urllib.parse.parse_qsl(split.query)).get("page", "1"))
                items = [{"id": page * 1000 + i, "body": f"c{page}-{i}"} for i in range(fault.size)]
                nxt = f'<{self.url}{split.path}?page={page + 1}>; rel="next"'
                self._send(h, 200, items, {"Link": nxt})
            elif fault.kind == "elsewhere":
                port = self._server.server_address[1]
                h.send_response(302)
                h.send_header("Location", f"http://localhost:{port}{h.path}")
                h.send_header("Content-Length", "0")
                h.end_headers()
        except (BrokenPipeError, ConnectionResetError, OSError):
            pass  # the client gave up, as it should

    def _send_raw(self, h: BaseHTTPRequestHandler, status: int, data: bytes) -> None:
        h.send_response(status)
        h.send_header("Content-Type", "application/json")
        h.send_header("Content-Length", str(len(data)))
        h.end_headers()
        h.wfile.write(data)

    def _authorised(self, h: BaseHTTPRequestHandler) -> bool:
        return (h.headers.get("Authorization") == f"Bearer {self.token}"
                or h.headers.get("PRIVATE-TOKEN") == self.token)

    def _route(self, method: str, path: str, query: dict[str, str], body: Any,
               ) -> tuple[int, Any, dict[str, str]]:
        parts = [urllib.parse.unquote(p) for p in path.strip("/").split("/")]
        if parts in (["user"], ["api", "v4", "user"]) and method == "GET":
            if self.login is None:
                return 403, {"message": "Resource not accessible by integration"}, {}
            return 200, (_user(self.login) if parts == ["user"] else {"id": 1, "username": self.login}), {}
        if parts[:2] == ["api", "v4"]:
            return self._gitlab(method, parts[2:], query, body)
        if parts[0] != "repos" or len(parts) < 3:
            raise KeyError(path)
        repo = self.github[f"{parts[1]}/{parts[2]}"]
        rest = parts[3:]
        if method == "GET" and not rest:
            return 200, _repository(repo.path), {}
        if method == "GET" and rest == ["pulls"]:
            pulls = [p for p in repo.pulls if query.get("state", "open") in ("open", "all")]
            return self._page(path, query, pulls)
        if method == "GET" and rest[0] == "issues" and len(rest) == 2:
            return 200, repo.issues[int(rest[1])], {}
        if rest[0] == "issues" and len(rest) == 3 and rest[2] == "comments":
            number = int(rest[1])
            if number not in repo.issues:
                raise KeyError(number)
            if method == "GET":
                return self._page(path, query, repo.comments.get(number, []))
            if method == "POST":
                comment = self._github_comment(repo, number, body["body"], self.login or "github-actions[bot]")
                repo.comments.setdefault(number, []).append(comment)
                return 201, comment, {}
        if method == "PATCH" and rest[:2] == ["issues", "comments"] and len(rest) == 3:
            for comments in repo.comments.values():
                for comment in comments:
                    if comment["id"] == int(rest[2]):
                        comment["body"] = body["body"]
                        comment["updated_at"] = _TIME
                        return 200, comment, {}
        raise KeyError(path)

    def _github_comment(self, repo: GitHubRepo, number: int, text: str, login: str) -> dict[str, Any]:
        self._next_id += 1
        api = f"https://api.github.com/repos/{repo.path}"
        return {"id": self._next_id, "node_id": f"IC_{self._next_id}",
                "url": f"{api}/issues/comments/{self._next_id}",
                "html_url": f"https://github.com/{repo.path}/pull/{number}#issuecomment-{self._next_id}",
                "body": text, "user": _user(login), "created_at": _TIME, "updated_at": _TIME,
                "issue_url": f"{api}/issues/{number}", "author_association": "NONE"}

    def _gitlab(self, method: str, parts: list[str], query: dict[str, str], body: Any,
                ) -> tuple[int, Any, dict[str, str]]:
        if parts[0] != "projects" or len(parts) < 2:
            raise KeyError(parts)
        project = self.gitlab[parts[1]]
        rest = parts[2:]
        if method == "GET" and not rest:
            return 200, {"id": project.id, "path_with_namespace": project.path}, {}
        if method == "GET" and rest == ["merge_requests"]:
            mrs = [m for m in project.merge_requests if query.get("state", "opened") in ("opened", "all")]
            return self._page("/api/v4/projects/" + urllib.parse.quote(project.path, safe="") + "/merge_requests",
                              query, mrs)
        if method == "GET" and rest[0] == "issues" and len(rest) == 2:
            return 200, project.issues[int(rest[1])], {}
        if rest[0] == "merge_requests" and len(rest) >= 2:
            iid = int(rest[1])
            mr = next((m for m in project.merge_requests if m["iid"] == iid), None)
            if mr is None:
                raise KeyError(iid)
            if method == "GET" and len(rest) == 2:
                return 200, mr, {}
            if rest[2:] == ["notes"] and method == "GET":
                return 200, project.notes.get(iid, []), {}
            if rest[2:] == ["notes"] and method == "POST":
                self._next_id += 1
                note = {"id": self._next_id, "body": body["body"], "noteable_iid": iid,
                        "author": {"username": self.login or "project_bot"}}
                project.notes.setdefault(iid, []).append(note)
                return 201, note, {}
            if len(rest) == 4 and rest[2] == "notes" and method == "PUT":
                for note in project.notes.get(iid, []):
                    if note["id"] == int(rest[3]):
                        note["body"] = body["body"]
                        return 200, note, {}
        raise KeyError(parts)

    def _page(self, path: str, query: dict[str, str], items: list[Any]) -> tuple[int, Any, dict[str, str]]:
        """One page of `items`, as many as the server chooses (page_size), whatever was
        asked for, with a Link header to the next."""
        page = int(query.get("page", "1"))
        size = self.page_size
        chunk = items[(page - 1) * size:page * size]
        headers = {}
        if page * size < len(items):
            nxt = dict(query, page=str(page + 1))
            headers["Link"] = f'<{self.url}{path}?{urllib.parse.urlencode(nxt)}>; rel="next"'
        return 200, chunk, headers

    def _send(self, h: BaseHTTPRequestHandler, status: int, doc: Any, headers: dict[str, str] | None = None) -> None:
        data = json.dumps(doc).encode()
        try:
            h.send_response(status)
            h.send_header("Content-Type", "application/json; charset=utf-8")
            h.send_header("Content-Length", str(len(data)))
            for k, v in (headers or {}).items():
                h.send_header(k, v)
            h.end_headers()
            h.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (a time-out test)
