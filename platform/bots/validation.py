"""Checking an uploaded bot before it is stored: pure functions over bytes, clear messages.

Accepted: a ``.py`` file (UTF-8 Python that compiles), or a ``.zip`` holding ``main.py`` at its
root. The sandbox unpacks zips again, with its own caps; these checks are for quick, friendly
feedback at upload time.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import PurePosixPath

from django.core.exceptions import ValidationError

#: An unpacked zip may be at most this many times the upload cap (zip-bomb guard).
UNPACKED_FACTOR = 10
MAX_ZIP_MEMBERS = 500


def _human(n: int) -> str:
    return f"{n / 1024 / 1024:.1f} MiB" if n >= 1024 * 1024 else f"{n / 1024:.0f} KiB"


def validate_bot_file(filename: str, data: bytes, max_bytes: int) -> str:
    """Check one upload; return its kind (``"py"`` or ``"zip"``) or raise ValidationError."""
    if not data:
        raise ValidationError("The file is empty.")
    if len(data) > max_bytes:
        raise ValidationError(
            f"The file is {_human(len(data))}; uploads are limited to {_human(max_bytes)}."
        )
    suffix = PurePosixPath(filename.lower()).suffix
    if suffix == ".py":
        _check_python(filename, data)
        return "py"
    if suffix == ".zip":
        _check_zip(data, max_bytes * UNPACKED_FACTOR)
        return "zip"
    raise ValidationError(
        f"{filename!r} is neither a .py file nor a .zip: upload main.py or a zip holding main.py."
    )


def _check_python(filename: str, data: bytes) -> None:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValidationError(f"{filename} is not UTF-8 text.") from exc
    try:
        compile(text, filename, "exec")
    except SyntaxError as exc:
        raise ValidationError(
            f"{filename} has a syntax error on line {exc.lineno}: {exc.msg}."
        ) from exc


def _check_zip(data: bytes, max_unpacked: int) -> None:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile as exc:
        raise ValidationError("The file is not a valid zip archive.") from exc
    with archive:
        members = archive.infolist()
        if len(members) > MAX_ZIP_MEMBERS:
            raise ValidationError(
                f"The zip holds {len(members)} files; at most {MAX_ZIP_MEMBERS} are allowed."
            )
        total = 0
        names = set()
        for info in members:
            path = PurePosixPath(info.filename.replace("\\", "/"))
            if path.is_absolute() or ".." in path.parts:
                raise ValidationError(f"The zip holds an unsafe path: {info.filename!r}.")
            total += info.file_size
            names.add(str(path))
        if total > max_unpacked:
            raise ValidationError(
                f"The zip unpacks to {_human(total)}; at most {_human(max_unpacked)} is allowed."
            )
        if "main.py" not in names:
            raise ValidationError("The zip has no main.py at its top level.")
        _check_python("main.py", archive.read("main.py"))
