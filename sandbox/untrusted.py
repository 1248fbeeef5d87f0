"""Reading and writing a folder that a build or a bot could write: the one place that does it.

A build runs code of the uploader's (a Rust ``build.rs``, a Java annotation processor, anything
a compiler runs), and a worker is root on its host. Whatever such code leaves in the bot's
folder is hostile input: a file may have been replaced by a symbolic link to a host file (read
it and the host file goes into the owner's failure reason; write it and the host file is
overwritten), by a FIFO (a read blocks the worker for good), by a device node, or by a file far
larger than anything the platform means to hold. So nothing in such a folder is opened by path:

- every component is opened relative to its parent's descriptor with ``O_NOFOLLOW`` (a link
  anywhere on the way is refused, never followed), from a root the platform made;
- a file is first opened ``O_PATH`` (which opens nothing: no FIFO blocks, no device runs) and
  ``fstat``-ed; only a regular file is then reopened for reading through its own descriptor;
- reads are bounded: past the caller's cap a read stops, never reads the whole file;
- a walk of the tree lists regular files and folders only (links, FIFOs, sockets and devices
  are skipped, never followed) and stops with :class:`TooLarge` past a total size or a number
  of files.

Hard links are no way in: a build sees no host file on the bot folder's mount (a Docker build
sees the folder alone; a host build's bubblewrap binds it on its own, and link() across mounts
fails).
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

#: Linux's O_PATH opens nothing (a FIFO, a device); elsewhere (the command line on another
#: Unix) a non-blocking read-only open with O_NOFOLLOW is the nearest, a link still refused.
_HAS_O_PATH = hasattr(os, "O_PATH")
_PATH = (os.O_PATH if _HAS_O_PATH else os.O_RDONLY | os.O_NONBLOCK) | os.O_NOFOLLOW | os.O_CLOEXEC
_DIR = _PATH | os.O_DIRECTORY
#: Folders deeper than this are not walked (a build could nest them until a path is too long).
MAX_DEPTH = 64
_CHUNK = 1 << 16


class NotAFile(OSError):
    """What was to be a regular file (or a folder on the way to it) is something else: a
    symbolic link, a FIFO, a socket, a device, missing. Never followed nor opened."""


class TooLarge(ValueError):
    """A file or a tree passed its cap. ``size`` is what was seen when it stopped (at least
    ``limit + 1``), ``limit`` the cap."""

    def __init__(self, what: str, size: int, limit: int) -> None:
        super().__init__(f"{what}: over {limit} bytes")
        self.size = size
        self.limit = limit


@dataclass(frozen=True)
class Entry:
    """A regular file or a folder met by :func:`walk`: its POSIX path relative to the root."""

    rel: str
    is_dir: bool
    size: int
    mode: int


def _parts(rel: str | PurePosixPath) -> list[str]:
    parts = [p for p in PurePosixPath(rel).parts if p not in ("", ".")]
    if not parts or any(p in ("..", "/") for p in parts) or PurePosixPath(rel).is_absolute():
        raise NotAFile(f"not a relative path inside the folder: {rel}")
    return parts


def open_root(root: str | os.PathLike[str]) -> int:
    """An ``O_PATH`` descriptor of the folder ``root`` (a folder the platform made; a link
    there is refused too). Close it with ``os.close``."""
    try:
        return os.open(root, _DIR)
    except OSError as exc:
        raise NotAFile(f"not a folder: {root} ({exc.strerror})") from exc


def _open_parent(root_fd: int, parts: list[str], *, make: bool = False) -> int:
    """An ``O_PATH`` descriptor of the folder holding ``parts[-1]``, each folder on the way
    opened without following a link (and, with ``make``, made first when missing)."""
    fd = os.dup(root_fd)
    try:
        for name in parts[:-1]:
            if make:
                with contextlib.suppress(FileExistsError):
                    os.mkdir(name, 0o755, dir_fd=fd)
            try:
                nxt = os.open(name, _DIR, dir_fd=fd)
            except OSError as exc:
                raise NotAFile(f"{name}: not a folder ({exc.strerror})") from exc
            os.close(fd)
            fd = nxt
    except BaseException:
        os.close(fd)
        raise
    return fd


def _open_path(root_fd: int, rel: str | PurePosixPath) -> tuple[int, os.stat_result]:
    """An ``O_PATH`` descriptor of ``rel`` itself (a link is opened as the link) and its
    ``fstat``."""
    parts = _parts(rel)
    parent = _open_parent(root_fd, parts)
    try:
        fd = os.open(parts[-1], _PATH, dir_fd=parent)
    except OSError as exc:
        raise NotAFile(f"{rel}: {exc.strerror}") from exc
    finally:
        os.close(parent)
    return fd, os.fstat(fd)


def _reopen(path_fd: int, flags: int) -> int:
    """The very file an ``O_PATH`` descriptor names, opened for I/O (the /proc link names the
    inode, not a path: nothing is looked up again)."""
    if not _HAS_O_PATH:
        return os.dup(path_fd)  # opened for reading already
    return os.open(f"/proc/self/fd/{path_fd}", flags | os.O_CLOEXEC | os.O_NONBLOCK)


@contextlib.contextmanager
def _root_fd(root: str | os.PathLike[str] | int) -> Iterator[int]:
    if isinstance(root, int):
        yield root
        return
    fd = open_root(root)
    try:
        yield fd
    finally:
        os.close(fd)


def lstat(root: str | os.PathLike[str] | int, rel: str) -> os.stat_result | None:
    """What ``rel`` is (a link as the link), None when it or a folder on the way is missing
    or a link."""
    with _root_fd(root) as rfd:
        try:
            fd, st = _open_path(rfd, rel)
        except NotAFile:
            return None
        os.close(fd)
        return st


def is_file(root: str | os.PathLike[str] | int, rel: str) -> bool:
    """True when ``rel`` is a regular file reached without a link."""
    st = lstat(root, rel)
    return st is not None and stat.S_ISREG(st.st_mode)


@contextlib.contextmanager
def open_file(root: str | os.PathLike[str] | int, rel: str) -> Iterator[int]:
    """A descriptor for reading the regular file ``rel`` (non-blocking); :class:`NotAFile`
    for anything else."""
    with _root_fd(root) as rfd:
        pfd, st = _open_path(rfd, rel)
        try:
            if not stat.S_ISREG(st.st_mode):
                raise NotAFile(f"{rel}: not a regular file")
            fd = _reopen(pfd, os.O_RDONLY)
        finally:
            os.close(pfd)
    try:
        yield fd
    finally:
        os.close(fd)


def read_head(root: str | os.PathLike[str] | int, rel: str, limit: int) -> bytes:
    """At most ``limit`` bytes of the regular file ``rel`` (its first ones)."""
    with open_file(root, rel) as fd:
        return read_fd(fd, limit)


def read_fd(fd: int, limit: int) -> bytes:
    """At most ``limit`` bytes from ``fd``, until its end."""
    chunks: list[bytes] = []
    left = limit
    while left > 0:
        chunk = os.read(fd, min(_CHUNK, left))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def read_file(root: str | os.PathLike[str] | int, rel: str, cap: int) -> bytes:
    """The whole regular file ``rel``; :class:`TooLarge` when it holds over ``cap`` bytes."""
    data = read_head(root, rel, cap + 1)
    if len(data) > cap:
        raise TooLarge(rel, len(data), cap)
    return data


def remove(root: str | os.PathLike[str] | int, rel: str) -> None:
    """Remove ``rel`` whatever it is but a folder (a link is removed, never followed); nothing
    when it is missing."""
    parts = _parts(rel)
    with _root_fd(root) as rfd:
        try:
            parent = _open_parent(rfd, parts)
        except NotAFile:
            return
        try:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(parts[-1], dir_fd=parent)
        finally:
            os.close(parent)


def chmod(root: str | os.PathLike[str] | int, rel: str, mode: int) -> None:
    """Set the mode of the regular file or folder ``rel`` (``"."`` for the root); a link or
    anything else is refused with :class:`NotAFile`."""
    with _root_fd(root) as rfd:
        if rel in ("", "."):
            pfd, st = os.dup(rfd), os.fstat(rfd)
        else:
            pfd, st = _open_path(rfd, rel)
        try:
            _chmod_fd(pfd, st, mode, rel)
        finally:
            os.close(pfd)


def _chmod_fd(pfd: int, st: os.stat_result, mode: int, rel: str) -> None:
    if not (stat.S_ISREG(st.st_mode) or stat.S_ISDIR(st.st_mode)):
        raise NotAFile(f"{rel}: not a regular file nor a folder")
    # chmod through the descriptor's /proc link changes that inode (no path looked up again).
    if _HAS_O_PATH:
        os.chmod(f"/proc/self/fd/{pfd}", mode)
    else:
        os.fchmod(pfd, mode)


def walk(root: str | os.PathLike[str] | int, *, max_bytes: int, max_files: int) -> Iterator[Entry]:
    """The regular files and folders under ``root`` (folders before what they hold, names
    sorted), never through a link; links, FIFOs, sockets and devices are skipped. Raises
    :class:`TooLarge` once the files' sizes pass ``max_bytes`` or their number
    ``max_files`` (a folder counts as a file there: a build could make millions)."""
    totals = [0, 0]
    with _root_fd(root) as rfd:
        yield from _walk(rfd, "", 0, totals, max_bytes, max_files)


def _walk(
    dfd: int, prefix: str, depth: int, totals: list[int], max_bytes: int, max_files: int
) -> Iterator[Entry]:
    # scandir needs a real descriptor (an O_PATH one cannot be read); it reads a copy of it.
    rfd = _reopen(dfd, os.O_RDONLY | os.O_DIRECTORY)
    try:
        with os.scandir(rfd) as it:
            named = sorted(it, key=lambda e: e.name)
            entries = [(e.name, st) for e in named if (st := _lstat(e)) is not None]
    finally:
        os.close(rfd)
    for name, st in entries:
        rel = f"{prefix}{name}"
        if stat.S_ISREG(st.st_mode):
            totals[0] += st.st_size
            totals[1] += 1
        elif stat.S_ISDIR(st.st_mode):
            totals[1] += 1
        else:
            continue  # a link, a FIFO, a socket, a device: not ours to read
        if totals[0] > max_bytes:
            raise TooLarge("the folder's files", totals[0], max_bytes)
        if totals[1] > max_files:
            raise TooLarge("the folder's number of files", totals[1], max_files)
        if stat.S_ISREG(st.st_mode):
            yield Entry(rel, False, st.st_size, st.st_mode)
            continue
        if depth >= MAX_DEPTH:
            raise TooLarge("the folder's depth", depth + 1, MAX_DEPTH)
        try:
            sub = os.open(name, _DIR, dir_fd=dfd)
        except OSError:
            continue  # replaced by a link or removed meanwhile: skipped, as a link is
        try:
            yield Entry(rel, True, 0, st.st_mode)
            yield from _walk(sub, f"{rel}/", depth + 1, totals, max_bytes, max_files)
        finally:
            os.close(sub)


def _lstat(entry: os.DirEntry[str]) -> os.stat_result | None:
    try:
        return entry.stat(follow_symlinks=False)
    except OSError:
        return None  # gone meanwhile


def write_file(
    root: str | os.PathLike[str] | int, rel: str, chunks: Iterator[bytes], mode: int
) -> int:
    """Create (or replace) the regular file ``rel`` with ``chunks``, its folders made as
    needed, nothing on the way followed: a link or a FIFO already there is removed first, so
    that the write lands in a new file of ours. Returns the bytes written."""
    parts = _parts(rel)
    with _root_fd(root) as rfd:
        parent = _make_parents(rfd, parts)
        try:
            with contextlib.suppress(FileNotFoundError, IsADirectoryError):
                os.unlink(parts[-1], dir_fd=parent)
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
            fd = os.open(parts[-1], flags, mode, dir_fd=parent)
        finally:
            os.close(parent)
    written = 0
    try:
        for chunk in chunks:
            _write_all(fd, chunk)
            written += len(chunk)
        os.fchmod(fd, mode)
    finally:
        os.close(fd)
    return written


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _make_parents(root_fd: int, parts: list[str]) -> int:
    return _open_parent(root_fd, parts, make=True)


def make_folder(root: str | os.PathLike[str] | int, rel: str) -> None:
    """Make the folder ``rel`` and those on the way (0755), nothing followed; :class:`NotAFile`
    when something that is not a folder is in the way."""
    with _root_fd(root) as rfd:
        os.close(_make_parents(rfd, [*_parts(rel), "-"]))


def file_chunks(root: str | os.PathLike[str] | int, rel: str, cap: int) -> Iterator[bytes]:
    """The regular file ``rel`` in chunks, :class:`TooLarge` past ``cap`` bytes (its size may
    have grown since a walk saw it)."""
    with open_file(root, rel) as fd:
        seen = 0
        while chunk := os.read(fd, _CHUNK):
            seen += len(chunk)
            if seen > cap:
                raise TooLarge(rel, seen, cap)
            yield chunk


def copy_tree(
    src: str | os.PathLike[str], dest: str | os.PathLike[str], *, max_bytes: int, max_files: int
) -> None:
    """Copy the regular files and folders of ``src`` into ``dest`` (made if missing), modes
    kept, nothing followed on either side; :class:`TooLarge` past the caps (counted as read:
    a file may have grown since the walk saw it)."""
    Path(dest).mkdir(parents=True, exist_ok=True)
    with _root_fd(src) as sfd, _root_fd(dest) as dfd:
        copied = 0
        for entry in list(walk(sfd, max_bytes=max_bytes, max_files=max_files)):
            if entry.is_dir:
                make_folder(dfd, entry.rel)
                continue
            data = file_chunks(sfd, entry.rel, max_bytes - copied)
            copied += write_file(dfd, entry.rel, data, stat.S_IMODE(entry.mode))
