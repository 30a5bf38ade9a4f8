"""What anchorcheck asks of a forge, whichever it is: open changes, the state of an
issue or change, and the one comment of its own on a change."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from anchorcheck.forge.http import ForgeDenied, ForgeNotFound, Http
from anchorcheck.model.issue import IssueState

# The hidden first line of the advisory comment: how a later run finds it again.
MARKER = "<!-- anchorcheck:merge-order -->"


@dataclass(frozen=True, slots=True)
class ForgeRepo:
    """A repository on a forge: its kind, its API base and its path there."""

    kind: str  # "github" or "gitlab"
    api: str  # https://api.github.com, https://gitlab.example.com/api/v4
    host: str  # github.com, gitlab.example.com: the web host its URLs use
    path: str  # OWNER/NAME (GitLab: GROUP/SUBGROUP/NAME)

    def __str__(self) -> str:
        return f"{self.host}/{self.path}"


@dataclass(frozen=True, slots=True)
class OpenChange:
    """An open pull or merge request, as the forge lists it."""

    number: int
    title: str
    body: str
    draft: bool
    head_sha: str
    head_ref: str  # the branch, in the head repo
    head_repo: str | None  # OWNER/NAME of the head repo (a fork's), None when deleted
    base_ref: str  # the branch it targets
    url: str
    fetch_ref: str  # where the forge keeps its head in the base repo: refs/pull/N/head
    fork: bool  # the head branch lives in another repository


@dataclass(frozen=True, slots=True)
class Comment:
    id: int
    body: str
    author: str | None = None  # the login (GitLab: username) that wrote it


class Rest:
    """What the REST clients share: the repository's API path (`_base`), whether it
    can be seen, and whom the token is."""

    http: Http
    _base: str
    _login_key: str  # the member of `GET /user` that is the login (GitHub: login; GitLab: username)
    _denied_login: str | None = None  # whom a token that may not ask is (an Actions token)
    _me: str | bool | None = False  # (False: not asked yet)

    def me(self) -> str | None:
        """The login the token acts as, whose comments are ours to edit (`GET /user`,
        asked once); for a token that may not ask (403), `_denied_login`."""
        if self._me is False:
            try:
                doc = self.http.get("user").body
                login = doc.get(self._login_key) if isinstance(doc, dict) else None
                self._me = str(login) if login else None
            except ForgeDenied:
                self._me = self._denied_login
        return self._me if isinstance(self._me, str) else None

    def visible(self) -> bool:
        try:
            self.http.get(self._base)
        except ForgeNotFound:
            return False
        return True


class Forge(Protocol):
    """One forge's API, for one repository at a time."""

    repo: ForgeRepo

    def open_changes(self) -> list[OpenChange]: ...

    def visible(self) -> bool:
        """Whether the repository can be seen with this token (a 404 for an issue means
        nothing when the repository itself answers 404)."""
        ...

    def issue(self, number: int, change: bool | None = None) -> IssueState | None:
        """An issue or change by number (`change`: known to be one, or not; None: either);
        None when there is none."""
        ...

    def comments(self, number: int) -> list[Comment]: ...

    def me(self) -> str | None:
        """The login the token acts as, whose comments are ours to edit; None when the
        forge will not say."""
        ...

    def create_comment(self, number: int, body: str) -> Comment: ...

    def edit_comment(self, number: int, comment_id: int, body: str) -> Comment: ...
