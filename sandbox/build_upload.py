"""Building an uploaded version once, on a worker: its language's build (or syntax check) in a
Docker build container (``sandbox.docker_build``) when an engine answers and the language's
build image is there, else with this machine's toolchain (``sandbox.host_build``: the embedded
default, no security boundary). A compiled language's result is its artifact: the built folder
as a zip, which the platform stores by its SHA-256 and workers run as they run uploads; so is
an upload that could be several languages' bots, marked with the one its uploader chose.
"""

from __future__ import annotations

import io
import os
import tempfile
import zipfile
from pathlib import Path

from sandbox.base import BotCode, SandboxError
from sandbox.built import LANGUAGE_MARK, mark_built
from sandbox.code import prepare_bot, release_bot
from sandbox.docker_build import build_in_docker
from sandbox.host_build import build_bot
from sandbox.languages import BINARY, get_language, recognise

#: A fixed time stamp: the same build gives the same artifact bytes.
_EPOCH = (1980, 1, 1, 0, 0, 0)


def build_upload(
    stored_name: str, data: bytes, language: str, *, sandbox: str | None = None
) -> bytes | None:
    """Build (or check) an upload stored as ``stored_name`` (``main.cpp``, ``bot.zip``...) in
    ``language``. Returns what workers are to run instead of the upload: a compiled
    language's built folder, or the folder of files that could be several languages' bots
    marked with the chosen one, as a zip; None when the upload runs as it is. ``sandbox`` as
    for ``get_sandbox`` (None: ``ARENA_SANDBOX``): ``docker`` builds in Docker or fails,
    ``process`` on the host, ``auto`` in Docker when it can. Raises ``BundleError``
    (``host_build.BuildFailed``: the bot's fault, for its owner) or :class:`SandboxError`
    (this machine's: no toolchain, no engine)."""
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
                return None
            (code.root / LANGUAGE_MARK).write_text(lang.key)
            return zip_folder(code.root)
        finally:
            release_bot(code)


def _build(code: BotCode, choice: str) -> None:
    image = get_language(code.language).build_image
    if choice == "process":
        _build_on_host(code)
        return
    from sandbox.docker_engine import check_image, connect

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


def zip_folder(root: Path) -> bytes:
    """The folder as a zip (sorted, fixed times; the program kept executable)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for path in sorted(p for p in root.rglob("*") if p.is_file() and not p.is_symlink()):
            rel = path.relative_to(root).as_posix()
            info = zipfile.ZipInfo(rel, _EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            mode = 0o755 if rel == BINARY or os.access(path, os.X_OK) else 0o644
            info.external_attr = (0o100000 | mode) << 16
            zf.writestr(info, path.read_bytes())
    return buf.getvalue()
