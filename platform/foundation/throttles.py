"""Rate limits shared by the API and the site's forms.

Counts live in Django's default cache: Redis when ``CACHE_URL``/``REDIS_URL`` is set, else the
database cache, so that they hold across worker processes and hosts (never a per-process
memory cache), each hit one atomic step (:mod:`foundation.rate_counter`). The API uses these classes
(``DEFAULT_THROTTLE_CLASSES``); the forms call :func:`web_throttle` with the very same classes,
so a bot upload through the page and one through the API draw on one counter. Per-address
limits count :func:`foundation.client_address.counted_address` (the client's address, an IPv6
one's /64), never a header a client can forge.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse
from rest_framework.permissions import SAFE_METHODS
from rest_framework.settings import api_settings
from rest_framework.throttling import AnonRateThrottle, SimpleRateThrottle, UserRateThrottle

from foundation import rate_counter
from foundation.client_address import counted_address
from foundation.limits import error_response


class _Counted(SimpleRateThrottle):
    """What the site's throttles change in DRF's: the rate read from the settings when counting
    (DRF's classes keep the rates of import time, so tests and reloaded settings would not reach
    them), the trusted client address, and an atomic counter instead of a read-modify-write
    history list (which loses hits under concurrency)."""

    num_requests: int  # set by DRF's __init__ from the rate
    duration: int
    _wait_s: float | None = None

    def get_rate(self) -> str | None:
        rate = api_settings.DEFAULT_THROTTLE_RATES.get(self.scope or "")
        return None if rate is None else str(rate)

    def get_ident(self, request: Any) -> str:
        return counted_address(request)

    def allow_request(self, request: Any, view: Any) -> bool:
        if self.rate is None:
            return True
        key = self.get_cache_key(request, view)
        if key is None:
            return True
        verdict = rate_counter.take(key, self.num_requests, self.duration)
        self._wait_s = verdict.wait_s
        return verdict.allowed

    def wait(self) -> float | None:
        return self._wait_s


class AnonThrottle(_Counted, AnonRateThrottle):
    """Anonymous API requests per address (``anon`` rate)."""


class UserThrottle(_Counted, UserRateThrottle):
    """Authenticated API requests per user (``user`` rate)."""


class ScopeThrottle(_Counted):
    """One scope's unsafe requests (POST...), per user, or per client address when anonymous.
    Same cache keys as DRF's ``ScopedRateThrottle`` (``throttle_<scope>_<ident>``)."""

    scope: str | None = ""
    per_address = False  # log-in and sign-up count per address, whoever claims to be

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        if request.method in SAFE_METHODS:
            return None
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and not self.per_address:
            ident = f"user-{user.pk}"
        else:
            ident = f"ip-{self.get_ident(request)}"
        return self.cache_format % {"scope": self.scope, "ident": ident}


class UploadThrottle(ScopeThrottle):
    scope = "uploads"


class LoginThrottle(ScopeThrottle):
    scope = "login"
    per_address = True


class SignupThrottle(ScopeThrottle):
    scope = "signup"
    per_address = True


class ChallengeThrottle(ScopeThrottle):
    scope = "challenge"


THROTTLES: dict[str, type[ScopeThrottle]] = {
    t.scope: t for t in (UploadThrottle, LoginThrottle, SignupThrottle, ChallengeThrottle)
}


def throttle_message(wait: float | None) -> str:
    if wait is None:
        return "Too many requests; try again later."
    seconds = max(1, round(wait))
    return f"Too many requests; try again in {seconds} second{'s' if seconds != 1 else ''}."


def web_throttle(
    scope: str,
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """Decorate a form view: its POSTs count against ``scope``; past the rate, a 429 page."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            throttle = THROTTLES[scope]()
            if not throttle.allow_request(request, None):
                wait = throttle.wait()
                response = error_response(request, throttle_message(wait), 429)
                if wait is not None:
                    response["Retry-After"] = str(max(1, round(wait)))
                return response
            return view(request, *args, **kwargs)

        return wrapped

    return decorate
