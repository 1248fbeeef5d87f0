"""Building an uploaded version once, on a worker: its language's build (or syntax check) in a
Docker build container (``sandbox.docker_build``) when an engine answers and the language's
build image is there, else with this machine's toolchain (``sandbox.host_build``: the embedded
default, no security boundary). A compiled language's result is its artifact: the built folder
as a zip, which the platform stores by its SHA-256 and workers run as they run uploads; so is
an upload that could be several languages' bots, marked with the one its uploader chose.

What the build left is hostile input (``sandbox.untrusted``): the folder is zipped through a
walk that follows nothing and reads regular files only, bounded by
``built.ARTIFACT_MAX_BYTES`` (past it the build fails, as the bot's fault), streamed to a
temporary file; the platform's marks are written into the zip from memory, in place of any
file of those names the build left.
"""

from __future__ import annotations

import os
import stat
import tempfile
import zipfile
from pathlib import Path
from typing import BinaryIO

from sandbox import untrusted
from sandbox.base import BotCode, SandboxError
from sandbox.built import (
    ARTIFACT_MAX_BYTES,
    ARTIFACT_MAX_FILES,
    MARKS,
    is_built,
    mark_built,
    marks,
    output_too_large,
)
from sandbox.code import prepare_bot, release_bot
from sandbox.docker_build import LOG, build_in_docker
from sandbox.docker_engine import check_image, connect
from sandbox.host_build import BuildFailed, build_bot
from sandbox.languages import BINARY, get_language, recognise

#: A fixed time stamp: the same build gives the same artifact bytes.
_EPOCH = (1980, 1, 1, 0, 0, 0)


def build_upload(
    stored_name: str, data: bytes, language: str, *, sandbox: str | None = None
) -> bytes | None:
    """:func:`build_upload_to`, the artifact returned as bytes (at most ``ARTIFACT_MAX_BYTES``;
    for the command line and tests: a worker's check streams it to storage instead)."""
    with tempfile.TemporaryFile() as out:
        if not build_upload_to(stored_name, data, language, out, sandbox=sandbox):
            return None
        out.seek(0)
        return out.read()


def build_upload_to(
    stored_name: str, data: bytes, language: str, out: BinaryIO, *, sandbox: str | None = None
) -> bool:
    """Build (or check) an upload stored as ``stored_name`` (``main.cpp``, ``bot.zip``...) in
    ``language``, writing to ``out`` what workers are to run instead of the upload: a compiled
    language's built folder, or the folder of files that could be several languages' bots
    marked with the chosen one, as a zip (at most ``ARTIFACT_MAX_BYTES``, streamed file by file:
    never held whole in memory). False, nothing written, when the upload runs as it is.
    ``sandbox`` as for ``get_sandbox`` (None: ``ARENA_SANDBOX``): ``docker`` builds in Docker
    or fails, ``process`` on the host, ``auto`` in Docker when it can. Raises ``BundleError``
    (``host_build.BuildFailed``: the bot's fault, for its owner: compiler errors, too slow, too
    much left; ``out`` then holds nothing worth keeping) or :class:`SandboxError` (this
    machine's: no toolchain, no engine). Its temporary folders are removed however it ends."""
    lang = get_language(language)
    with tempfile.TemporaryDirectory(prefix="meeple-build-") as tmp:
        path = Path(tmp) / Path(stored_name).name
        path.write_bytes(data)
        code = prepare_bot(path, language=lang.key)
        try:
            files = [p.relative_to(code.root).as_posix() for p in code.root.rglob("*")]
            # Would a worker's unpacking recognise another language (or several)? Mark it.
            ambiguous = [found.key for found in recognise(files)] != [lang.key]
            if lang.build or lang.check:
                choice = sandbox or os.environ.get("ARENA_SANDBOX") or "auto"
                _build(code, choice.strip().lower())
            if not (lang.compiled or ambiguous):
                return False
            start = out.tell()
            zip_folder(code.root, out, extra=marks(lang.key, built=is_built(code)))
            _check_artifact_size(out.tell() - start)
            return True
        finally:
            release_bot(code)


def _build(code: BotCode, choice: str) -> None:
    image = get_language(code.language).build_image
    if choice == "process":
        _build_on_host(code)
        return
    try:
        client = connect(10.0)
        check_image(client, image)
    except SandboxError:
        if choice == "docker":
            raise  # Docker was asked for: no quiet build on the host
        _build_on_host(code)
        return
    build_in_docker(code, client)


def _build_on_host(code: BotCode) -> None:
    build_bot(code)
    if get_language(code.language).compiled:
        mark_built(code)  # as a Docker build marks it


def _check_artifact_size(size: int) -> None:
    if size > ARTIFACT_MAX_BYTES:  # the unpacked cap holds, so this is a zip's own overhead
        too_large = untrusted.TooLarge("the artifact", size, ARTIFACT_MAX_BYTES)
        raise BuildFailed(output_too_large(too_large))


def zip_folder(root: Path, out: BinaryIO, *, extra: dict[str, bytes] | None = None) -> None:
    """Write the folder as a zip to ``out`` (sorted, fixed times; executables kept
    executable): its regular files and folders only, never through a link, each file read in
    chunks; ``extra`` (name -> content: the platform's marks) written from memory, and any
    file of the folder's top with one of the platform's names (its marks, the build log)
    dropped. Raises ``BuildFailed`` past ``ARTIFACT_MAX_BYTES`` or ``ARTIFACT_MAX_FILES``."""
    dropped = {*MARKS, LOG, *(extra or {})}
    rfd = untrusted.open_root(root)
    try:
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
            used = 0
            for entry in untrusted.walk(
                rfd, max_bytes=ARTIFACT_MAX_BYTES, max_files=ARTIFACT_MAX_FILES
            ):
                if not entry.is_dir and entry.rel not in dropped:
                    used += _zip_file(zf, rfd, entry, used)
            for name, content in sorted((extra or {}).items()):
                zf.writestr(_info(name, 0o644), content)
    except untrusted.TooLarge as exc:
        raise BuildFailed(output_too_large(exc)) from None
    finally:
        os.close(rfd)


def _zip_file(zf: zipfile.ZipFile, rfd: int, entry: untrusted.Entry, used: int) -> int:
    """Add one file in chunks; its bytes. It may have grown since the walk: the cap is on
    what is read."""
    executable = entry.rel == BINARY or entry.mode & stat.S_IXUSR
    size = 0
    with zf.open(_info(entry.rel, 0o755 if executable else 0o644), "w") as dest:
        for chunk in untrusted.file_chunks(rfd, entry.rel, ARTIFACT_MAX_BYTES):
            size += len(chunk)
            if used + size > ARTIFACT_MAX_BYTES:
                raise untrusted.TooLarge(entry.rel, used + size, ARTIFACT_MAX_BYTES)
            dest.write(chunk)
    return size


def _info(name: str, mode: int) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, _EPOCH)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = (0o100000 | mode) << 16
    return info
