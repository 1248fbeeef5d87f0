"""Checking an uploaded bot before it is stored: the site's door to :mod:`sandbox.bundle`, the one
validator that the API, the pages, the command line and the sandbox share (so what is accepted
always unpacks). It is structural and cheap (size, zip members, main.py present and UTF-8): the
web request answers at once, and compiling happens on a worker (``bots.checks``). Errors become
Django ``ValidationError`` with the uploader's message."""

from __future__ import annotations

from django.core.exceptions import ValidationError

from arena.bot_code import Bundle, BundleError, check_bundle


def validate_bundle(filename: str, data: bytes, max_bytes: int) -> Bundle:
    """Check one upload held in memory; a :class:`Bundle` or ``ValidationError``."""
    try:
        return check_bundle(filename, data, max_bytes=max_bytes)
    except BundleError as exc:
        raise ValidationError(str(exc), code="bad_bundle") from None


def validate_bot_file(filename: str, data: bytes, max_bytes: int) -> str:
    """Check one upload; return its kind (``"py"`` or ``"zip"``) or raise ValidationError."""
    return validate_bundle(filename, data, max_bytes).kind
