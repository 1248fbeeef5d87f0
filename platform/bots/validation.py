"""Checking an uploaded bot before it is stored: the site's door to :mod:`sandbox.bundle`, the one
validator that the API, the pages, the command line and the sandbox share (so what is accepted
always unpacks), and the bot's language (recognised from its files, or the uploader's choice
where they allow several). It is structural and cheap (size, zip members, a bot's source
present and UTF-8): the web request answers at once, and compiling happens on a worker
(``bots.upload_check``). Errors become Django ``ValidationError`` with the uploader's message."""

from __future__ import annotations

from django.core.exceptions import ValidationError

from arena.bot_code import LANGUAGES, Bundle, BundleError, check_files, check_upload


def language_choices() -> list[tuple[str, str]]:
    """The languages a bot may be written in (``sandbox.languages``), as form choices."""
    return [(key, lang.name) for key, lang in LANGUAGES.items()]


def validate_upload(
    filename: str, data: bytes, max_bytes: int, language: str | None = None
) -> tuple[Bundle, str]:
    """Check one upload held in memory: the :class:`Bundle` and its language's key (recognised
    from its files, or ``language`` where they allow several), or ``ValidationError``."""
    try:
        bundle, lang = check_upload(filename, data, language=language, max_bytes=max_bytes)
    except BundleError as exc:
        raise ValidationError(str(exc), code="bad_bundle") from None
    return bundle, lang.key


def validate_bundle(filename: str, data: bytes, max_bytes: int) -> Bundle:
    """Check one upload's files held in memory (its language is decided with the uploader's
    choice, by :func:`validate_upload`); a :class:`Bundle` or ``ValidationError``."""
    try:
        return check_files(filename, data, max_bytes=max_bytes)
    except BundleError as exc:
        raise ValidationError(str(exc), code="bad_bundle") from None


def validate_bot_file(filename: str, data: bytes, max_bytes: int) -> str:
    """Check one upload; return its kind (``"py"``, ``"file"`` or ``"zip"``) or raise
    ValidationError."""
    return validate_bundle(filename, data, max_bytes).kind
