"""Building a bot in a Docker build container: its language's ``build`` (or syntax ``check``)
command, in the language's ``build_image``, with the bot's folder the only writable place.

The build container is locked down like a match container (``sandbox.docker_spec``: no
network, read-only root, all capabilities dropped, no-new-privileges, user nobody (or the
worker's own uid when it is not root), tmpfs /tmp,
no log driver, the sandbox's labels so that the reaper finds a leftover) with a build's larger
limits, a wall-clock limit, and its output capped: the compiler's first bytes are kept in the
bot's folder (``.meeple-build.log``) and the rest is cut off, which stops a compiler bomb that
floods its output. A build that fails, is killed, takes too long or leaves more than
``built.ARTIFACT_MAX_BYTES`` in its folder (watched while it runs, checked after) raises
:class:`BuildFailed` with the compiler's first lines, for the bot's owner.

The build runs the uploader's code (a ``build.rs``, an annotation processor): everything in
the folder afterwards is hostile, the log included (it may be a link to a host file, a FIFO,
a huge file). The host reads and changes it only through ``sandbox.untrusted`` and writes no
mark there (``sandbox.built`` remembers the build).
"""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path
from typing import Any

from sandbox import untrusted
from sandbox.base import BotCode, Limits
from sandbox.built import ARTIFACT_MAX_FILES, is_built, mark_built, output_over_cap
from sandbox.docker_engine import launch, remove
from sandbox.docker_spec import BOT_USER, container_kwargs
from sandbox.host_build import OUTPUT_CAP, BuildFailed, failure_message
from sandbox.languages import BINARY, get_language

#: Wall-clock limit of one build (rustc and javac start slowly; a compiler bomb stops here).
BUILD_TIMEOUT_S = 120
#: A build's limits: compilers want more memory, processes and disk than a bot.
BUILD_LIMITS = Limits(
    memory_mb=2048, pids=256, tmpfs_mb=512, file_size_mb=256, cpu_seconds=BUILD_TIMEOUT_S
)
LOG = ".meeple-build.log"
#: How often a running build's folder is measured against the cap.
WATCH_S = 2.0


def needs_build(code: BotCode) -> bool:
    """True when ``code``'s language is compiled and its folder holds no build yet (a stored
    build, which the worker's check made, carries :data:`BUILT`). An interpreted language's
    syntax check is the upload's, never a match's."""
    return get_language(code.language).compiled and not is_built(code)


def build_in_docker(
    code: BotCode, client: Any, *, timeout_s: float = BUILD_TIMEOUT_S, api_timeout_s: float = 15.0
) -> None:
    """Build (or check) ``code`` in place, in a build container of its language. Raises
    :class:`BuildFailed` (the bot's fault: compiler errors, killed, too slow) or
    :class:`SandboxError` (the engine's or the image's)."""
    lang = get_language(code.language)
    command = lang.build or lang.check
    if not command:
        return
    root = code.root
    _open_for_build(root)
    # The command's output through head: its first OUTPUT_CAP bytes kept, a flood cut off.
    script = (
        f'{{ "$@"; echo $? > /tmp/.rc; }} 2>&1 | head -c {OUTPUT_CAP + 1} > {LOG}; '
        'exit "$(cat /tmp/.rc 2>/dev/null || echo 141)"'
    )
    kw = container_kwargs(
        code,
        {"build": "1", **code.labels},
        BUILD_LIMITS,
        command=["sh", "-c", script, "build", *command],
        stdin=False,
    )
    kw["volumes"] = {str(root): {"bind": "/bot", "mode": "rw"}}
    kw["user"] = build_user()
    # Build tools run helpers from their temporary folder (cargo's build scripts, go's link).
    kw["tmpfs"] = {"/tmp": f"rw,nosuid,nodev,size={BUILD_LIMITS.tmpfs_mb}m,mode=1777"}
    container, _ = launch(client, lang.build_image, kw, attach=False)
    try:
        status = _wait(container, timeout_s, root)
        if status is None:
            raise BuildFailed(f"the {lang.name} build took over {timeout_s:.0f} s and was stopped")
        oom = _oom_killed(container)
    finally:
        remove(container)
        _close_after_build(root)
    _finish(code, lang.name, status, oom)


def _finish(code: BotCode, name: str, status: int, oom: bool) -> None:
    """After the build container is gone: its log, its limits, its program (all read without
    following anything the build left)."""
    lang = get_language(code.language)
    too_large = output_over_cap(code.root)  # the log counts: it is in the folder
    output = _read_log(code.root)
    if too_large or status == _TOO_LARGE:
        raise BuildFailed(f"the {name} build failed: {too_large or 'it left too much'}")
    if oom:
        raise BuildFailed(f"the {name} build ran out of memory ({BUILD_LIMITS.memory_mb} MB)")
    if status != 0:
        raise BuildFailed(_failure(name, status, output))
    if lang.run[:1] == (f"./{BINARY}",) and not untrusted.is_file(code.root, BINARY):
        shown = output.decode("utf-8", "replace")
        raise BuildFailed(f"the {name} build made no program ({BINARY}):\n{shown}".rstrip())
    if lang.compiled:
        mark_built(code)


#: The status :func:`_wait` gives a build killed for what it left in its folder.
_TOO_LARGE = -1


def _wait(container: Any, timeout_s: float, root: Path) -> int | None:
    """The build's exit status, or None when it ran past ``timeout_s``, or ``_TOO_LARGE``
    when its folder passed the cap meanwhile (it is then killed)."""
    deadline = time.monotonic() + timeout_s
    while True:
        left = deadline - time.monotonic()
        try:
            result = container.wait(timeout=max(0.1, min(WATCH_S, left)))
            return int(result.get("StatusCode", 1))
        except Exception:  # requests' ReadTimeout / ConnectionError: still running
            pass
        too_slow = time.monotonic() >= deadline
        if too_slow or output_over_cap(root):
            with contextlib.suppress(Exception):
                container.kill()
            return None if too_slow else _TOO_LARGE


def _oom_killed(container: Any) -> bool:
    try:
        container.reload()
        return bool(container.attrs["State"].get("OOMKilled"))
    except Exception:
        return False


def _read_log(root: Path) -> bytes:
    """The compiler's output kept by ``head``: one byte over the cap means it was cut. The
    build may have replaced the log: a link, a FIFO or a device is refused, never read, and
    a huge file is read no further than the cap."""
    try:
        data = untrusted.read_head(root, LOG, OUTPUT_CAP + 1)
    except untrusted.NotAFile:
        if untrusted.lstat(root, LOG) is None:
            return b""  # no log: the build removed it
        data = b"(the build replaced its log with something that is not a file)"
    with contextlib.suppress(OSError):
        untrusted.remove(root, LOG)
    return data


def _failure(name: str, status: int, output: bytes) -> str:
    how = f"killed by signal {status - 128}" if status > 128 else f"exit status {status}"
    return failure_message(name, how, output, file_mb=BUILD_LIMITS.file_size_mb)


def build_user() -> str:
    """Who the build runs as: nobody when the worker is root (root in a container is not to
    be had), else the worker's own unprivileged uid, so that it can remove what the build
    wrote."""
    if os.getuid() == 0:
        return BOT_USER
    return f"{os.getuid()}:{os.getgid()}"


def _open_for_build(root: Path) -> None:
    """A build as nobody (a root worker's) may write the folder (this worker's own temporary
    copy; closed again after the build)."""
    if os.getuid() != 0:
        return  # the build runs as the folder's owner
    _chmod_folders(root, 0o777)


def _close_after_build(root: Path) -> None:
    with contextlib.suppress(OSError, untrusted.TooLarge):  # checked after, with its message
        _chmod_folders(root, 0o755)


def _chmod_folders(root: Path, mode: int) -> None:
    """Every folder of the tree (never through a link), bounded like the artifact."""
    fd = untrusted.open_root(root)
    try:
        untrusted.chmod(fd, ".", mode)
        for entry in untrusted.walk(fd, max_bytes=2**62, max_files=ARTIFACT_MAX_FILES):
            if entry.is_dir:
                with contextlib.suppress(OSError):  # replaced meanwhile: not followed
                    untrusted.chmod(fd, entry.rel, mode)
    finally:
        os.close(fd)
