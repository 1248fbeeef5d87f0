"""A container's attached stdout, made in a test: bytes sent over a socket pair in the engine's
multiplexed frames (8-byte header: the stream's kind, three zeros, the payload's size), by a
thread, so that ``sandbox.build_archive`` reads it as it reads a build container's."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path


def frame(payload: bytes, kind: int = 1) -> bytes:
    return bytes([kind, 0, 0, 0]) + len(payload).to_bytes(4, "big") + payload


_TAR = ["tar", "-cf", "-", "--hard-dereference", "--numeric-owner", "-C"]


def tar_of(folder: Path) -> bytes:
    """The folder as the build container's script writes it (GNU tar, hard links as files)."""
    return subprocess.run([*_TAR, str(folder), "."], check=True, capture_output=True).stdout


def tar_frames(folder: Path) -> Iterator[bytes]:
    """The same, as it comes out of tar, in frames (a huge file is never held whole)."""
    proc = subprocess.Popen([*_TAR, str(folder), "."], stdout=subprocess.PIPE)
    assert proc.stdout is not None
    try:
        while chunk := proc.stdout.read(1 << 16):
            yield frame(chunk)
    finally:
        proc.kill()
        proc.wait()


@contextlib.contextmanager
def attached(chunks: Iterable[bytes], *, close: bool = True) -> Iterator[socket.socket]:
    """The reading end of a socket pair whose other end a thread fills with ``chunks`` (raw
    bytes: frame them with :func:`frame`), then closes (unless ``close`` is False: a stream
    that stalls). The writer's end is closed when the block ends, which stops a writer the
    reader gave up on."""
    ours, theirs = socket.socketpair()

    def write() -> None:
        with contextlib.suppress(OSError):
            for chunk in chunks:
                theirs.sendall(chunk)
            if close:
                theirs.shutdown(socket.SHUT_WR)

    thread = threading.Thread(target=write, daemon=True)
    thread.start()
    try:
        yield ours
    finally:
        ours.close()
        theirs.close()
        thread.join(60)
