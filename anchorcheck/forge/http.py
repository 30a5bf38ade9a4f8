"""HTTP for the forges: the standard library's urllib, with what a CI job needs of it.

- A token goes in a header only, never in a URL, and never into a message: every
  error text passes through `Http.scrub`. It is not sent on to another host when a
  server redirects (urllib would copy it), nor to a `Link` page on another origin.
- Time-outs on every request; 5xx answers are tried again three times, with backoff,
  and a refused or dropped connection once; a time-out is not (a server that hangs
  would hold the run for every retry).
- Rate limits (403/429 with `Retry-After`, or `X-RateLimit-Remaining: 0` with
  `X-RateLimit-Reset`, as GitHub and GitLab send them): waited out when the wait is
  short, else one clear error that says when the limit resets.
- Paging by `Link: <...>; rel="next"` headers, whatever page size the server chose.
- Proxies from the usual variables (`https_proxy`, `no_proxy`, ...), as urllib reads them.
"""

from __future__ import annotations

import http.client
import json
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from email.message import Message
from typing import Any

from anchorcheck.errors import AnchorcheckError

_RETRIES = 3  # after the first try, for 5xx and dropped connections
_BACKOFF = 0.5  # seconds before the first retry; doubled for each one after it
_USER_AGENT = "anchorcheck (+https://github.com/anchorcheck/anchorcheck)"


class ForgeError(AnchorcheckError):
    """A forge could not answer: its message names the request, never the token."""


class ForgeUnavailable(ForgeError):
    """The network, a 5xx after retries, a time-out or a rate limit: nothing is known
    of what was asked. A check warns and skips what needed the answer."""


class ForgeDenied(ForgeError):
    """401, or a 403 that is no rate limit: the token is missing, wrong or too weak."""


class ForgeNotFound(ForgeError):
    """404: no such thing, or a private one the token cannot see."""


class ForgeGone(ForgeNotFound):
    """410: deleted, transferred, or (GitHub) a repository with its issues turned off."""


@dataclass(frozen=True, slots=True)
class Response:
    status: int
    headers: Mapping[str, str]  # names in lower case
    body: Any  # decoded JSON; None for an empty body


@dataclass(frozen=True, slots=True)
class Auth:
    """How a token is sent: GitHub's `Authorization: Bearer`, GitLab's
    `PRIVATE-TOKEN` or `JOB-TOKEN`."""

    header: str
    value: str
    token: str  # the secret itself, to scrub from messages


class Http:
    """Requests against one API base (`https://api.github.com`, `.../api/v4`)."""

    def __init__(
        self, base: str, auth: Auth | None = None, *, timeout: float = 10.0, max_wait: float = 60.0,
        sleep: Callable[[float], None] = time.sleep, clock: Callable[[], float] = time.time,
    ) -> None:
        self.base = base.rstrip("/")
        self.auth = auth
        self.timeout = timeout
        self.max_wait = max_wait
        self._sleep = sleep
        self._clock = clock
        origin = urllib.parse.urlsplit(self.base)
        self._origin = (origin.scheme, origin.netloc)
        self._opener = urllib.request.build_opener(_SameHostRedirects(self._origin, auth))

    def scrub(self, text: str) -> str:
        """`text` with the token (should a server echo it) replaced."""
        if self.auth is not None and self.auth.token:
            text = text.replace(self.auth.token, "***")
        return text

    def url(self, path: str, params: Mapping[str, str | int] | None = None) -> str:
        query = f"?{urllib.parse.urlencode(params)}" if params else ""
        return f"{self.base}/{path.lstrip('/')}{query}"

    def get(self, path: str, params: Mapping[str, str | int] | None = None) -> Response:
        return self.request("GET", self.url(path, params))

    def send(self, method: str, path: str, body: Mapping[str, Any]) -> Response:
        return self.request(method, self.url(path), body)

    def pages(self, path: str, params: Mapping[str, str | int] | None = None) -> Iterator[Any]:
        """Every item of a listing, page by page, following `Link: rel="next"`."""
        url: str | None = self.url(path, params)
        seen: set[str] = set()
        while url is not None and url not in seen:
            seen.add(url)
            answer = self.request("GET", url)
            if not isinstance(answer.body, list):
                raise ForgeError(f"GET {self._shown(url)}: expected a list, got {type(answer.body).__name__}")
            yield from answer.body
            url = self._next(answer.headers.get("link", ""))

    def request(self, method: str, url: str, body: Mapping[str, Any] | None = None) -> Response:
        if (urllib.parse.urlsplit(url).scheme, urllib.parse.urlsplit(url).netloc) != self._origin:
            raise ForgeError(f"{method} {self._shown(url)}: not on {self.base}; not sent")
        data = None if body is None else json.dumps(body).encode()
        retries = 0
        waited = 0.0
        while True:
            try:
                return self._once(method, url, data)
            except _Retry as why:
                if why.wait is not None:  # a rate limit
                    if waited + why.wait > self.max_wait:
                        raise ForgeUnavailable(self.scrub(why.message)) from None
                    self._sleep(why.wait)
                    waited += why.wait
                    continue
                if retries >= (_RETRIES if why.server else 1):
                    raise ForgeUnavailable(self.scrub(f"{why.message} (after {retries + 1} tries)")) from None
                self._sleep(_BACKOFF * 2 ** retries)
                retries += 1

    def _once(self, method: str, url: str, data: bytes | None) -> Response:
        shown = f"{method} {self._shown(url)}"
        req = urllib.request.Request(url, data=data, method=method)
        req.add_header("Accept", "application/json")
        req.add_header("User-Agent", _USER_AGENT)
        if data is not None:
            req.add_header("Content-Type", "application/json")
        if self.auth is not None:
            # Unredirected: urllib copies ordinary headers onto a redirect to any host.
            req.add_unredirected_header(self.auth.header, self.auth.value)
        try:
            with self._opener.open(req, timeout=self.timeout) as answer:
                raw = answer.read()
                status, headers = answer.status, _lower(answer.headers)
        except urllib.error.HTTPError as err:
            headers = _lower(err.headers)
            raw = _read_quietly(err)
            raise self._failure(shown, err.code, headers, raw) from None
        except TimeoutError:
            raise ForgeUnavailable(f"{shown}: no answer within {self.timeout:g} s") from None
        except urllib.error.URLError as err:
            if isinstance(err.reason, TimeoutError):
                raise ForgeUnavailable(f"{shown}: no answer within {self.timeout:g} s") from None
            raise _Retry(self.scrub(f"{shown}: {err.reason}")) from None
        except (ConnectionError, http.client.HTTPException) as err:
            raise _Retry(self.scrub(f"{shown}: {type(err).__name__}: {err}")) from None
        try:
            body = json.loads(raw) if raw.strip() else None
        except ValueError:
            raise ForgeError(f"{shown}: the answer is not JSON") from None
        return Response(status, headers, body)

    def _failure(self, shown: str, status: int, headers: Mapping[str, str], raw: bytes) -> Exception:
        said = self.scrub(_message(raw))
        detail = f"{shown}: HTTP {status}" + (f" ({said})" if said else "")
        wait = self._rate_limit_wait(status, headers)
        if wait is not None:
            resets = time.strftime("%H:%M:%S UTC", time.gmtime(self._clock() + wait))
            return _Retry(f"{detail}: rate limited; the limit resets in {_duration(wait)}, at {resets}", wait)
        if status >= 500:
            return _Retry(detail, server=True)
        if status == 401 or status == 403:
            return ForgeDenied(f"{detail}: the token is missing or may not do this")
        if status == 410:
            return ForgeGone(detail)
        if status == 404:
            return ForgeNotFound(detail)
        return ForgeError(detail)

    def _rate_limit_wait(self, status: int, headers: Mapping[str, str]) -> float | None:
        """Seconds until a rate limit lifts, or None when this is no rate limit."""
        if status not in (403, 429):
            return None
        after = headers.get("retry-after", "").strip()
        if after.isdigit():
            return float(after)
        reset = headers.get("x-ratelimit-reset") or headers.get("ratelimit-reset")
        if reset and reset.strip().isdigit() and (status == 429 or _exhausted(headers)):
            return max(0.0, float(reset.strip()) - self._clock()) + 1.0  # the reset's own second
        return 60.0 if status == 429 else None

    def _next(self, link: str) -> str | None:
        for part in link.split(","):
            target, _, rest = part.partition(";")
            if 'rel="next"' in rest.replace(" ", ""):
                url = target.strip().removeprefix("<").removesuffix(">")
                split = urllib.parse.urlsplit(url)
                return url if (split.scheme, split.netloc) == self._origin else None
        return None

    def _shown(self, url: str) -> str:
        """A URL as messages show it: the path and query only."""
        split = urllib.parse.urlsplit(url)
        return self.scrub(split.path + (f"?{split.query}" if split.query else ""))


class _Retry(Exception):
    """A failure worth another try: after `wait` seconds (a rate limit), or after a
    backoff (`wait` None)."""

    def __init__(self, message: str, wait: float | None = None, server: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.wait = wait
        # A 5xx: the server is there and may recover. A refused or dropped connection
        # is tried once more only: offline, three backoffs cost every forge 3.5 s.
        self.server = server


class _SameHostRedirects(urllib.request.HTTPRedirectHandler):
    """Follows a redirect, with the token only when it stays on the API's origin."""

    def __init__(self, origin: tuple[str, str], auth: Auth | None) -> None:
        self._origin = origin
        self._auth = auth

    def redirect_request(
        self, req: urllib.request.Request, fp: Any, code: int, msg: str, headers: http.client.HTTPMessage,
        newurl: str,
    ) -> urllib.request.Request | None:
        new = super().redirect_request(req, fp, code, msg, headers, newurl)
        split = urllib.parse.urlsplit(newurl)
        if new is not None and self._auth is not None and (split.scheme, split.netloc) == self._origin:
            new.add_unredirected_header(self._auth.header, self._auth.value)
        return new


def _exhausted(headers: Mapping[str, str]) -> bool:
    remaining = headers.get("x-ratelimit-remaining") or headers.get("ratelimit-remaining")
    return remaining is not None and remaining.strip() == "0"


def _lower(headers: Message | None) -> dict[str, str]:
    return {k.lower(): v for k, v in (headers.items() if headers is not None else [])}


def _read_quietly(err: urllib.error.HTTPError) -> bytes:
    try:
        return err.read()
    except (OSError, ValueError):
        return b""


def _message(raw: bytes) -> str:
    """The `message` (GitHub) or `message`/`error` (GitLab) of an error body, short."""
    try:
        doc = json.loads(raw)
    except ValueError:
        return ""
    said = doc.get("message") or doc.get("error") if isinstance(doc, dict) else None
    return " ".join(str(said).split())[:200] if said else ""


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    return f"{seconds / 60:.0f} min"
