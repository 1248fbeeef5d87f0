"""Reading a request's parameters strictly, in one place: a whole number is ASCII digits within
a 64-bit column's range (``"²".isdigit()`` passes where ``int()`` fails, ``int("١")`` quietly
reads 1, and 20 digits overflow the database's integer), and no parameter carries a NUL byte
(PostgreSQL refuses one in text: a 500 wherever a search or filter passed it on)."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

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
    or value, before a view passes it to a search or filter."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if any(
            "\x00" in key or any("\x00" in v for v in values) for key, values in request.GET.lists()
        ):
            return error_response(request, f"Query parameters: {NUL_MESSAGE}", 400)
        return self.get_response(request)
