"""Which redirects the site client follows: one to the same site (its scheme, host and port), or
the upgrade of ``http://host`` to ``https://host`` on the default ports. Any other is refused
before a byte goes to the other address, so neither a password nor a token ever reaches a host
the user did not name (``arena login`` once stored the answering host of a redirect and sent
the password and every later token there)."""

from __future__ import annotations

from http.client import HTTPMessage
from typing import IO
from urllib import parse, request

DEFAULT_PORTS = {"http": 80, "https": 443}


class RedirectRefused(Exception):
    """A redirect to another site: ``str()`` names where it pointed."""

    def __init__(self, origin: str, target: str) -> None:
        parts = parse.urlsplit(target)
        self.target_host = parts.netloc or target
        super().__init__(
            f"{_origin(origin)} redirects to another host ({_origin(target)}); not followed, "
            "so nothing of yours was sent there: give that address yourself if you trust it"
        )


def _origin(url: str) -> str:
    parts = parse.urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}" if parts.netloc else url


def _scheme_host_port(url: str) -> tuple[str, str, int | None]:
    parts = parse.urlsplit(url)
    scheme = parts.scheme.lower()
    try:
        port = parts.port or DEFAULT_PORTS.get(scheme)
    except ValueError:  # a port that is no number: no site of ours
        port = None
    return scheme, (parts.hostname or "").lower(), port


def may_follow(origin: str, target: str) -> bool:
    """Whether a redirect from ``origin`` to ``target`` stays on the site the user named."""
    scheme, host, port = _scheme_host_port(origin)
    new_scheme, new_host, new_port = _scheme_host_port(target)
    if not host or new_host != host or port is None or new_port is None:
        return False
    if (new_scheme, new_port) == (scheme, port):
        return True
    # The one change of port allowed is the scheme upgrade's, between the default ports.
    return (scheme, port, new_scheme, new_port) == ("http", 80, "https", 443)


class SameSiteRedirects(request.HTTPRedirectHandler):
    """urllib's redirect handling, refusing (:class:`RedirectRefused`) a redirect that
    :func:`may_follow` does not allow. urllib follows a redirect to any host by default."""

    def redirect_request(
        self,
        req: request.Request,
        fp: IO[bytes],
        code: int,
        msg: str,
        headers: HTTPMessage,
        newurl: str,
    ) -> request.Request | None:
        target = parse.urljoin(req.full_url, newurl)
        if not may_follow(req.full_url, target):
            fp.close()
            raise RedirectRefused(req.full_url, target)
        return super().redirect_request(req, fp, code, msg, headers, newurl)


#: The opener every request of the site client goes through.
OPENER = request.build_opener(SameSiteRedirects)
