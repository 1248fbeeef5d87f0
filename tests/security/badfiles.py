"""Bot files that must be refused, and a few odd ones that must be accepted, built byte by byte
(the zip writer of the standard library refuses to write most of these)."""

from __future__ import annotations

import bz2
import functools
import io
import lzma
import stat
import struct
import zipfile
import zlib
from typing import Any

GOOD_MAIN = b"import sys\nfor line in sys.stdin:\n    pass\n"


def zip_of(files: dict[str, bytes], *, compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression) as zf:
        for name, data in files.items():
            zf.writestr(zipfile.ZipInfo(name), data, compress_type=compression)
    return buf.getvalue()


def _central(data: bytes, name: str) -> int:
    """Offset of ``name``'s central directory header."""
    pos = 0
    while True:
        pos = data.index(b"PK\x01\x02", pos)
        (n,) = struct.unpack_from("<H", data, pos + 28)
        if data[pos + 46 : pos + 46 + n] == name.encode():
            return pos
        pos += 4


def _local(data: bytes, name: str) -> int:
    (offset,) = struct.unpack_from("<I", data, _central(data, name) + 42)
    return offset


def with_symlink() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("main.py", GOOD_MAIN)
        info = zipfile.ZipInfo("data.txt")
        info.external_attr = (stat.S_IFLNK | 0o777) << 16
        zf.writestr(info, "/etc/passwd")
    return buf.getvalue()


def with_fifo() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("main.py", GOOD_MAIN)
        info = zipfile.ZipInfo("pipe")
        info.external_attr = (stat.S_IFIFO | 0o644) << 16
        zf.writestr(info, "")
    return buf.getvalue()


def bad_crc() -> bytes:
    data = bytearray(zip_of({"main.py": GOOD_MAIN}, compression=zipfile.ZIP_STORED))
    start = _local(bytes(data), "main.py") + 30 + len("main.py")
    data[start] ^= 0x20  # one byte of the stored file flipped: its CRC no longer matches
    return bytes(data)


def encrypted() -> bytes:
    data = bytearray(zip_of({"main.py": GOOD_MAIN}))
    for pos in (_local(bytes(data), "main.py") + 6, _central(bytes(data), "main.py") + 8):
        (flags,) = struct.unpack_from("<H", data, pos)
        struct.pack_into("<H", data, pos, flags | 0x1)
    return bytes(data)


def unknown_method() -> bytes:
    data = bytearray(zip_of({"main.py": GOOD_MAIN}, compression=zipfile.ZIP_STORED))
    for pos in (_local(bytes(data), "main.py") + 8, _central(bytes(data), "main.py") + 10):
        struct.pack_into("<H", data, pos, 99)  # AES / unknown
    return bytes(data)


def lying_size(claimed: int = 10) -> bytes:
    data = bytearray(zip_of({"main.py": GOOD_MAIN}, compression=zipfile.ZIP_STORED))
    struct.pack_into("<I", data, _central(bytes(data), "main.py") + 24, claimed)
    return bytes(data)


def truncated() -> bytes:
    data = zip_of({"main.py": GOOD_MAIN})
    return data[: len(data) // 2]


#: Bytes of zeros the bombs below unpack to: enough that inflating them in one call shows in
#: a process's memory; they declare 10 bytes. Built on first use (a second or two each).
BOMB_BYTES = 64 * 1024 * 1024
BOMB_METHODS = ("bzip2", "lzma", "deflate")


@functools.cache
def bomb(method: str, *, unpacked: int = BOMB_BYTES, claimed: int = 10) -> bytes:
    """A zip whose member ``data.bin`` is ``unpacked`` zeros compressed with ``method`` (a few
    hundred bytes to a few KB) while its headers claim ``claimed`` bytes."""
    zeros = b"\0" * (1 << 20)
    if method == "bzip2":
        packer: Any = bz2.BZ2Compressor(9)
        head, code = b"", zipfile.ZIP_BZIP2
    elif method == "lzma":
        props = {"id": lzma.FILTER_LZMA1, "preset": 1, "dict_size": 1 << 26, "lc": 3, "lp": 0}
        packer = lzma.LZMACompressor(lzma.FORMAT_RAW, filters=[{**props, "pb": 2}])
        # zip's lzma header: version 9.20, 5 bytes of properties (lc=3, lp=0, pb=2, dictionary)
        head, code = b"\x09\x14\x05\x00" + bytes([93]) + struct.pack("<I", 1 << 26), 14
    else:
        packer, head = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS), b""
        code = zipfile.ZIP_DEFLATED
    body = b"".join(packer.compress(zeros) for _ in range(unpacked // len(zeros)))
    stream = head + body + packer.flush()
    data = bytearray(zip_of({"main.py": GOOD_MAIN, "data.bin": stream}, compression=0))
    local, central = _local(bytes(data), "data.bin"), _central(bytes(data), "data.bin")
    for method_at, size_at in ((local + 8, local + 22), (central + 10, central + 24)):
        struct.pack_into("<H", data, method_at, code)
        struct.pack_into("<I", data, size_at, claimed)
    return bytes(data)


def _names(*names: str) -> bytes:
    return zip_of({"main.py": GOOD_MAIN, **{n: b"X = 1\n" for n in names}})


#: Zips whose names no file system (or not every one) can hold: accepted once, then failing
#: in every match. (case id, file name, bytes, a piece of the message).
UNWRITABLE: list[tuple[str, str, bytes, str]] = [
    ("name-over-255", "bot.zip", _names("a" * 300 + ".py"), "longer than 128 bytes"),
    ("name-over-128", "bot.zip", _names("é" * 70 + ".py"), "longer than 128 bytes"),
    ("path-over-4096", "bot.zip", _names("/".join(["d" * 100] * 45) + "/x.py"), "folders deep"),
    ("path-over-512", "bot.zip", _names("/".join(["d" * 100] * 6) + "/x.py"), "longer than 512"),
    ("too-deep", "bot.zip", _names("/".join(["d"] * 20) + "/x.py"), "folders deep"),
    ("file-then-folder", "bot.zip", _names("lib", "lib/x.py"), "both as a file and as a folder"),
    ("folder-then-file", "bot.zip", _names("lib/x.py", "lib"), "both as a file and as a folder"),
    ("file-then-Folder", "bot.zip", _names("Lib", "lib/x.py"), "both as a file and as a folder"),
    ("file-and-dir-entry", "bot.zip", _names("lib", "LIB/"), "both as a file and as a folder"),
    ("control-char", "bot.zip", _names("a\nb.py"), "control character"),
]

#: (case id, file name, bytes, a piece of the message) for files every door must refuse.
REFUSED: list[tuple[str, str, bytes, str]] = [
    ("empty", "main.py", b"", "empty"),
    ("exe", "bot.exe", b"MZ\x90\x00", "neither a bot's source file"),
    ("no-suffix", "main", GOOD_MAIN, "neither a bot's source file"),
    ("py-latin1", "main.py", b"x = '\xe9'\n", "not UTF-8"),
    ("not-a-zip", "bot.zip", b"PK\x03\x04 not really", "not a valid zip"),
    ("truncated-zip", "bot.zip", truncated(), "not a valid zip"),
    ("backslash", "bot.zip", zip_of({".\\main.py": GOOD_MAIN}), "backslash"),
    ("dir-named-main", "bot.zip", zip_of({"main.py/": b"", "x.py": b""}), "no main.py"),
    ("no-main", "bot.zip", zip_of({"other.py": GOOD_MAIN}), "no main.py"),
    ("two-folders", "bot.zip", zip_of({"a/main.py": GOOD_MAIN, "b/x.py": b""}), "no main.py"),
    ("drive", "bot.zip", zip_of({"main.py": GOOD_MAIN, "C:/x.py": b""}), "drive or colon"),
    ("absolute", "bot.zip", zip_of({"main.py": GOOD_MAIN, "/etc/x.py": b""}), "absolute"),
    ("dotdot", "bot.zip", zip_of({"main.py": GOOD_MAIN, "a/../../x.py": b""}), "outside"),
    ("symlink", "bot.zip", with_symlink(), "symbolic link"),
    ("fifo", "bot.zip", with_fifo(), "not a regular file"),
    ("bad-crc", "bot.zip", bad_crc(), "cannot be read"),
    ("encrypted", "bot.zip", encrypted(), "encrypted"),
    ("unknown-method", "bot.zip", unknown_method(), "compression method 99"),
    ("size-lies-small", "bot.zip", lying_size(10), "cannot be read"),
    ("size-lies-big", "bot.zip", lying_size(10_000), "its header says"),
    ("duplicate", "bot.zip", zip_of({"main.py": GOOD_MAIN, "./main.py": GOOD_MAIN}), "twice"),
    ("case-clash", "bot.zip", zip_of({"main.py": GOOD_MAIN, "a.py": b"", "A.py": b""}), "twice"),
    ("main-latin1", "bot.zip", zip_of({"main.py": b"x = '\xe9'\n"}), "not UTF-8"),
    *UNWRITABLE,
]

#: (case id, file name, bytes, a piece of the message) for files whose structure is fine but
#: whose main.py does not compile: refused by the worker's compile check, not by the web check.
NOT_COMPILING: list[tuple[str, str, bytes, str]] = [
    ("py-syntax", "main.py", b"def broken(:\n", "syntax error on line 1"),
    ("py-nul", "main.py", b"x = 1\x00\n", "null bytes"),
    ("py-recursion", "main.py", b"x = " + b"1+" * 200_000 + b"1\n", "too deeply nested"),
    ("py-memory", "main.py", b"x = " + b"-" * 200_000 + b"1\n", "too deeply nested"),
    ("py-bigint", "main.py", b"x = 1" + b"0" * 5000 + b"\n", "integer string conversion"),
    ("main-syntax", "bot.zip", zip_of({"main.py": b"def (\n"}), "syntax error"),
]

#: (case id, file name, bytes) that must be accepted and run.
ACCEPTED: list[tuple[str, str, bytes]] = [
    ("py", "main.py", GOOD_MAIN),
    ("py-any-name", "My Bot.PY", GOOD_MAIN),
    ("dot-slash", "bot.zip", zip_of({"./main.py": GOOD_MAIN, "./lib/x.py": b"X = 1\n"})),
    ("one-folder", "bot.ZIP", zip_of({"mybot/": b"", "mybot/main.py": GOOD_MAIN})),
    ("macosx-junk", "bot.zip", zip_of({"main.py": GOOD_MAIN, "__MACOSX/._main.py": b"\0"})),
    ("stored", "bot.zip", zip_of({"main.py": GOOD_MAIN}, compression=zipfile.ZIP_STORED)),
    ("bzip2", "bot.zip", zip_of({"main.py": GOOD_MAIN}, compression=zipfile.ZIP_BZIP2)),
    ("lzma", "bot.zip", zip_of({"main.py": GOOD_MAIN}, compression=zipfile.ZIP_LZMA)),
    (
        "deep-but-fine",
        "bot.zip",
        zip_of({"main.py": GOOD_MAIN, "/".join(["d"] * 15) + "/x.py": b"", "n" * 120: b""}),
    ),
    (
        "folder-then-files",
        "bot.zip",
        zip_of({"lib/": b"", "main.py": GOOD_MAIN, "lib/x.py": b"", "LIB2/y.py": b""}),
    ),
]
