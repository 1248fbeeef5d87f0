"""Size limits enforced before a request body is read: a cap on any body (from its
Content-Length), and an upload handler that stops a file as soon as it passes the upload cap
while it streams in. Nothing here reads a body into memory to measure it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.core.files.uploadhandler import FileUploadHandler
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render


def human(n: int) -> str:
    """A size as people read it: ``2.0 MiB``, ``64 KiB``."""
    return f"{n / 1024 / 1024:.1f} MiB" if n >= 1024 * 1024 else f"{n / 1024:.0f} KiB"


#: Room for the multipart boundaries and the form's other fields around one uploaded file.
MULTIPART_SLACK = 64 * 1024


class UploadTooLarge(RequestDataTooBig):
    """An upload past ``ARENA_UPLOAD_MAX_BYTES``; the message is for the uploader."""


def upload_cap_message(size: int | None = None) -> str:
    cap = settings.ARENA_UPLOAD_MAX_BYTES
    what = f"The upload is {human(size)}" if size else "The upload is too large"
    return f"{what}; bot files are limited to {human(cap)}."


class CappedUploadHandler(FileUploadHandler):
    """First of ``FILE_UPLOAD_HANDLERS``: refuses a multipart body whose Content-Length cannot
    fit one capped file, and any file whose streamed bytes pass the cap. Chunks are passed on
    to the next handler (memory or temporary file) untouched."""

    # Django reads bodies in the smallest chunk of its handlers: small ones stop an oversized
    # file closer to the cap.
    chunk_size = 16 * 1024

    def handle_raw_input(self, input_data, META, content_length, boundary, encoding=None) -> None:
        if content_length > settings.ARENA_UPLOAD_MAX_BYTES + MULTIPART_SLACK:
            raise UploadTooLarge(upload_cap_message(content_length))
        return None

    def new_file(self, *args: Any, **kwargs: Any) -> None:
        super().new_file(*args, **kwargs)
        self.received = 0

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes:
        self.received += len(raw_data)
        if self.received > settings.ARENA_UPLOAD_MAX_BYTES:
            raise UploadTooLarge(upload_cap_message())
        return raw_data

    def file_complete(self, file_size: int) -> None:
        return None


def wants_json(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def error_response(request: HttpRequest, message: str, status: int) -> HttpResponse:
    """A short error as JSON (``{"detail": ...}``) for the API, a page for the site."""
    if wants_json(request):
        return JsonResponse({"detail": message}, status=status)
    return render(
        request, "errors/message.html", {"message": message, "status": status}, status=status
    )


class RequestBodyLimitMiddleware:
    """Refuses a request whose declared body is over ``ARENA_MAX_REQUEST_BYTES`` (multipart,
    with a file) or ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (anything else) before any view, parser or
    other middleware reads it (gunicorn has no body cap of its own)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        raw = request.META.get("CONTENT_LENGTH") or "0"
        try:
            length = int(raw) if raw.isascii() and raw.strip().isdigit() else -1
        except ValueError:
            length = -1
        if length < 0:
            return error_response(request, "The Content-Length header is not a number.", 400)
        # Only multipart bodies carry files; JSON and form bodies get Django's smaller cap here
        # too, because DRF's parsers read the stream without looking at it.
        multipart = request.META.get("CONTENT_TYPE", "").startswith("multipart/")
        cap = (
            settings.ARENA_MAX_REQUEST_BYTES if multipart else settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        )
        if length > cap:
            return error_response(
                request,
                f"The request body is {human(length)}; requests are limited to {human(cap)}.",
                400,
            )
        return self.get_response(request)
