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
- Paging by `Link: <...>; rel="next"` headers, whatever page size the server chose, up
  to a cap (`_MAX_PAGES` pages or `_MAX_ITEMS` items, and never a page twice), past
  which the listing stops with a warning that names it.
- Bounds against a hostile or broken server (issue 43): a rate limit is waited out at
  most `_RATE_TRIES` times per request; a run's requests and rate-limit waits have a
  total (`Budget`); `timeout` is a deadline for the whole answer, not for each read (a
  server that trickles a byte at a time is cut off); a body is at most `_MAX_BODY`
  bytes; JSON nested too deeply for Python is an error of the forge; a redirect to
  another host is refused.
- Proxies from the usual variables (`https_proxy`, `no_proxy`, ...), as urllib reads them.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import threading
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
_RATE_TRIES = 5  # rate limits waited out for one request (`Retry-After: 0` looped for good)
_MAX_BODY = 8 << 20  # bytes: these APIs' pages are tens of KB; a 1 GiB body was read whole
_MAX_ERROR_BODY = 64 << 10  # of an error answer, only its message is read
_MAX_PAGES = 100  # pages of one listing (endless `Link: rel="next"`: 43,134 requests a minute)
_MAX_ITEMS = 10_000  # items of one listing
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


@dataclass
class Budget:
    """What one run may spend on the forges, across every client it makes: requests
    and seconds waiting out rate limits. Past either, requests fail at once with
    ForgeUnavailable (a check warns and goes on; merge-order stops with one line)."""

    requests: int = 5_000
    wait: float = 120.0
    warnings: list[str] | None = None  # where a listing cut short is told (None: dropped)

    def spend(self, shown: str) -> None:
        if self.requests <= 0:
            raise ForgeUnavailable(f"{shown}: not sent: this run has made as many requests to the forges as "
                                   "it may")
        self.requests -= 1

    def warn(self, text: str) -> None:
        if self.warnings is not None and text not in self.warnings:
            self.warnings.append(text)


# The budget of this process's run: the command line makes one run per process.
RUN = Budget(warnings=[])


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
        budget: Budget | None = None,
    ) -> None:
        self.base = base.rstrip("/")
        self.auth = auth
        self.timeout = timeout
        self.max_wait = max_wait
        self.budget = budget if budget is not None else Budget()
        self._sleep = sleep
        self._clock = clock
        origin = urllib.parse.urlsplit(self.base)
        self._origin = (origin.scheme, origin.netloc)

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
        """Every item of a listing, page by page, following `Link: rel="next"`, up to the
        caps; a page that repeats one before (same URL, or the same items) ends it."""
        url: str | None = self.url(path, params)
        seen: set[str] = set()
        bodies: set[str] = set()
        items = 0
        listing = f"GET {self._shown(self.url(path))}"
        while url is not None:
            if url in seen:
                self.budget.warn(f"{listing}: a page came round again; the listing stops there")
                return
            if len(seen) >= _MAX_PAGES or items >= _MAX_ITEMS:
                self.budget.warn(f"{listing}: more than {len(seen)} pages ({items} items); only those "
                                 "are read")
                return
            seen.add(url)
            answer = self.request("GET", url)
            if not isinstance(answer.body, list):
                raise ForgeError(f"GET {self._shown(url)}: expected a list, got {type(answer.body).__name__}")
            key = json.dumps(answer.body, sort_keys=True)
            if answer.body and key in bodies:
                self.budget.warn(f"{listing}: a page came round again; the listing stops there")
                return
            bodies.add(key)
            yield from answer.body[:_MAX_ITEMS - items]
            items += len(answer.body)
            url = self._next(answer.headers.get("link", ""))

    def request(self, method: str, url: str, body: Mapping[str, Any] | None = None) -> Response:
        if (urllib.parse.urlsplit(url).scheme, urllib.parse.urlsplit(url).netloc) != self._origin:
            raise ForgeError(f"{method} {self._shown(url)}: not on {self.base}; not sent")
        data = None if body is None else json.dumps(body).encode()
        retries = 0
        waited = 0.0
        limited = 0
        while True:
            self.budget.spend(f"{method} {self._shown(url)}")
            try:
                return self._once(method, url, data)
            except _Retry as why:
                if why.wait is not None:  # a rate limit
                    limited += 1
                    if waited + why.wait > self.max_wait or why.wait > self.budget.wait \
                            or limited > _RATE_TRIES:
                        raise ForgeUnavailable(self.scrub(why.message)) from None
                    self._sleep(why.wait)
                    waited += why.wait
                    self.budget.wait -= why.wait
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
        late = f"{shown}: no answer within {self.timeout:g} s (a deadline for the whole answer)"
        # The deadline of the whole answer: past it, the connection is shut, which ends
        # a read blocked on a server that trickles (each read alone would not time out).
        with _Deadline(self.timeout) as deadline:
            opener = urllib.request.build_opener(_SameHostRedirects(self._origin, self.auth),
                                                 _Http(deadline), _Https(deadline))
            try:
                with opener.open(req, timeout=self.timeout) as answer:
                    raw = _read_capped(answer, _MAX_BODY, shown)
                    status, headers = answer.status, _lower(answer.headers)
                if deadline.fired:  # (the shut connection read as the body's end)
                    raise ForgeUnavailable(late)
            except urllib.error.HTTPError as err:
                headers = _lower(err.headers)
                raw = _read_quietly(err)
                if deadline.fired:
                    raise ForgeUnavailable(late) from None
                raise self._failure(shown, err.code, headers, raw) from None
            except ForgeError:
                raise
            except TimeoutError:
                raise ForgeUnavailable(late) from None
            except urllib.error.URLError as err:
                if isinstance(err.reason, TimeoutError) or deadline.fired:
                    raise ForgeUnavailable(late) from None
                raise _Retry(self.scrub(f"{shown}: {err.reason}")) from None
            except (OSError, http.client.HTTPException) as err:
                if deadline.fired:
                    raise ForgeUnavailable(late) from None
                raise _Retry(self.scrub(f"{shown}: {type(err).__name__}: {err}")) from None
        try:
            body = json.loads(raw) if raw.strip() else None
        except ValueError:
            raise ForgeError(f"{shown}: the answer is not JSON") from None
        except RecursionError:
            raise ForgeError(f"{shown}: the answer's JSON is nested too deeply to read") from None
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
    """Follows a redirect that stays on the API's origin, with the token; refuses one
    to another host (its answer would be taken for the forge's, and the token rule
    already says the API lives at one origin)."""

    def __init__(self, origin: tuple[str, str], auth: Auth | None) -> None:
        self._origin = origin
        self._auth = auth

    def redirect_request(
        self, req: urllib.request.Request, fp: Any, code: int, msg: str, headers: http.client.HTTPMessage,
        newurl: str,
    ) -> urllib.request.Request | None:
        split = urllib.parse.urlsplit(urllib.parse.urljoin(req.full_url, newurl))
        if (split.scheme, split.netloc) != self._origin:
            shown = f"{req.get_method()} {urllib.parse.urlsplit(req.full_url).path}"
            raise ForgeError(f"{shown}: redirected to another host ({split.netloc}); not followed")
        new = super().redirect_request(req, fp, code, msg, headers, newurl)
        if new is not None and self._auth is not None:
            new.add_unredirected_header(self._auth.header, self._auth.value)
        return new


class _Deadline:
    """Shuts the sockets of one request when its time is up."""

    def __init__(self, seconds: float) -> None:
        self.fired = False
        self._socks: list[socket.socket] = []
        self._lock = threading.Lock()
        self._timer = threading.Timer(seconds, self._fire)
        self._timer.daemon = True

    def __enter__(self) -> _Deadline:
        self._timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._timer.cancel()

    def watch(self, sock: socket.socket | None) -> None:
        with self._lock:
            if sock is not None:
                self._socks.append(sock)
            if self.fired:
                self._shut()

    def _fire(self) -> None:
        with self._lock:
            self.fired = True
            self._shut()

    def _shut(self) -> None:
        for sock in self._socks:
            with contextlib.suppress(OSError):  # (closed already)
                sock.shutdown(socket.SHUT_RDWR)


def _watched(base: type[http.client.HTTPConnection], deadline: _Deadline) -> Any:
    class Watched(base):  # type: ignore[valid-type,misc]
        def connect(self) -> None:
            super().connect()
            deadline.watch(self.sock)

    return Watched


class _Http(urllib.request.HTTPHandler):
    def __init__(self, deadline: _Deadline) -> None:
        super().__init__()
        self._deadline = deadline

    def http_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        return self.do_open(_watched(http.client.HTTPConnection, self._deadline), req)


class _Https(urllib.request.HTTPSHandler):
    def __init__(self, deadline: _Deadline) -> None:
        super().__init__()
        self._deadline = deadline

    def https_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        return self.do_open(_watched(http.client.HTTPSConnection, self._deadline), req)


def _read_capped(answer: Any, cap: int, shown: str) -> bytes:
    """The body, read a buffer at a time (each read returns what has come), at most
    `cap` bytes: a larger one is an error, and is not read whole first."""
    length = answer.headers.get("Content-Length")
    if length is not None and length.strip().isdigit() and int(length) > cap:
        raise ForgeError(f"{shown}: the answer is {int(length) >> 20} MB, over the {cap >> 20} MB read; "
                         "not read")
    parts: list[bytes] = []
    size = 0
    while True:
        chunk = answer.read1(65536)
        if not chunk:
            return b"".join(parts)
        size += len(chunk)
        if size > cap:
            raise ForgeError(f"{shown}: the answer is over the {cap >> 20} MB read; not read")
        parts.append(chunk)


def _exhausted(headers: Mapping[str, str]) -> bool:
    remaining = headers.get("x-ratelimit-remaining") or headers.get("ratelimit-remaining")
    return remaining is not None and remaining.strip() == "0"


def _lower(headers: Message | None) -> dict[str, str]:
    return {k.lower(): v for k, v in (headers.items() if headers is not None else [])}


def _read_quietly(err: urllib.error.HTTPError) -> bytes:
    try:
        return err.read(_MAX_ERROR_BODY)
    except (OSError, ValueError, http.client.HTTPException):
        return b""


def _message(raw: bytes) -> str:
    """The `message` (GitHub) or `message`/`error` (GitLab) of an error body, short."""
    try:
        doc = json.loads(raw)
    except (ValueError, RecursionError):
        return ""
    said = doc.get("message") or doc.get("error") if isinstance(doc, dict) else None
    return " ".join(str(said).split())[:200] if said else ""


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    return f"{seconds / 60:.0f} min"
