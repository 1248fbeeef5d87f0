"""The one walk over a bot zip that both the upload check and the worker's unpacking make.

It decides everything it can from the member names before reading a byte of data (paths that
could escape, names too long for a file system, a file that is also a folder, which folder
holds ``main.py``), so that a zip it accepts is one it can write out. Then it reads every member
through :func:`read_member`, which inflates each compression method in bounded steps (never more
than one chunk past the size the header declares), checks the CRC-32 and the real size, and
writes nothing it has not checked.

Python's ``zipfile`` is used for the central directory only: its readers inflate a bzip2 or
lzma chunk in one call, without a bound, so a 3 KB member can become gigabytes before any
counter runs.
"""

from __future__ import annotations

import bz2
import codecs
import lzma
import stat
import struct
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import BinaryIO, Protocol

from sandbox.bundle_limits import (
    ENTRY,
    IGNORED_TOP,
    MAX_DEPTH,
    MAX_FILES,
    MAX_NAME_BYTES,
    MAX_PATH_BYTES,
    MAX_UNPACKED_BYTES,
    METHODS,
    BundleError,
    format_bytes,
    shown,
)

#: Compressed bytes read per step, and the most one inflating step may produce.
_RAW_CHUNK = 64 * 1024
_OUT_CHUNK = 256 * 1024
_LOCAL_HEADER = struct.Struct("<4sHHHHHIIIHH")
_LOCAL_MAGIC = b"PK\x03\x04"
#: The largest lzma dictionary we allocate (the decoder's memory): what ``xz -9`` and 7-Zip's
#: defaults use at most; a stream that reaches further back is refused as damaged.
LZMA_MAX_DICT = 16 * 1024 * 1024


@dataclass(frozen=True)
class Plan:
    """What the names of a zip decide: the members to write (in archive order) under their
    normalised paths, the single folder holding ``main.py`` ("" for the top), and the sum of
    the sizes the headers declare."""

    members: tuple[tuple[zipfile.ZipInfo, PurePosixPath], ...]
    root: str
    declared: int

    @property
    def files(self) -> tuple[str, ...]:
        return tuple(str(rel) for _info, rel in self.members)


def member_path(name: str) -> PurePosixPath | None:
    """The normalised relative path of a zip member (``./a//b.py`` -> ``a/b.py``), or None for
    a directory entry. Raises :class:`BundleError` for names that could escape, that mean
    different files on different systems, or that no file system takes."""
    if "\x00" in name:
        raise BundleError(f"The zip holds a member name with a NUL byte: {shown(name)}.")
    if any(ord(c) < 32 or ord(c) == 127 for c in name):
        raise BundleError(f"The zip holds a member name with a control character: {shown(name)}.")
    if "\\" in name:
        raise BundleError(
            f"The zip holds a member name with a backslash: {shown(name)}. "
            "Make the zip with a tool that writes '/' between folders."
        )
    if ":" in name:
        raise BundleError(f"The zip holds a member name with a drive or colon: {shown(name)}.")
    if name.startswith("/"):
        raise BundleError(f"The zip holds an absolute path: {shown(name)}.")
    parts = [p for p in name.split("/") if p not in ("", ".")]
    if ".." in parts:
        raise BundleError(f"The zip holds a path outside its folder: {shown(name)}.")
    if name.endswith("/") or not parts:
        return None
    return PurePosixPath(*parts)


def _folder_path(name: str) -> PurePosixPath | None:
    """A directory entry's normalised path (None for the top itself); names checked already."""
    parts = [p for p in name.split("/") if p not in ("", ".")]
    return PurePosixPath(*parts) if parts else None


def _check_lengths(rel: PurePosixPath, name: str) -> None:
    # Bytes, as file systems count them (255 on most; we keep a margin for the folder the
    # worker unpacks into, and for a copy on another system).
    if len(rel.parts) > MAX_DEPTH:
        raise BundleError(
            f"The zip member {shown(name)} is {len(rel.parts)} folders deep; at most "
            f"{MAX_DEPTH} are allowed."
        )
    for part in rel.parts:
        if len(part.encode("utf-8", "surrogatepass")) > MAX_NAME_BYTES:
            raise BundleError(
                f"The zip member {shown(name)} has a name longer than {MAX_NAME_BYTES} bytes."
            )
    if len(str(rel).encode("utf-8", "surrogatepass")) > MAX_PATH_BYTES:
        raise BundleError(
            f"The zip member {shown(name)} has a path longer than {MAX_PATH_BYTES} bytes."
        )


def plan_zip(zf: zipfile.ZipFile, entries: tuple[str, ...] = (ENTRY,)) -> Plan:
    """Every check that names, types, flags, methods and declared sizes allow, before any
    data is read; raises :class:`BundleError`."""
    infos = zf.infolist()
    if len(infos) > MAX_FILES:
        raise BundleError(f"The zip holds {len(infos)} entries; at most {MAX_FILES} are allowed.")
    members: list[tuple[zipfile.ZipInfo, PurePosixPath]] = []
    files: dict[str, str] = {}  # lowered path -> path
    folders: dict[str, str] = {}  # lowered folder (explicit or implied) -> folder
    declared = 0
    for info in infos:
        name = info.orig_filename  # before zipfile cuts it at a NUL byte
        rel = member_path(name)
        folder = _folder_path(name) if rel is None else None
        top = (rel or folder or PurePosixPath()).parts[:1]
        if top and top[0] in IGNORED_TOP:
            continue  # archivers' junk: never written, so its length does not matter
        mode = info.external_attr >> 16
        kind = stat.S_IFMT(mode)
        if rel is None:
            if kind not in (0, stat.S_IFDIR):
                raise BundleError(f"The zip member {shown(name)} is not a folder.")
            if folder is not None:
                _check_lengths(folder, name)
                folders.setdefault(str(folder).lower(), str(folder))
            continue
        _check_lengths(rel, name)
        if kind not in (0, stat.S_IFREG):
            what = "a symbolic link" if kind == stat.S_IFLNK else "not a regular file"
            raise BundleError(f"The zip member {shown(name)} is {what}.")
        if info.flag_bits & 0x1:
            raise BundleError(
                f"The zip member {shown(name)} is encrypted; upload it without a password."
            )
        if info.compress_type not in METHODS:
            raise BundleError(
                f"The zip member {shown(name)} uses compression method "
                f"{info.compress_type}; use {', '.join(METHODS.values())}."
            )
        key = str(rel).lower()  # one file on macOS and Windows: one file here too
        if key in files:
            raise BundleError(f"The zip holds {shown(str(rel))} twice.")
        files[key] = str(rel)
        for parent in list(rel.parents)[:-1]:
            folders.setdefault(str(parent).lower(), str(parent))
        declared += info.file_size
        members.append((info, rel))
    if declared > MAX_UNPACKED_BYTES:
        raise BundleError(
            f"The zip unpacks to {format_bytes(declared)}; at most "
            f"{format_bytes(MAX_UNPACKED_BYTES)} is allowed."
        )
    clash = sorted(key for key in files if key in folders)
    if clash:
        raise BundleError(f"The zip holds {shown(files[clash[0]])} both as a file and as a folder.")
    root = find_root(tuple(files.values()), entries)
    return Plan(tuple(members), root, declared)


def find_root(files: tuple[str, ...] | list[str], entries: tuple[str, ...] = (ENTRY,)) -> str:
    """ "" when one of ``entries`` (main.py; the command line passes every language's entry
    and build files) is at the top; the folder's name when every file sits in one top-level
    folder that holds one; else :class:`BundleError`."""
    if any(e in files for e in entries):
        return ""
    tops = {f.split("/", 1)[0] for f in files}
    if len(tops) == 1:
        (top,) = tops
        if any(f"{top}/{e}" in files for e in entries):
            return top
    others = [e for e in entries if e != ENTRY]
    also = f", nor any of {', '.join(others)}" if others else ""
    raise BundleError(
        f"The zip has no {ENTRY} at its top level (nor inside a single top-level folder){also}."
    )


# -- reading members ---------------------------------------------------------------------------


class _Decompressor(Protocol):
    @property
    def eof(self) -> bool: ...

    def decompress(self, data: bytes, max_length: int = -1) -> bytes: ...


class _Stored:
    eof = False

    def __init__(self) -> None:
        self._pending = b""

    def decompress(self, data: bytes, max_length: int = -1) -> bytes:
        data = self._pending + data
        self._pending = data[max_length:]
        return data[:max_length]


class _Deflate:
    """zlib's object with the interface of bz2's and lzma's: input it could not consume for
    the output bound is kept and fed again."""

    def __init__(self) -> None:
        self._d = zlib.decompressobj(-zlib.MAX_WBITS)

    @property
    def eof(self) -> bool:
        return self._d.eof

    def decompress(self, data: bytes, max_length: int = -1) -> bytes:
        return self._d.decompress(self._d.unconsumed_tail + data, max(max_length, 0))


def _lzma(header: bytes, declared: int) -> _Decompressor:
    """Zip's lzma: 2 bytes of version, 2 of properties' size, 5 of properties, then a raw
    LZMA1 stream. The dictionary (allocated whole) never needs to be larger than the file it
    unpacks, so a header asking for gigabytes gets no more than that, and at most
    :data:`LZMA_MAX_DICT`."""
    (size,) = struct.unpack_from("<H", header, 2)
    if size != 5:
        raise zlib.error("bad lzma properties")
    props = header[4]
    lc, lp, pb = props % 9, (props // 9) % 5, props // 45
    if pb > 4:
        raise zlib.error("bad lzma properties")
    (dict_size,) = struct.unpack_from("<I", header, 5)
    dict_size = max(4096, min(dict_size, declared, LZMA_MAX_DICT))
    lzma_filter = {"id": lzma.FILTER_LZMA1, "dict_size": dict_size, "lc": lc, "lp": lp, "pb": pb}
    return lzma.LZMADecompressor(lzma.FORMAT_RAW, filters=[lzma_filter])


def _raw(fp: BinaryIO, info: zipfile.ZipInfo, name: str) -> Iterator[bytes]:
    """The member's compressed bytes, in chunks, after checking its local header."""
    fp.seek(info.header_offset)
    header = fp.read(_LOCAL_HEADER.size)
    if len(header) != _LOCAL_HEADER.size:
        raise _Unreadable("truncated")
    magic, *_fields, name_len, extra_len = _LOCAL_HEADER.unpack(header)
    encoding = "utf-8" if info.flag_bits & 0x800 else "cp437"
    if magic != _LOCAL_MAGIC or fp.read(name_len) != name.encode(encoding, "surrogateescape"):
        raise _Unreadable("its local header does not match the directory")
    fp.seek(extra_len, 1)
    left = info.compress_size
    while left > 0:
        chunk = fp.read(min(_RAW_CHUNK, left))
        if not chunk:
            raise _Unreadable("truncated")
        left -= len(chunk)
        yield chunk


class _Unreadable(Exception):
    """Why a member's data cannot be read; becomes the uploader's message."""


def read_member(fp: BinaryIO, info: zipfile.ZipInfo) -> Iterator[bytes]:
    """The member's real bytes in chunks, never more than one byte past the size its header
    declares (whatever the compression method), with its size and CRC-32 checked at the end.
    Raises :class:`BundleError`."""
    name = info.orig_filename
    declared = info.file_size
    got = 0
    crc = 0
    try:
        raw = _raw(fp, info, name)
        pending = b""
        decomp: _Decompressor
        if info.compress_type == zipfile.ZIP_LZMA:
            while len(pending) < 9:
                chunk = next(raw, b"")
                if not chunk:
                    raise _Unreadable("truncated")
                pending += chunk
            decomp = _lzma(pending[:9], declared)
            pending = pending[9:]
        elif info.compress_type == zipfile.ZIP_BZIP2:
            decomp = bz2.BZ2Decompressor()
        elif info.compress_type == zipfile.ZIP_DEFLATED:
            decomp = _Deflate()
        else:
            decomp = _Stored()
        while not decomp.eof:
            # Ask for at most one byte past what the header declares: a lie shows at once.
            out = decomp.decompress(pending, min(_OUT_CHUNK, declared - got + 1))
            pending = b""
            if out:
                got += len(out)
                if got > declared:
                    raise _Unreadable(f"it holds more than the {declared} bytes its header says")
                crc = zlib.crc32(out, crc)
                yield out
                continue
            pending = next(raw, b"")
            if not pending:
                break
    except BundleError:
        raise
    except _Unreadable as exc:
        raise BundleError(f"The zip member {shown(name)} cannot be read ({exc}).") from None
    except (zlib.error, OSError, EOFError, lzma.LZMAError, ValueError):
        raise BundleError(
            f"The zip member {shown(name)} cannot be read (its compressed data is damaged)."
        ) from None
    if got != declared:
        raise BundleError(
            f"The zip member {shown(name)} holds {got} bytes, not the {declared} its header says."
        )
    if crc != info.CRC:
        raise BundleError(f"The zip member {shown(name)} cannot be read (bad CRC-32).")


class Utf8Check:
    """Checks that bytes fed in pieces are UTF-8 text, without keeping them."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._decoder = codecs.getincrementaldecoder("utf-8")()
        self._seen = 0

    def feed(self, data: bytes, *, final: bool = False) -> None:
        before = self._seen - len(self._decoder.getstate()[0])
        try:
            self._decoder.decode(data, final)
        except UnicodeDecodeError as exc:
            raise BundleError(
                f"{self._name} is not UTF-8 text (byte {before + exc.start})."
            ) from None
        self._seen += len(data)


def walk_zip(
    zf: zipfile.ZipFile,
    fp: BinaryIO,
    *,
    dest: Path | None,
    keep_main: bool = False,
    entries: tuple[str, ...] = (ENTRY,),
) -> tuple[Plan, int, bytes | None]:
    """Check every member (names first, then the real bytes), writing them under ``dest`` when
    given. Returns the plan, the unpacked size, and ``main.py``'s bytes when ``keep_main``.
    ``entries``: the files that mark the bot's top (:func:`find_root`)."""
    plan = plan_zip(zf, entries)
    main_rel = PurePosixPath(plan.root, ENTRY) if plan.root else PurePosixPath(ENTRY)
    main: list[bytes] | None = [] if keep_main else None
    written = 0
    for info, rel in plan.members:
        is_main = rel == main_rel
        utf8 = Utf8Check(ENTRY) if is_main else None
        target = dest.joinpath(*rel.parts) if dest is not None else None
        if target is not None:
            # The plan rules out every clash and over-long name: a failure here is the host's.
            target.parent.mkdir(parents=True, exist_ok=True)
        with open(target, "wb") if target is not None else _NoFile() as out:
            for chunk in read_member(fp, info):
                written += len(chunk)
                if out is not None:
                    out.write(chunk)
                if utf8 is not None:
                    utf8.feed(chunk)
                if is_main and main is not None:
                    main.append(chunk)
        if utf8 is not None:
            utf8.feed(b"", final=True)
    return plan, written, (b"".join(main) if main is not None else None)


class _NoFile:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None
