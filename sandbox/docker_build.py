"""Building a bot in a Docker build container: its language's ``build`` (or syntax ``check``)
command, in the language's ``build_image``, with the bot's folder the only writable place.

The build container is locked down like a match container (``sandbox.docker_spec``: no
network, read-only root, all capabilities dropped, no-new-privileges, user nobody (or the
worker's own uid when it is not root), tmpfs /tmp,
no log driver, the sandbox's labels so that the reaper finds a leftover) with a build's larger
limits, a wall-clock limit, and its output capped: the compiler's first bytes are kept in the
bot's folder (``.meeple-build.log``) and the rest is cut off, which stops a compiler bomb that
floods its output. A build that fails, is killed or takes too long raises
:class:`BuildFailed` with the compiler's first lines, for the bot's owner.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any

from sandbox.base import BotCode, Limits
from sandbox.built import is_built, mark_built
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
        status = _wait(container, timeout_s)
        if status is None:
            raise BuildFailed(f"the {lang.name} build took over {timeout_s:.0f} s and was stopped")
        oom = _oom_killed(container)
    finally:
        remove(container)
        _close_after_build(root)
    output = _read_log(root)
    if oom:
        raise BuildFailed(f"the {lang.name} build ran out of memory ({BUILD_LIMITS.memory_mb} MB)")
    if status != 0:
        raise BuildFailed(_failure(lang.name, status, output))
    if lang.run[:1] == (f"./{BINARY}",) and not (root / BINARY).is_file():
        shown = output.decode("utf-8", "replace")
        raise BuildFailed(f"the {lang.name} build made no program ({BINARY}):\n{shown}".rstrip())
    if lang.compiled:
        mark_built(code)


def _wait(container: Any, timeout_s: float) -> int | None:
    """The build's exit status, or None when it ran past ``timeout_s`` (it is then killed)."""
    try:
        result = container.wait(timeout=timeout_s)
    except Exception:  # requests' ReadTimeout / ConnectionError: too slow
        with contextlib.suppress(Exception):
            container.kill()
        return None
    return int(result.get("StatusCode", 1))


def _oom_killed(container: Any) -> bool:
    try:
        container.reload()
        return bool(container.attrs["State"].get("OOMKilled"))
    except Exception:
        return False


def _read_log(root: Path) -> bytes:
    """The compiler's output kept by ``head``: one byte over the cap means it was cut."""
    path = root / LOG
    try:
        data = path.read_bytes()
        path.unlink()
    except OSError:
        return b""
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
    for dirpath, _dirs, _files in os.walk(root):
        os.chmod(dirpath, 0o777)


def _close_after_build(root: Path) -> None:
    for dirpath, _dirs, _files in os.walk(root):
        with contextlib.suppress(OSError):  # a folder the build made belongs to nobody
            os.chmod(dirpath, 0o755)
