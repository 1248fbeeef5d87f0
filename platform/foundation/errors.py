"""Errors users cause, as clear 4xx answers: the site's 400 page (bodies too large, bad
multipart) and the API's exception handler (the same cases as JSON)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import (
    RequestDataTooBig,
    SuspiciousOperation,
    TooManyFieldsSent,
    TooManyFilesSent,
)
from django.http import Http404, HttpRequest, HttpResponse
from django.views.defaults import page_not_found
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from foundation.limits import UploadTooLarge, error_response, upload_cap_message, wants_json

_TOO_BIG = "The request body is too large."


def user_message(exc: BaseException) -> str | None:
    """The message for an error of the request itself, or None for anything else."""
    if isinstance(exc, UploadTooLarge):
        return str(exc) or upload_cap_message()
    if isinstance(exc, RequestDataTooBig):
        return _TOO_BIG
    if isinstance(exc, TooManyFieldsSent | TooManyFilesSent):
        return "The request has too many fields or files."
    if isinstance(exc, SuspiciousOperation):
        return "The request could not be read."
    return None


def bad_request(request: HttpRequest, exception: BaseException | None = None) -> HttpResponse:
    """``handler400``: the message when it is ours to tell, else a generic one."""
    message = user_message(exception) if exception is not None else None
    return error_response(request, message or "The request could not be read.", 400)


def not_found(request: HttpRequest, exception: BaseException | None = None) -> HttpResponse:
    """``handler404``: JSON under /api/ (even for paths no route matches), the page elsewhere."""
    if wants_json(request):
        return error_response(request, "Not found.", 404)
    return page_not_found(request, exception if isinstance(exception, Exception) else Http404())


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's handler, plus request-body errors raised while parsing (sizes, field counts) as
    400 ``{"detail": ...}``."""
    message = user_message(exc)
    if message is not None:
        return Response({"detail": message}, status=400)
    return drf_exception_handler(exc, context)
