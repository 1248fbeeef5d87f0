"""Reading a request's parameters strictly, in one place: a whole number is ASCII digits within
a 64-bit column's range (``"²".isdigit()`` passes where ``int()`` fails, ``int("١")`` quietly
reads 1, and 20 digits overflow the database's integer), and no parameter carries a NUL byte
(PostgreSQL refuses one in text: a 500 wherever a search or filter passed it on)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse, QueryDict

from foundation.fields import MAX_INT, parse_ascii_int
from foundation.limits import error_response


def int_param(raw: str | None, *, minimum: int = 0, maximum: int = MAX_INT) -> int | None:
    """``raw`` as a whole number within ``[minimum, maximum]``, or None when it is missing,
    not ASCII digits, or out of range (callers treat None as "not given")."""
    if raw is None:
        return None
    try:
        value = parse_ascii_int(raw)
    except ValueError:
        return None
    return value if minimum <= value <= maximum else None


def id_param(raw: str | None) -> int | None:
    """A database id (1 to the widest column's maximum), or None."""
    return int_param(raw, minimum=1)


#: Django's own words for it (its form fields say the same).
NUL_MESSAGE = "Null characters are not allowed"


class NulParameterMiddleware:
    """Refuses, with a 400, a request whose query string holds a NUL byte (``%00``) in any name
    or value, before a view passes it to a search or filter; and a form POST whose fields hold
    one, before a view that reads ``request.POST`` by hand (a user name, a game's slug) passes
    it to a query."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if _has_nul(request.GET):
            return error_response(request, f"Query parameters: {NUL_MESSAGE}", 400)
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view: Callable[..., Any], args: Any, kwargs: Any
    ) -> HttpResponse | None:
        # Only where CsrfViewMiddleware reads the form anyway (a POST to a view that is not
        # csrf_exempt): no body is parsed here that would not be parsed before the view. The
        # API's views (csrf_exempt) read bodies through serializers, which refuse NUL already.
        if request.method != "POST" or getattr(view, "csrf_exempt", False):
            return None
        if _has_nul(request.POST):
            return error_response(request, f"Form fields: {NUL_MESSAGE}", 400)
        return None


def _has_nul(params: QueryDict) -> bool:
    return any("\x00" in key or any("\x00" in v for v in values) for key, values in params.lists())
