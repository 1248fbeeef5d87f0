"""What a Docker build leaves, taken out of its container as a stream: the build's folder is a
size-limited tmpfs (the quota, ``built.BUILD_FOLDER_MB``), which the container's script writes
as a tar to its stdout when the build ends; the worker reads that through the attach socket
and unpacks it into a folder of its own.

Everything in the stream is hostile: the build can write into the container's stdout itself
(through ``/proc/1/fd/1``). So the stream is read with a byte cap and a deadline (no read waits
past the build's wall-clock limit), parsed as a stream (never held whole), and only regular
files and folders with safe relative names are written, through ``sandbox.untrusted``, within
the artifact's caps (``built.ARTIFACT_MAX_BYTES``, ``ARTIFACT_MAX_FILES``, the names' lengths
of ``bundle_limits``); links, FIFOs and devices are skipped, as the folder walk skips them.
The build log is a member, read no further than its cap and never written. A stream that is
not such an archive fails the build as the bot's fault (:class:`BadArchive`).
"""

from __future__ import annotations

import io
import os
import tarfile
import time
from collections.abc import Iterator
from pathlib import PurePosixPath
from typing import IO, Any

from sandbox import untrusted
from sandbox.built import ARTIFACT_MAX_BYTES, ARTIFACT_MAX_FILES
from sandbox.bundle_limits import MAX_NAME_BYTES, MAX_PATH_BYTES
from sandbox.host_build import OUTPUT_CAP

_BLOCK = 512
#: What the stream may carry: the files' cap, a header and a block of padding a member (a long
#: name takes a few more), and tar's end records.
STREAM_CAP = ARTIFACT_MAX_BYTES + (ARTIFACT_MAX_FILES + 64) * 4 * _BLOCK + (1 << 20)
#: What a build replaced its log with, when that is not a regular file (never read).
NOT_A_LOG = b"(the build replaced its log with something that is not a file)"
_CHUNK = 1 << 16
#: The bytes kept of what tar read last: its buffer (a record) and a header, and more.
_TAIL = 4 * 10240
_FILE_TYPES = (tarfile.REGTYPE, tarfile.AREGTYPE)
#: The log's bytes kept: one over the compiler output's cap says it was cut.
LOG_CAP = OUTPUT_CAP + 1


class BadArchive(Exception):
    """The container's stream is not the archive of a build's folder within the caps: the
    bot's fault. ``str()`` is for its owner."""


class StreamTimeout(Exception):
    """The stream did not end before the build's deadline."""


class AttachedStdout(io.RawIOBase):
    """The stdout of an attached container (tty off: the engine multiplexes stdout and stderr
    in frames of an 8-byte header, the stream's kind then the payload's size, and the payload)
    as a file: stderr is dropped, every read waits no later than ``deadline`` (monotonic), and
    past ``cap`` bytes of payload the stream is :class:`BadArchive`."""

    def __init__(self, sock: Any, deadline: float, cap: int = STREAM_CAP) -> None:
        super().__init__()
        self._sock = getattr(sock, "_sock", sock)
        self._deadline = deadline
        self._cap = cap
        self._raw = bytearray()  # received, not yet demultiplexed
        self._kind = 1
        self._left = 0  # payload bytes of the current frame not yet received into _raw
        self._eof = False
        self.taken = 0  # payload bytes (both streams) seen
        self.handed = 0  # stdout bytes handed to the reader
        self.tail = bytearray()  # the last of them

    def readable(self) -> bool:
        return True

    @property
    def ended(self) -> bool:
        """The stream reached its end (the container's stdout closed: it is ending)."""
        return self._eof

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer).cast("B")
        while True:
            if self._left and self._raw:
                n = min(self._left, len(self._raw))
                if self._kind != 2:
                    n = min(n, len(view))
                chunk = bytes(self._raw[:n])
                del self._raw[:n]
                self._left -= n
                self._count(n)
                if self._kind == 2:
                    continue  # the container's stderr: nothing of ours is there
                view[:n] = chunk
                self._keep(chunk)
                return n
            if not self._left and len(self._raw) >= 8:
                self._kind = self._raw[0]
                self._left = int.from_bytes(self._raw[4:8], "big")
                del self._raw[:8]
                continue
            if self._eof:
                return 0
            self._receive()

    def _count(self, n: int) -> None:
        self.taken += n
        if self.taken > self._cap:
            raise BadArchive(
                f"the build's output passed {self._cap // (1 << 20)} MB "
                "(the folder's archive and what the build wrote to the container's output)"
            )

    def _keep(self, chunk: bytes) -> None:
        self.handed += len(chunk)
        self.tail += chunk
        if len(self.tail) > _TAIL:
            del self.tail[: len(self.tail) - _TAIL]

    def _receive(self) -> None:
        left = self._deadline - time.monotonic()
        if left <= 0:
            raise StreamTimeout()
        self._sock.settimeout(left)
        try:
            data = self._sock.recv(_CHUNK)
        except TimeoutError:
            raise StreamTimeout() from None
        if not data:
            self._eof = True
        self._raw += data


def unpack(stream: AttachedStdout, dest: os.PathLike[str], *, log_name: str) -> bytes:
    """Unpack the build folder's archive on ``stream`` into the (empty) folder ``dest`` and
    read the stream to its end; the build log (the member ``log_name`` at the top, at most
    :data:`LOG_CAP` bytes; :data:`NOT_A_LOG` when it is not a regular file; empty when there
    is none). Raises :class:`BadArchive`, ``untrusted.TooLarge`` past the artifact's caps, or
    :class:`StreamTimeout`."""
    log = b""
    seen = [0, 0]  # bytes of files, files and folders
    dfd = untrusted.open_root(dest)
    try:
        with tarfile.open(fileobj=stream, mode="r|", bufsize=10240) as tf:
            for member in tf:
                found = _take(tf, member, dfd, seen, log_name)
                if found is not None:
                    log = found
            _check_end(stream, tf.offset)
    except (tarfile.TarError, EOFError, UnicodeError) as exc:
        raise BadArchive(f"the build's output is not the archive of its folder ({exc})") from None
    except untrusted.NotAFile as exc:
        raise BadArchive(f"the build's output holds a path that is not a file ({exc})") from None
    finally:
        os.close(dfd)
    return log


def _take(
    tf: tarfile.TarFile, member: tarfile.TarInfo, dfd: int, seen: list[int], log_name: str
) -> bytes | None:
    """Write one member (a regular file or a folder; anything else skipped), within the caps;
    the log's bytes when it is the log."""
    rel = _safe_name(member.name)
    if rel is None:
        return None  # the folder itself
    is_file = member.type in _FILE_TYPES
    if is_file or member.isdir():
        seen[0] += member.size if is_file else 0
        seen[1] += 1
        if seen[0] > ARTIFACT_MAX_BYTES:
            raise untrusted.TooLarge("the folder's files", seen[0], ARTIFACT_MAX_BYTES)
        if seen[1] > ARTIFACT_MAX_FILES:
            raise untrusted.TooLarge("the folder's number of files", seen[1], ARTIFACT_MAX_FILES)
    if rel == log_name:
        return _log_of(tf, member) if is_file else NOT_A_LOG
    if member.isdir():
        untrusted.make_folder(dfd, rel)
    elif is_file:
        mode = 0o755 if member.mode & 0o100 else 0o644
        untrusted.write_file(dfd, rel, _chunks(tf.extractfile(member)), mode)
    return None


def _log_of(tf: tarfile.TarFile, member: tarfile.TarInfo) -> bytes:
    data = tf.extractfile(member)
    return data.read(LOG_CAP) if data is not None else b""


def _chunks(data: IO[bytes] | None) -> Iterator[bytes]:
    while data is not None and (chunk := data.read(_CHUNK)):
        yield chunk


def _safe_name(name: str) -> str | None:
    """The member's path relative to the folder (None for the folder itself); an absolute
    path, a ``..``, a name too long or deep, or one that is not UTF-8 is :class:`BadArchive`."""
    path = PurePosixPath(name)
    parts = [p for p in path.parts if p not in ("", ".")]
    if path.is_absolute() or ".." in parts:
        raise BadArchive(f"the build's output names a path out of its folder: {name[:80]!r}")
    if not parts:
        return None
    rel = "/".join(parts)
    try:
        encoded = [p.encode("utf-8") for p in parts]
    except UnicodeEncodeError:
        raise BadArchive(f"the build left a file whose name is not UTF-8: {rel[:80]!r}") from None
    if any(len(p) > MAX_NAME_BYTES for p in encoded) or len(rel.encode()) > MAX_PATH_BYTES:
        raise BadArchive(
            f"the build left a path over {MAX_PATH_BYTES} bytes or a name over "
            f"{MAX_NAME_BYTES}: {rel[:80]!r}"
        )
    if len(parts) > untrusted.MAX_DEPTH:
        raise untrusted.TooLarge("the folder's depth", len(parts), untrusted.MAX_DEPTH)
    return rel


def _check_end(stream: AttachedStdout, offset: int) -> None:
    """What follows the archive's last member, to the stream's end, is tar's two end blocks
    and its padding (zeros): tar stops quietly at a header it cannot read or at the stream's
    end, which is a stream the build wrote into or cut."""
    after = stream.handed - offset
    if after > len(stream.tail):
        raise BadArchive("the build's output is not the archive of its folder (its end)")
    rest = bytes(stream.tail[len(stream.tail) - after :]) if after > 0 else b""
    buf = bytearray(_CHUNK)
    zeros = 0
    while True:
        if rest.strip(b"\0"):
            raise BadArchive("the build's output holds more than the archive of its folder")
        zeros += len(rest)
        n = stream.readinto(buf)
        if not n:
            break
        rest = bytes(buf[:n])
    if zeros < 2 * _BLOCK:
        raise BadArchive("the build's output ends before the archive of its folder does")
