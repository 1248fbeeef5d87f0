"""Rate limits shared by the API and the site's forms.

Counts live in Django's default cache: Redis when ``CACHE_URL``/``REDIS_URL`` is set, else the
database cache, so that they hold across worker processes and hosts (never a per-process
memory cache). The API uses DRF's throttle classes (``DEFAULT_THROTTLE_CLASSES``); the forms
call :func:`web_throttle` with the very same classes, so a bot upload through the page and one
through the API draw on one counter.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse
from rest_framework.permissions import SAFE_METHODS
from rest_framework.settings import api_settings
from rest_framework.throttling import (
    AnonRateThrottle,
    BaseThrottle,
    SimpleRateThrottle,
    UserRateThrottle,
)

from meeple.limits import error_response


class _CurrentRates:
    """Read the rate from the settings when counting (DRF's classes keep the rates of import
    time, so tests and reloaded settings would not reach them)."""

    scope: str | None

    def get_rate(self) -> str | None:
        rate = api_settings.DEFAULT_THROTTLE_RATES.get(self.scope or "")
        return None if rate is None else str(rate)


class AnonThrottle(_CurrentRates, AnonRateThrottle):
    """Anonymous API requests per address (``anon`` rate)."""


class UserThrottle(_CurrentRates, UserRateThrottle):
    """Authenticated API requests per user (``user`` rate)."""


class ScopeThrottle(_CurrentRates, SimpleRateThrottle):
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


def check_web_throttle(request: HttpRequest, scope: str) -> str | None:
    """Count one request of ``scope``; the message to show when it is over the limit."""
    throttle = THROTTLES[scope]()
    # DRF's throttles read only the user, the address and the method: a Django request will do.
    if throttle.allow_request(request, None):  # type: ignore[arg-type]
        return None
    return throttle_message(throttle.wait())


def web_throttle(
    scope: str,
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """Decorate a form view: its POSTs count against ``scope``; past the rate, a 429 page."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            throttle = THROTTLES[scope]()
            if not throttle.allow_request(request, None):  # type: ignore[arg-type]
                wait = throttle.wait()
                response = error_response(request, throttle_message(wait), 429)
                if wait is not None:
                    response["Retry-After"] = str(max(1, round(wait)))
                return response
            return view(request, *args, **kwargs)

        return wrapped

    return decorate


def client_ip(request: Any) -> str | None:
    """The client's address as the throttles see it (``NUM_PROXIES`` trusted proxies), for
    django-axes too, so that both count the same client; None when it is not an address (a
    request made in-process, say), which PostgreSQL's inet column would refuse."""
    ident = str(BaseThrottle().get_ident(request) or "").strip()
    try:
        return str(ipaddress.ip_address(ident))
    except ValueError:
        return None
