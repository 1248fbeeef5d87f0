"""Errors users cause, as clear 4xx answers: the site's 400 page (bodies too large, bad
multipart) and the API's one exception handler, which also translates the refusals of the
services (Django's ``ValidationError`` and ``PermissionDenied``) so that no endpoint re-wraps
them by hand."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.core.exceptions import (
    NON_FIELD_ERRORS,
    RequestDataTooBig,
    SuspiciousOperation,
    TooManyFieldsSent,
    TooManyFilesSent,
    ValidationError,
)
from django.http import Http404, HttpRequest, HttpResponse
from django.views.defaults import page_not_found
from rest_framework import exceptions as api_errors
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
    400 ``{"detail": ...}``, and a service's ``ValidationError`` as a 400 in the API's one
    shape (:func:`refusal_detail`); Django's ``PermissionDenied`` is DRF's 403 already."""
    message = user_message(exc)
    if message is not None:
        return Response({"detail": message}, status=400)
    if isinstance(exc, ValidationError):
        exc = api_errors.ValidationError(refusal_detail(exc))
    return drf_exception_handler(exc, context)


def refusal_detail(exc: ValidationError) -> dict[str, list[str]]:
    """A service's refusal as the API answers it: each field's messages under the field's name,
    and a refusal of no field in particular under ``detail`` (the schema's error shape)."""
    if not hasattr(exc, "error_dict"):
        return {"detail": exc.messages}
    return {
        ("detail" if field == NON_FIELD_ERRORS else field): messages
        for field, messages in exc.message_dict.items()
    }


@contextmanager
def refused_as(field: str) -> Iterator[None]:
    """Inside the block, a service's refusal that names no field is about the input ``field``
    (an upload's ``code``, a pin's ``version``): the API answers it under that name. A refusal
    of a class of its own (``DuplicateUpload``) passes untouched, for the caller to answer."""
    try:
        yield
    except ValidationError as exc:
        if type(exc) is not ValidationError or hasattr(exc, "error_dict"):
            raise
        raise ValidationError({field: exc.error_list}) from exc
