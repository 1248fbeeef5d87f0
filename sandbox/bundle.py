"""The one check of a bot's code, shared by the site, the API, the command line and the sandbox.

A bot is a ``.py`` file (UTF-8 Python that compiles) or a ``.zip`` holding ``main.py`` at its
top level or inside a single top-level folder. :func:`check_bundle` decides whether bytes are a
bot, and :func:`extract_zip` unpacks one with exactly the same member checks (they share
:func:`_walk_zip`), so that what an upload accepts, the sandbox always runs.

Errors are :class:`BundleError`: ``str(error)`` is for the uploader (it may name members of the
zip); ``error.public`` names nothing from the bot and is what others may see (a match's error).
"""

from __future__ import annotations

import io
import os
import stat
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import BinaryIO, Literal

ENTRY = "main.py"
#: Default cap of an uploaded file (the site passes its own setting).
MAX_UPLOAD_BYTES = 2 * 1024 * 1024
#: All files of one bot, uncompressed, and how many there may be.
MAX_UNPACKED_BYTES = 32 * 1024 * 1024
MAX_FILES = 1000
#: Zip compression methods that Python unpacks everywhere (stored, deflate, bzip2, lzma).
ALLOWED_METHODS = {
    zipfile.ZIP_STORED: "stored",
    zipfile.ZIP_DEFLATED: "deflate",
    zipfile.ZIP_BZIP2: "bzip2",
    zipfile.ZIP_LZMA: "lzma",
}
#: Folders that archivers add and bots never need; skipped on both sides.
IGNORED_TOP = {"__MACOSX"}
PUBLIC_MESSAGE = "the bot's code could not be prepared (its owner can see why by uploading it)"

Kind = Literal["py", "zip"]


class BundleError(ValueError):
    """Not a usable bot. ``str()`` is the uploader's message; ``public`` names no private file."""

    def __init__(self, message: str, *, public: str = PUBLIC_MESSAGE) -> None:
        super().__init__(message)
        self.message = message
        self.public = public


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
        return "main.py" if self.kind == "py" else "bot.zip"


def human(n: int) -> str:
    return f"{n / 1024 / 1024:.1f} MiB" if n >= 1024 * 1024 else f"{n / 1024:.0f} KiB"


def bundle_kind(filename: str) -> Kind:
    """``py`` or ``zip`` from the name's suffix (any case); raises :class:`BundleError`."""
    suffix = PurePosixPath(filename.replace("\\", "/").lower()).suffix
    if suffix == ".py":
        return "py"
    if suffix == ".zip":
        return "zip"
    raise BundleError(
        f"{_shown(filename)} is neither a .py file nor a .zip: upload main.py or a zip holding "
        "main.py."
    )


def check_bundle(filename: str, data: bytes, *, max_bytes: int = MAX_UPLOAD_BYTES) -> Bundle:
    """Check an uploaded bot held in memory (at most ``max_bytes``, already capped by the
    caller's upload handler). Returns a :class:`Bundle` or raises :class:`BundleError`."""
    if not data:
        raise BundleError("The file is empty.")
    if len(data) > max_bytes:
        raise BundleError(
            f"The file is {human(len(data))}; uploads are limited to {human(max_bytes)}."
        )
    kind = bundle_kind(filename)
    if kind == "py":
        check_python(ENTRY, data)
        return Bundle("py", (ENTRY,), "", len(data), len(data))
    return _check_zip_bytes(data)


def check_bundle_path(path: str | os.PathLike[str], *, max_bytes: int | None = None) -> Bundle:
    """The same check for a file on disk (the command line's bots); the size is read from
    the file system before the file is."""
    p = Path(path)
    size = p.stat().st_size
    cap = MAX_UNPACKED_BYTES if max_bytes is None else max_bytes
    if size > cap:
        raise BundleError(f"{p.name} is {human(size)}; a bot is limited to {human(cap)}.")
    return check_bundle(p.name, p.read_bytes(), max_bytes=cap)


def check_python(name: str, data: bytes) -> None:
    """UTF-8 Python that compiles; any failure of the compiler is the uploader's message."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise BundleError(f"{name} is not UTF-8 text (byte {exc.start}).") from None
    try:
        compile(text, name, "exec", dont_inherit=True)
    except SyntaxError as exc:
        where = f" on line {exc.lineno}" if exc.lineno else ""
        raise BundleError(f"{name} has a syntax error{where}: {_clip(exc.msg)}.") from None
    except (MemoryError, RecursionError):
        raise BundleError(
            f"{name} is too deeply nested for the Python compiler; simplify its expressions."
        ) from None
    except (ValueError, OverflowError) as exc:  # NUL bytes (3.11), literals out of range
        raise BundleError(f"{name} does not compile: {_clip(str(exc))}.") from None


# -- zips ---------------------------------------------------------------------------------------


def _check_zip_bytes(data: bytes) -> Bundle:
    with _open_zip(io.BytesIO(data), "The file") as zf:
        files, unpacked, main = _walk_zip(zf, dest=None)
    root = find_root(files)
    check_python(ENTRY, main[root])
    inside = tuple(sorted(f[len(root) + 1 :] if root else f for f in files))
    return Bundle("zip", inside, root, len(data), unpacked)


def extract_zip(source: str | os.PathLike[str] | BinaryIO, dest: Path) -> Path:
    """Unpack a bot zip into ``dest`` with the checks of :func:`check_bundle`; returns the
    folder holding ``main.py``."""
    label = Path(source).name if isinstance(source, str | os.PathLike) else "The zip"
    with _open_zip(source, label) as zf:
        files, _unpacked, _main = _walk_zip(zf, dest=dest)
    root = find_root(files)
    return dest / root if root else dest


def _open_zip(source: str | os.PathLike[str] | BinaryIO, label: str) -> zipfile.ZipFile:
    try:
        return zipfile.ZipFile(source)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, ValueError):
        raise BundleError(f"{label} is not a valid zip archive.") from None


def member_path(name: str) -> PurePosixPath | None:
    """The normalised relative path of a zip member (``./a//b.py`` -> ``a/b.py``), or None for
    a directory entry. Raises :class:`BundleError` for names that could escape or that mean
    different files on different systems."""
    if "\x00" in name:
        raise BundleError(f"The zip holds a member name with a NUL byte: {_shown(name)}.")
    if "\\" in name:
        raise BundleError(
            f"The zip holds a member name with a backslash: {_shown(name)}. "
            "Make the zip with a tool that writes '/' between folders."
        )
    if ":" in name:
        raise BundleError(f"The zip holds a member name with a drive or colon: {_shown(name)}.")
    if name.startswith("/"):
        raise BundleError(f"The zip holds an absolute path: {_shown(name)}.")
    parts = [p for p in name.split("/") if p not in ("", ".")]
    if ".." in parts:
        raise BundleError(f"The zip holds a path outside its folder: {_shown(name)}.")
    if name.endswith("/") or not parts:
        return None
    return PurePosixPath(*parts)


def _walk_zip(zf: zipfile.ZipFile, *, dest: Path | None) -> tuple[list[str], int, dict[str, bytes]]:
    """Every check of every member, reading the real bytes (headers can lie), optionally
    writing them under ``dest``. Returns (file names, unpacked bytes, each candidate main.py
    by its root)."""
    infos = zf.infolist()
    if len(infos) > MAX_FILES:
        raise BundleError(f"The zip holds {len(infos)} entries; at most {MAX_FILES} are allowed.")
    declared = sum(i.file_size for i in infos)
    if declared > MAX_UNPACKED_BYTES:
        raise BundleError(
            f"The zip unpacks to {human(declared)}; at most {human(MAX_UNPACKED_BYTES)} is allowed."
        )
    seen: set[str] = set()
    dirs: set[str] = set()
    files: list[str] = []
    mains: dict[str, bytes] = {}
    written = 0
    for info in infos:
        rel = member_path(info.filename)
        if rel is not None and rel.parts[0] in IGNORED_TOP:
            continue
        mode = info.external_attr >> 16
        kind = stat.S_IFMT(mode)
        if info.is_dir() or rel is None:
            if kind not in (0, stat.S_IFDIR):
                raise BundleError(f"The zip member {_shown(info.filename)} is not a folder.")
            if rel is not None:
                dirs.add(str(rel))
            continue
        if kind not in (0, stat.S_IFREG):
            what = "a symbolic link" if kind == stat.S_IFLNK else "not a regular file"
            raise BundleError(f"The zip member {_shown(info.filename)} is {what}.")
        if info.flag_bits & 0x1:
            raise BundleError(
                f"The zip member {_shown(info.filename)} is encrypted; upload it without a "
                "password."
            )
        if info.compress_type not in ALLOWED_METHODS:
            raise BundleError(
                f"The zip member {_shown(info.filename)} uses compression method "
                f"{info.compress_type}; use {', '.join(ALLOWED_METHODS.values())}."
            )
        key = str(rel)
        if key.lower() in seen:  # case-insensitive: the same file on macOS and Windows
            raise BundleError(f"The zip holds {_shown(key)} twice.")
        seen.add(key.lower())
        files.append(key)
        size = 0
        chunks: list[bytes] = []
        is_main = rel.name == ENTRY and len(rel.parts) <= 2
        target = None
        if dest is not None:
            target = dest.joinpath(*rel.parts)
            target.parent.mkdir(parents=True, exist_ok=True)
        try:
            with zf.open(info) as fin, _sink(target) as fout:
                while chunk := fin.read(1 << 16):
                    size += len(chunk)
                    written += len(chunk)
                    if written > MAX_UNPACKED_BYTES:
                        raise BundleError(
                            "The zip unpacks to more than "
                            f"{human(MAX_UNPACKED_BYTES)} (its headers understate it)."
                        )
                    if fout is not None:
                        fout.write(chunk)
                    if is_main:
                        chunks.append(chunk)
        except BundleError:
            raise
        except Exception as exc:  # bad CRC, truncated data, zlib/lzma errors: the uploader's zip
            raise BundleError(
                f"The zip member {_shown(info.filename)} cannot be read ({_one_line(exc)})."
            ) from None
        if size != info.file_size:
            raise BundleError(
                f"The zip member {_shown(info.filename)} holds {size} bytes, not the "
                f"{info.file_size} its header says."
            )
        if is_main:
            mains[str(rel.parent) if len(rel.parts) == 2 else ""] = b"".join(chunks)
    clash = sorted(set(files) & dirs)
    if clash:
        raise BundleError(f"The zip holds {_shown(clash[0])} both as a file and as a folder.")
    return files, written, mains


class _NullSink:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


def _sink(target: Path | None):  # type: ignore[no-untyped-def]
    return open(target, "wb") if target is not None else _NullSink()


def find_root(files: list[str] | tuple[str, ...]) -> str:
    """ "" when main.py is at the top; the folder's name when every file sits in one top-level
    folder that holds main.py; else :class:`BundleError`."""
    if ENTRY in files:
        return ""
    tops = {f.split("/", 1)[0] for f in files}
    if len(tops) == 1:
        (top,) = tops
        if f"{top}/{ENTRY}" in files:
            return top
    raise BundleError(
        f"The zip has no {ENTRY} at its top level (nor inside a single top-level folder)."
    )


def _shown(name: str) -> str:
    text = repr(name)
    return text if len(text) <= 80 else text[:77] + "...'"


def _clip(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text[:160]
