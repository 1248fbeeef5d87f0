"""Bot files that must be refused, and a few odd ones that must be accepted, built byte by byte
(the zip writer of the standard library refuses to write most of these)."""

from __future__ import annotations

import io
import stat
import struct
import zipfile

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


#: (case id, file name, bytes, a piece of the message) for files every door must refuse.
REFUSED: list[tuple[str, str, bytes, str]] = [
    ("empty", "main.py", b"", "empty"),
    ("exe", "bot.exe", b"MZ\x90\x00", "neither a .py file nor a .zip"),
    ("no-suffix", "main", GOOD_MAIN, "neither a .py file nor a .zip"),
    ("py-syntax", "main.py", b"def broken(:\n", "syntax error on line 1"),
    ("py-nul", "main.py", b"x = 1\x00\n", "null bytes"),
    ("py-latin1", "main.py", b"x = '\xe9'\n", "not UTF-8"),
    ("py-recursion", "main.py", b"x = " + b"1+" * 200_000 + b"1\n", "too deeply nested"),
    ("py-memory", "main.py", b"x = " + b"-" * 200_000 + b"1\n", "too deeply nested"),
    ("py-bigint", "main.py", b"x = 1" + b"0" * 5000 + b"\n", "integer string conversion"),
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
]
