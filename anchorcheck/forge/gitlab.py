"""GitLab's REST API (v4), for one project: merge requests, issues, notes.

`GET /projects/:id/merge_requests?state=opened`, `GET /projects/:id/issues/:iid`,
`GET /projects/:id/merge_requests/:iid`, and an MR's notes (`GET|POST
/projects/:id/merge_requests/:iid/notes`, `PUT .../notes/:note_id`). The project id is
its URL-encoded path. A merge request's head is kept in the project at
`refs/merge-requests/:iid/head`, forks' too.
"""

from __future__ import annotations

import urllib.parse
from typing import Any

from anchorcheck.forge.base import Comment, ForgeRepo, OpenChange, Rest
from anchorcheck.forge.github import _comment
from anchorcheck.forge.http import ForgeError, ForgeNotFound, Http
from anchorcheck.model.issue import IssueState

_PAGE = 100


class GitLab(Rest):
    def __init__(self, repo: ForgeRepo, http: Http) -> None:
        self.repo = repo
        self.http = http
        self._base = "projects/" + urllib.parse.quote(repo.path, safe="")
        self._login_key = "username"  # (a job token may not ask: no login, nothing posted)

    def open_changes(self) -> list[OpenChange]:
        return [self._change(item) for item in self.http.pages(f"{self._base}/merge_requests",
                                                                {"state": "opened", "per_page": _PAGE})]

    def _change(self, item: Any) -> OpenChange:
        try:
            iid = int(item["iid"])
            fork = item.get("source_project_id") != item.get("target_project_id")
            draft = bool(item.get("draft", item.get("work_in_progress", False)))
            return OpenChange(
                number=iid, title=str(item.get("title") or ""), body=str(item.get("description") or ""),
                draft=draft, head_sha=str(item["sha"]), head_ref=str(item["source_branch"]),
                head_repo=None if not fork else str(item.get("source_project_id")),
                base_ref=str(item["target_branch"]), url=str(item.get("web_url") or ""),
                fetch_ref=f"refs/merge-requests/{iid}/head", fork=fork,
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ForgeError(f"{self.repo}: a merge request not as GitLab documents it ({exc!r})") from None

    def issue(self, number: int, change: bool | None = None) -> IssueState | None:
        # `#N` is an issue on GitLab and `!N` a merge request; a URL says which.
        kinds = ["merge_requests"] if change else ["issues"] if change is False else ["issues",
                                                                                    "merge_requests"]
        for kind in kinds:
            try:
                doc = self.http.get(f"{self._base}/{kind}/{number}").body
            except ForgeNotFound:
                continue
            try:
                state = "open" if doc["state"] in ("opened", "locked") else "closed"
                return IssueState(int(doc["iid"]), state, kind == "merge_requests",
                                  str(doc.get("title") or ""), str(doc.get("web_url") or ""))
            except (KeyError, TypeError, ValueError) as exc:
                raise ForgeError(f"{self.repo}: {kind} {number} not as GitLab documents it ({exc!r})") \
                    from None
        return None

    def comments(self, number: int) -> list[Comment]:
        return [_comment(c) for c in self.http.pages(f"{self._base}/merge_requests/{number}/notes",
                                                      {"per_page": _PAGE})]

    def create_comment(self, number: int, body: str) -> Comment:
        answer = self.http.send("POST", f"{self._base}/merge_requests/{number}/notes", {"body": body})
        return _comment(answer.body)

    def edit_comment(self, number: int, comment_id: int, body: str) -> Comment:
        return _comment(self.http.send("PUT", f"{self._base}/merge_requests/{number}/notes/{comment_id}",
                                       {"body": body}).body)
