"""Whole pages kept for anonymous visitors, under what the page shows.

A page registers the parts its content depends on (``register``): the stamps of its drawn
tables (``foundation.stamps``) and small fingerprints of its lists (ids and statuses of the
rows shown), read in a query or two. The middleware builds the key from the page's URL name,
path, the query parameters it reads and those parts: when something the page shows changes,
its parts change and the next view draws afresh, so a kept page is never older than its
data. ``PAGE_CACHE_SECONDS`` bounds what no part covers (relative times such as "3 minutes
ago", a rename in the admin).

Only for what every anonymous visitor sees alike: a GET with no session or messages cookie
(nobody signed in, no message waiting), only query parameters the page declares (each once),
answered 200 with no cookie set, no CSRF token and no CSP nonce drawn into it. A part
function returns None for what must not be kept (a private tournament: nothing of it is ever
stored under a key an anonymous visitor reaches).
"""

from __future__ import annotations

import gzip
import hashlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.middleware.gzip import re_accepts_gzip
from django.utils.cache import patch_vary_headers

from foundation import stamps

#: What a part function returns: the values the page's content depends on, or None (do not
#: keep this page).
Parts = Sequence[object] | None
PartsFunction = Callable[..., Parts]

#: A header naming where the answer came from (``hit``: the kept page; ``miss``: drawn and
#: kept), for operators and tests.
HEADER = "X-Page-Cache"
#: Response headers kept with a page (the middlewares around the view set the others again:
#: CSP, security headers, compression).
KEPT_HEADERS = ("Content-Type", "Content-Language", "Cache-Control", "Last-Modified", "ETag")


@dataclass(frozen=True)
class PageRule:
    parts: PartsFunction
    query: frozenset[str]


_rules: dict[str, PageRule] = {}

#: A stamp in every page's key: ``retire_all`` bumps it when something every page may name
#: changes at once (an account deleted: its bots renamed, its name gone).
SITE_STAMP = "page-cache:site"


def retire_all() -> None:
    """Every kept page is drawn afresh on its next view (after the caller's commit)."""
    stamps.bump(SITE_STAMP)


def register(view_name: str, parts: PartsFunction, *, query: Iterable[str] = ()) -> None:
    """Keep the anonymous answers of the URL named ``view_name`` ("matches:list") under
    ``parts(request, **url_kwargs)``; ``query``: the parameters the page reads (a request
    with any other parameter is drawn, never kept: the page might echo it)."""
    _rules[view_name] = PageRule(parts, frozenset(query))


def registered() -> dict[str, PageRule]:
    return dict(_rules)


def seconds() -> int:
    return int(getattr(settings, "PAGE_CACHE_SECONDS", 60))


def is_anonymous_visit(request: HttpRequest) -> bool:
    """A GET from nobody signed in and with nothing of their own to show (no session: no
    log-in, no message kept in it; no messages cookie)."""
    if request.method != "GET":
        return False
    if settings.SESSION_COOKIE_NAME in request.COOKIES or "messages" in request.COOKIES:
        return False
    user = getattr(request, "user", None)
    return not (user is not None and user.is_authenticated)


def page_key(request: HttpRequest, rule: PageRule, kwargs: dict[str, Any]) -> str | None:
    """The cache key of this request's page, or None when it must be drawn and not kept."""
    names = set(request.GET.keys())
    if not names <= rule.query or any(len(request.GET.getlist(n)) > 1 for n in names):
        return None
    parts = rule.parts(request, **kwargs)
    if parts is None:
        return None
    query = sorted((n, request.GET[n]) for n in names)
    site = stamps.current(SITE_STAMP)
    # The host and scheme too: pages draw absolute links from them (a tournament's embed
    # code), and a page kept for one of ALLOWED_HOSTS must not be served under another.
    origin = (request.scheme, request.get_host())
    text = repr((origin, request.path, query, site, tuple(str(p) for p in parts)))
    view = request.resolver_match.view_name if request.resolver_match else ""
    return f"page:{view}:{hashlib.sha256(text.encode()).hexdigest()}"


def _may_keep(request: HttpRequest, response: HttpResponseBase) -> bool:
    if response.status_code != 200 or response.streaming or response.cookies:
        return False
    if request.META.get("CSRF_COOKIE_NEEDS_UPDATE") or isinstance(
        getattr(request, "_csp_nonce", None), str
    ):
        return False  # a token or a nonce is drawn into the page: it is this visitor's
    control = response.get("Cache-Control", "")
    if "private" in control or "no-store" in control:
        return False
    kept = getattr(request, "_messages", None)
    return not (kept is not None and (kept.used or kept._queued_messages))


def _stored(response: HttpResponse) -> dict[str, Any]:
    return {
        # Compressed once, not on every answer (a big tournament page: 9 ms of gzip), and
        # kept only so (a tenth of the bytes to fetch). No BREACH concern: a kept page holds
        # no secret (no token, nothing of a visitor's own).
        "gzip": gzip.compress(response.content, compresslevel=6, mtime=0),
        "headers": {h: response[h] for h in KEPT_HEADERS if h in response},
        # django-csp reads these from the response (a view's own policy changes)
        "csp": {k: v for k, v in vars(response).items() if k.startswith("_csp")},
    }


def _restored(request: HttpRequest, stored: dict[str, Any]) -> HttpResponse:
    """The kept page, compressed when the client takes gzip (the compression middleware
    leaves an answer that has a Content-Encoding as it is)."""
    zipped = re_accepts_gzip.search(request.headers.get("Accept-Encoding", ""))
    response = HttpResponse(stored["gzip"] if zipped else gzip.decompress(stored["gzip"]))
    for name, value in stored["headers"].items():
        response[name] = value
    for name, value in stored["csp"].items():
        setattr(response, name, value)
    if zipped:
        response["Content-Encoding"] = "gzip"
    patch_vary_headers(response, ("Accept-Encoding",))
    response[HEADER] = "hit"
    return response


class PageCacheMiddleware:
    """Answers a registered page from the cache, or keeps the page the view drew. After the
    authentication middleware (it reads ``request.user``), inside the CSP and compression
    middlewares (they treat a kept page as any other answer)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        key = getattr(request, "_page_cache_key", None)
        if key and isinstance(response, HttpResponse) and _may_keep(request, response):
            cache.set(key, _stored(response), seconds())
            response[HEADER] = "miss"
        return response

    def process_view(
        self, request: HttpRequest, view: Any, args: Any, kwargs: dict[str, Any]
    ) -> HttpResponse | None:
        match = request.resolver_match
        rule = _rules.get(match.view_name) if match else None
        if rule is None or seconds() <= 0 or not is_anonymous_visit(request):
            return None
        key = page_key(request, rule, kwargs)
        if key is None:
            return None
        stored = cache.get(key)
        if stored is not None:
            return _restored(request, stored)
        request._page_cache_key = key  # type: ignore[attr-defined]
        return None
