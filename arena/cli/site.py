"""Talking to a Meeple Arena site: the stored credentials and a small HTTP client of its REST API.

Credentials live in ``$XDG_CONFIG_HOME/meeple-arena/credentials.json`` (else
``~/.config/meeple-arena/``): the file mode 0600 in a folder of mode 0700, as other CLIs keep
their tokens. ``ARENA_URL`` and ``ARENA_TOKEN`` override what is stored (CI jobs).

Every failure of the site is a :class:`SiteError`: one line for the user and the exit code
(docs/cli.md): 2 for what the user can fix (a wrong URL, a refused token, an unknown bot or
match, a refused upload), 3 for what they cannot (the site unreachable, a server error, a rate
limit: try again later). The token never appears in a message.
"""

from __future__ import annotations

import contextlib
import functools
import gzip
import http.client
import json
import os
import socket
import ssl
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any
from urllib import error as urlerror
from urllib import parse, request

from arena.cli.redirects import OPENER, RedirectRefused
from arena.cli.shared import EXIT_BAD_INPUT, EXIT_SYSTEM, stderr

CREDENTIALS = "credentials.json"
USER_AGENT = "meeple-arena-cli/1"
#: Seconds to wait for the site to answer one request.
TIMEOUT_S = 60.0


class SiteError(Exception):
    """A request to the site that failed: ``str()`` is the one line shown, ``exit_code`` the
    code the command returns."""

    def __init__(self, message: str, exit_code: int = EXIT_SYSTEM, status: int = 0) -> None:
        super().__init__(message)
        self.exit_code = exit_code
        #: The HTTP status the site answered (0: no answer).
        self.status = status


def not_logged_in() -> SiteError:
    return SiteError("not logged in: run `arena login URL` first", EXIT_BAD_INPUT)


# -- credentials ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Credentials:
    url: str
    token: str
    username: str = ""


def config_dir() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "meeple-arena"


def credentials_path() -> Path:
    return config_dir() / CREDENTIALS


def load_credentials() -> Credentials | None:
    """The stored credentials, with ``ARENA_URL``/``ARENA_TOKEN`` taking precedence; None when
    there is no token."""
    stored: dict[str, Any] = {}
    path = credentials_path()
    if path.is_file():
        try:
            stored = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise SiteError(
                f"{path}: unreadable ({exc}); run `arena login URL` again", EXIT_BAD_INPUT
            ) from None
        if not isinstance(stored, dict):
            stored = {}
    url = os.environ.get("ARENA_URL") or stored.get("url") or ""
    token = os.environ.get("ARENA_TOKEN") or stored.get("token") or ""
    if not url or not token:
        return None
    username = stored.get("username", "") if url == stored.get("url") else ""
    return Credentials(normalise_url(url), token, str(username or ""))


def save_credentials(creds: Credentials) -> Path:
    """Write the credentials readable by this user only (folder 0700, file 0600), never through
    a link: a temporary file made new (``O_EXCL``) in the folder replaces the old file, so a
    link planted at the path is replaced, not written through (its target is left alone)."""
    folder = config_dir()
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    try:
        dir_fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    except OSError as exc:
        message = f"{folder}: not a folder of yours ({exc.strerror})"
        raise SiteError(message, EXIT_BAD_INPUT) from None
    try:
        if os.fstat(dir_fd).st_uid != os.getuid():
            raise SiteError(f"{folder}: the folder belongs to another user", EXIT_BAD_INPUT)
        os.fchmod(dir_fd, 0o700)  # an existing folder made by something else keeps no wider mode
        body = json.dumps({"url": creds.url, "token": creds.token, "username": creds.username})
        temp = f".{CREDENTIALS}.{uuid.uuid4().hex}"
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
        fd = os.open(temp, flags, 0o600, dir_fd=dir_fd)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(body)
                f.flush()
                os.fsync(f.fileno())
            os.replace(temp, CREDENTIALS, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temp, dir_fd=dir_fd)
            raise
    finally:
        os.close(dir_fd)
    return folder / CREDENTIALS


def forget_credentials() -> bool:
    """Delete the stored credentials; False when there were none."""
    try:
        credentials_path().unlink()
    except FileNotFoundError:
        return False
    return True


def normalise_url(text: str) -> str:
    """``https://host[:port][/prefix]`` without a trailing slash; a clear error otherwise."""
    parts = parse.urlsplit(text.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise SiteError(
            f"{text!r} is not a site's address: give it as https://host or http://host:port",
            EXIT_BAD_INPUT,
        )
    return parse.urlunsplit((parts.scheme, parts.netloc, parts.path.rstrip("/"), "", ""))


# -- the HTTP client --------------------------------------------------------------------------


@dataclass(frozen=True)
class Upload:
    """A file sent as a multipart field."""

    field: str
    filename: str
    data: bytes


class Site:
    """The REST API of one site, with the caller's token (or none)."""

    def __init__(self, url: str, token: str | None = None, timeout: float = TIMEOUT_S) -> None:
        self.url = normalise_url(url)
        self.token = token
        self.timeout = timeout
        #: The address the last answer came from, after any redirect.
        self.answered_from = ""

    @classmethod
    def logged_in(cls) -> Site:
        creds = load_credentials()
        if creds is None:
            raise not_logged_in()
        return cls(creds.url, creds.token)

    def get(self, path: str, query: dict[str, Any] | None = None) -> Any:
        return self.call("GET", path, query=query)

    def check(self) -> None:
        """That the address is a Meeple Arena site's (its API answers JSON), taking up the new
        address when the whole site redirects (``http://`` to ``https://`` of the same host, or
        to another path of it: arena/cli/redirects.py refuses any other host)."""
        probe = "/api/games/"
        self.get(probe)
        final = self.answered_from.split("?")[0]
        if final.endswith(probe) and final != self.url + probe:
            self.url = normalise_url(final[: -len(probe)])

    def get_all(self, path: str, query: dict[str, Any] | None = None) -> list[Any]:
        """Every row of a list: a plain list, or page-number pages (``results``, ``next``)."""
        rows: list[Any] = []
        page: Any = self.get(path, query)
        if isinstance(page, list):
            return page
        while True:
            if not isinstance(page, dict) or not isinstance(page.get("results"), list):
                raise not_the_api(self.url, f"GET {path}")
            rows.extend(page["results"])
            if not page.get("next"):
                return rows
            # The next page on this site only: its query, never its host.
            page = self.get(path, dict(parse.parse_qsl(parse.urlsplit(page["next"]).query)))

    def call(
        self,
        method: str,
        path: str,
        *,
        query: dict[str, Any] | None = None,
        body: Any = None,
        upload: Upload | None = None,
        fields: dict[str, str] | None = None,
    ) -> Any:
        """One request; the decoded JSON answer, or a :class:`SiteError`."""
        url = self.url + path + (f"?{parse.urlencode(query)}" if query else "")
        headers = {"Accept": "application/json", "Accept-Encoding": "gzip"}
        data: bytes | None = None
        if upload is not None:
            data, headers["Content-Type"] = multipart(fields or {}, upload)
        elif body is not None:
            data, headers["Content-Type"] = json.dumps(body).encode(), "application/json"
        req = request.Request(url, data=data, method=method, headers=headers)
        req.add_header("User-Agent", USER_AGENT)
        if self.token:
            # Unredirected: a redirect to another host never carries the token.
            req.add_unredirected_header("Authorization", f"Token {self.token}")
        status, answer, raw = self._send(req)
        if status >= 400:
            raise http_error(status, answer, raw, self.url, f"{method} {path}")
        if not isinstance(answer, dict | list):
            raise not_the_api(self.url, f"{method} {path}")
        return answer

    def _send(self, req: request.Request) -> tuple[int, Any, http.client.HTTPResponse | None]:
        try:
            with OPENER.open(req, timeout=self.timeout) as resp:
                self.answered_from = resp.geturl()
                return resp.status, _decoded(resp), resp
        except urlerror.HTTPError as exc:
            return exc.code, _decoded(exc), exc  # type: ignore[return-value]
        except RedirectRefused as exc:
            raise SiteError(str(exc), EXIT_BAD_INPUT) from None
        except (urlerror.URLError, OSError, http.client.HTTPException) as exc:
            reason = getattr(exc, "reason", None) or exc
            if isinstance(reason, ssl.SSLError) and reason.reason == "WRONG_VERSION_NUMBER":
                # What a plain-HTTP server answers a TLS greeting with: the address is wrong.
                http_url = "http://" + self.url.split("://", 1)[1]
                raise SiteError(
                    f"cannot reach {self.url}: it does not speak HTTPS (try {http_url})",
                    EXIT_BAD_INPUT,
                ) from None
            raise SiteError(f"cannot reach {self.url}: {_one_line(reason)}") from None


def _decoded(resp: Any) -> Any:
    """The JSON body of an answer, or None when it is not JSON."""
    try:
        raw = resp.read()
        if (resp.headers.get("Content-Encoding") or "").lower() == "gzip":
            raw = gzip.decompress(raw)
    except (OSError, EOFError, http.client.HTTPException):
        return None
    if "json" not in (resp.headers.get("Content-Type") or ""):
        return None
    try:
        return json.loads(raw)
    except ValueError:
        return None


def multipart(fields: dict[str, str], upload: Upload) -> tuple[bytes, str]:
    """A ``multipart/form-data`` body and its content type."""
    boundary = f"arena-{uuid.uuid4().hex}"
    parts: list[bytes] = []
    for name, value in fields.items():
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'.encode()
            + value.encode()
            + b"\r\n"
        )
    filename = upload.filename.replace('"', "_").replace("\r", "_").replace("\n", "_")
    parts.append(
        f"--{boundary}\r\nContent-Disposition: form-data; "
        f'name="{upload.field}"; filename="{filename}"\r\n'
        "Content-Type: application/octet-stream\r\n\r\n".encode()
        + upload.data
        + b"\r\n"
    )
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


# -- errors as one line -----------------------------------------------------------------------


def not_the_api(url: str, what: str, status: int = 0) -> SiteError:
    answered = f"answered HTTP {status}, not" if status else "did not answer"
    return SiteError(
        f"{url} does not look like a Meeple Arena site ({what} {answered} the API's JSON)",
        EXIT_BAD_INPUT,
        status,
    )


def http_error(status: int, answer: Any, resp: Any, url: str, what: str) -> SiteError:
    """The one line for an HTTP error answer."""
    detail = describe(answer)
    if status == 401:
        detail = detail or "not authenticated"
        message = f"{url} refused the token ({detail}): run `arena login {url}`"
        return SiteError(message, EXIT_BAD_INPUT, status)
    if status == 403:
        message = (
            f"{url} refused: {detail or 'forbidden'} (logged in as someone else? "
            f"`arena login {url}`)"
        )
        return SiteError(message, EXIT_BAD_INPUT, status)
    if status == 429:
        wait = retry_after(resp.headers.get("Retry-After") if resp is not None else None)
        # DRF's detail only restates the wait; another refusal (a locked log-in) says why.
        if wait is not None:
            minutes = f" (about {round(wait / 60)} min)" if wait >= 120 else ""
            message = f"{url} limits requests: retry in {wait} s{minutes}"
        else:
            message = f"{url} limits requests: {detail or 'too many requests'}; retry later"
        return SiteError(message, EXIT_SYSTEM, status)
    if status >= 500:
        return SiteError(f"{url} failed (HTTP {status}) on {what}; try again later", status=status)
    if answer is None:
        return not_the_api(url, what, status)
    return SiteError(detail or f"HTTP {status} on {what}", EXIT_BAD_INPUT, status)


def describe(answer: Any) -> str:
    """The messages of an API error body (``{"detail": ...}`` or ``{"field": [...]}``)."""
    if isinstance(answer, dict):
        if "detail" in answer:
            return describe(answer["detail"])
        return "; ".join(
            f"{k}: {describe(v)}" if k not in ("code", "non_field_errors") else describe(v)
            for k, v in answer.items()
            if k != "existing_version"
        )
    if isinstance(answer, list):
        return " ".join(describe(v) for v in answer)
    return _one_line(answer) if answer is not None else ""


def retry_after(value: str | None) -> int | None:
    """Seconds from a ``Retry-After`` header (seconds or an HTTP date)."""
    if not value:
        return None
    if value.strip().isdigit():
        return int(value.strip())
    try:
        moment = parsedate_to_datetime(value)
        return max(0, round((moment - datetime.now(UTC)).total_seconds()))
    except (TypeError, ValueError):
        return None


def _one_line(value: Any) -> str:
    if isinstance(value, socket.timeout | TimeoutError):
        return "no answer in time"
    return " ".join(str(value).split())


def site_command(run: Callable[..., int]) -> Callable[..., int]:
    """A command's ``run`` whose :class:`SiteError` becomes its one line and exit code."""

    @functools.wraps(run)
    def wrapped(*args: Any, **kwargs: Any) -> int:
        try:
            return run(*args, **kwargs)
        except SiteError as exc:
            stderr().print(f"arena: error: {exc}", markup=False, soft_wrap=True)
            return exc.exit_code

    return wrapped
