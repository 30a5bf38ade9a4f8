"""GitHub's REST API (v3), for one repository: pulls, issues, issue comments.

The endpoints and shapes are GitHub's documented ones (github/rest-api-description):
`GET /repos/{owner}/{repo}/pulls?state=open` (pull-request-simple), `GET
/repos/{owner}/{repo}/issues/{n}` (issue; pull requests are issues too, with a
`pull_request` member), `GET|POST /repos/{owner}/{repo}/issues/{n}/comments` and
`PATCH /repos/{owner}/{repo}/issues/comments/{id}` (issue-comment).
"""

from __future__ import annotations

import urllib.parse
from typing import Any

from anchorcheck.forge.base import Comment, ForgeRepo, OpenChange, Rest
from anchorcheck.forge.http import ForgeError, ForgeGone, ForgeNotFound, ForgeUnavailable, Http
from anchorcheck.model.issue import IssueState

_PAGE = 100  # asked for; the server may send fewer, and Link says where the rest are


class GitHub(Rest):
    def __init__(self, repo: ForgeRepo, http: Http, in_actions: bool = False) -> None:
        self.repo = repo
        self.http = http
        self._login_key = "login"
        # An Actions job's token may not ask `GET /user`; its comments are this login's.
        self._denied_login = "github-actions[bot]" if in_actions else None
        self._base = "repos/" + "/".join(urllib.parse.quote(p, safe="") for p in repo.path.split("/"))

    def open_changes(self) -> list[OpenChange]:
        return [self._change(item) for item in self.http.pages(f"{self._base}/pulls",
                                                                {"state": "open", "per_page": _PAGE})]

    def _change(self, item: Any) -> OpenChange:
        try:
            number = int(item["number"])
            head, base = item["head"], item["base"]
            head_repo = (head.get("repo") or {}).get("full_name")
            base_repo = (base.get("repo") or {}).get("full_name")
            return OpenChange(
                number=number, title=str(item.get("title") or ""), body=str(item.get("body") or ""),
                draft=bool(item.get("draft")), head_sha=str(head["sha"]), head_ref=str(head["ref"]),
                head_repo=head_repo, base_ref=str(base["ref"]), url=str(item.get("html_url") or ""),
                fetch_ref=f"refs/pull/{number}/head",
                fork=head_repo is None or (base_repo is not None and head_repo.lower() != base_repo.lower()),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ForgeError(f"{self.repo}: a pull request not as GitHub documents it ({exc!r})") from None

    def issue(self, number: int, change: bool | None = None) -> IssueState | None:
        try:
            doc = self.http.get(f"{self._base}/issues/{number}").body
        except ForgeGone as gone:
            if "disabled" in str(gone).lower():  # the repo has its issues off: nothing is known
                raise ForgeUnavailable(f"{self.repo}: issues are turned off there") from None
            return None  # deleted
        except ForgeNotFound:
            return None
        try:
            is_change = "pull_request" in doc and doc["pull_request"] is not None
            return IssueState(int(doc["number"]), "closed" if doc["state"] == "closed" else "open", is_change,
                              str(doc.get("title") or ""), str(doc.get("html_url") or ""))
        except (KeyError, TypeError, ValueError) as exc:
            raise ForgeError(f"{self.repo}: issue {number} not as GitHub documents it ({exc!r})") from None

    def comments(self, number: int) -> list[Comment]:
        return [_comment(c) for c in self.http.pages(f"{self._base}/issues/{number}/comments",
                                                      {"per_page": _PAGE})]

    def create_comment(self, number: int, body: str) -> Comment:
        return _comment(self.http.send("POST", f"{self._base}/issues/{number}/comments", {"body": body}).body)

    def edit_comment(self, number: int, comment_id: int, body: str) -> Comment:
        answer = self.http.send("PATCH", f"{self._base}/issues/comments/{comment_id}", {"body": body})
        return _comment(answer.body)


def _comment(doc: Any) -> Comment:
    """A GitHub issue comment (its author in `user.login`) or a GitLab note (`author.username`)."""
    try:
        who = doc.get("user") or doc.get("author") or {}
        author = who.get("login") or who.get("username") if isinstance(who, dict) else None
        return Comment(int(doc["id"]), str(doc.get("body") or ""), str(author) if author else None)
    except (KeyError, TypeError, ValueError) as exc:
        raise ForgeError(f"a comment not as the forge documents it ({exc!r})") from None
