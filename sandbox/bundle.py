"""The one check of a bot's files, shared by the site, the API, the command line and the sandbox.

A bot is a ``.py`` file (UTF-8 text) or a ``.zip`` holding ``main.py`` at its top level or inside
a single top-level folder. :func:`check_bundle` decides whether bytes are a bot's files, and
:func:`extract_zip` unpacks one through the very same walk (:mod:`sandbox.zipwalk`), which
decides from the names alone whether they can be written: what an upload accepts, the sandbox
unpacks.

This check is structural and cheap in time and memory (no compiling): it is all a web request
does. Whether ``main.py`` compiles is checked on a worker, in a process with limits
(:mod:`sandbox.compile_check`); :func:`check_python` compiles in this process, for the command
line's own files.

Errors are :class:`BundleError`: ``str(error)`` is for the uploader (it may name members of the
zip); ``error.public`` names nothing from the bot and is what others may see (a match's error).
"""

from __future__ import annotations

import io
import os
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import BinaryIO, Literal

from sandbox.bundle_limits import (
    ENTRY,
    IGNORED_TOP,
    MAX_DEPTH,
    MAX_FILES,
    MAX_NAME_BYTES,
    MAX_PATH_BYTES,
    MAX_UNPACKED_BYTES,
    MAX_UPLOAD_BYTES,
    METHODS,
    PUBLIC_MESSAGE,
    BundleError,
    clip,
    format_bytes,
    shown,
)
from sandbox.compile_child import try_compile
from sandbox.languages import LANGUAGES
from sandbox.zipwalk import Utf8Check, find_root, member_path, walk_zip

__all__ = [
    "BOT_ENTRIES",
    "ENTRY",
    "IGNORED_TOP",
    "MAX_DEPTH",
    "MAX_FILES",
    "MAX_NAME_BYTES",
    "MAX_PATH_BYTES",
    "MAX_UNPACKED_BYTES",
    "MAX_UPLOAD_BYTES",
    "METHODS",
    "PUBLIC_MESSAGE",
    "SOURCES",
    "Bundle",
    "BundleError",
    "bundle_kind",
    "check_bundle",
    "check_bundle_path",
    "check_python",
    "compile_error",
    "extract_zip",
    "find_root",
    "format_bytes",
    "member_path",
    "read_main",
    "single_source",
]

#: ``py``: a main.py; ``file``: another language's single source file (main.cpp...); ``zip``.
Kind = Literal["py", "file", "zip"]


@dataclass(frozen=True)
class Bundle:
    """A checked bot: its kind, the files it unpacks to (relative to the folder holding
    ``main.py``, POSIX names), and sizes."""

    kind: Kind
    files: tuple[str, ...]
    #: "" when main.py is at the top, else the single top-level folder (``"mybot"``).
    root: str
    size_bytes: int
    unpacked_bytes: int

    @property
    def stored_name(self) -> str:
        """The file name to store it under (never the client's name)."""
        if self.kind == "zip":
            return "bot.zip"
        return self.files[0] if self.kind == "file" else "main.py"


def bundle_kind(filename: str) -> Kind:
    """``py`` or ``zip`` from the name's suffix (any case); raises :class:`BundleError`."""
    suffix = PurePosixPath(filename.replace("\\", "/").lower()).suffix
    if suffix == ".py":
        return "py"
    if suffix == ".zip":
        return "zip"
    if single_source(filename) is not None:
        return "file"
    raise BundleError(
        f"{shown(filename)} is neither a bot's source file ({', '.join(SOURCES)}) nor a .zip "
        "holding one."
    )


#: The single-file uploads, one per language (sandbox.languages).
SOURCES = tuple(lang.source for lang in LANGUAGES.values())
#: What marks a bot's top in a zip: every language's entry source and build files.
BOT_ENTRIES = tuple(
    dict.fromkeys(f for lang in LANGUAGES.values() for f in (lang.source, *lang.markers))
)


def single_source(filename: str) -> str | None:
    """The source name a single uploaded file is stored as (``bot.CPP`` -> ``main.cpp``), by
    its suffix; None when no language's source has it."""
    suffix = PurePosixPath(filename.replace("\\", "/").lower()).suffix
    for lang in LANGUAGES.values():
        if PurePosixPath(lang.source).suffix == suffix:
            return lang.source
    return None


def check_bundle(
    filename: str,
    data: bytes,
    *,
    max_bytes: int = MAX_UPLOAD_BYTES,
    entries: tuple[str, ...] | None = None,
) -> Bundle:
    """Check an uploaded bot held in memory (at most ``max_bytes``, already capped by the
    caller's upload handler): its size, kind, zip members and that its source is UTF-8.
    Returns a :class:`Bundle` or raises :class:`BundleError`. Does not compile. ``entries``:
    the files that may mark a zip's top (``zipwalk.find_root``; every language's by default)."""
    entries = BOT_ENTRIES if entries is None else entries
    return _check(filename, data, max_bytes, keep_main=False, entries=entries)[0]


def read_main(
    filename: str, data: bytes, *, max_bytes: int = MAX_UNPACKED_BYTES
) -> tuple[Bundle, bytes]:
    """:func:`check_bundle`, and the bytes of its ``main.py`` (for the compile check)."""
    bundle, main = _check(filename, data, max_bytes, keep_main=True)
    return bundle, main


def _check(
    filename: str,
    data: bytes,
    max_bytes: int,
    *,
    keep_main: bool,
    entries: tuple[str, ...] = (ENTRY,),
) -> tuple[Bundle, bytes]:
    if not data:
        raise BundleError("The file is empty.")
    if len(data) > max_bytes:
        raise BundleError(
            f"The file is {format_bytes(len(data))}; uploads are limited to "
            f"{format_bytes(max_bytes)}."
        )
    kind = bundle_kind(filename)
    if kind != "zip":
        entry = ENTRY if kind == "py" else (single_source(filename) or ENTRY)
        Utf8Check(entry).feed(data, final=True)
        return Bundle(kind, (entry,), "", len(data), len(data)), data
    source = io.BytesIO(data)
    with _open_zip(source, "The file") as zf:
        plan, unpacked, main = walk_zip(zf, source, dest=None, keep_main=keep_main, entries=entries)
    root = plan.root
    inside = tuple(sorted(f[len(root) + 1 :] if root else f for f in plan.files))
    return Bundle("zip", inside, root, len(data), unpacked), main or b""


def check_bundle_path(
    path: str | os.PathLike[str],
    *,
    max_bytes: int | None = None,
    entries: tuple[str, ...] = (ENTRY,),
) -> Bundle:
    """The same check for a file on disk (the command line's bots); the size is read from
    the file system before the file is."""
    p = Path(path)
    size = p.stat().st_size
    cap = MAX_UNPACKED_BYTES if max_bytes is None else max_bytes
    if size > cap:
        raise BundleError(
            f"{p.name} is {format_bytes(size)}; a bot is limited to {format_bytes(cap)}."
        )
    return check_bundle(p.name, p.read_bytes(), max_bytes=cap, entries=entries)


def compile_error(name: str, failure: dict[str, object]) -> BundleError:
    """The uploader's message for one failure that ``compile_child.try_compile`` reports."""
    kind = failure.get("error")
    if kind == "utf8":
        return BundleError(f"{name} is not UTF-8 text (byte {failure.get('at')}).")
    if kind == "syntax":
        line = failure.get("line")
        where = f" on line {line}" if line else ""
        return BundleError(f"{name} has a syntax error{where}: {clip(str(failure.get('msg')))}.")
    if kind == "nested":
        return BundleError(
            f"{name} is too deeply nested (or too large) for the Python compiler; simplify its "
            "expressions, or move data out of it into a file it reads."
        )
    return BundleError(f"{name} does not compile: {clip(str(failure.get('msg')))}.")


def check_python(name: str, data: bytes) -> None:
    """UTF-8 Python that compiles, compiled in this process: for the command line's own
    files only (the site compiles on a worker, with limits: :mod:`sandbox.compile_check`)."""
    failure = try_compile(data, name)
    if failure is not None:
        raise compile_error(name, failure)


def extract_zip(
    source: str | os.PathLike[str] | BinaryIO, dest: Path, *, entries: tuple[str, ...] = (ENTRY,)
) -> Path:
    """Unpack a bot zip into ``dest`` with the checks of :func:`check_bundle`; returns the
    folder holding ``main.py`` (or another of ``entries``: ``zipwalk.find_root``)."""
    label = Path(source).name if isinstance(source, str | os.PathLike) else "The zip"
    fp: BinaryIO
    if isinstance(source, str | os.PathLike):
        try:
            fp = open(source, "rb")  # noqa: SIM115  closed below, after the walk
        except OSError:
            raise BundleError(f"{label} is not a valid zip archive.") from None
    else:
        fp = source
    try:
        with _open_zip(fp, label) as zf:
            plan, _unpacked, _main = walk_zip(zf, fp, dest=dest, entries=entries)
    finally:
        if fp is not source:
            fp.close()
    return dest / plan.root if plan.root else dest


def _open_zip(source: BinaryIO, label: str) -> zipfile.ZipFile:
    try:
        return zipfile.ZipFile(source)
    except Exception:  # BadZipFile, and what else a damaged directory makes zipfile raise
        # (NotImplementedError for an unknown version, struct.error, UnicodeDecodeError...)
        raise BundleError(f"{label} is not a valid zip archive.") from None
