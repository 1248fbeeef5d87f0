"""Building a bot in a Docker build container: its language's ``build`` (or syntax ``check``)
command, in the language's ``build_image``, in a folder with a real quota.

The build container is locked down like a match container (``sandbox.docker_spec``: no
network, read-only root, all capabilities dropped, no-new-privileges, user nobody (or the
worker's own uid when it is not root), tmpfs /tmp,
no log driver, the sandbox's labels so that the reaper finds a leftover) with a build's larger
limits and a wall-clock limit. The bot's folder on the host is mounted read-only at /src; the
build runs in /bot, a tmpfs of ``built.BUILD_FOLDER_MB`` (a write past it fails with ENOSPC:
nothing of a build reaches the host's disk while it runs), where the container's script copies
the sources. The compiler's output is capped: its first bytes are kept in /bot
(``.meeple-build.log``) and the rest is cut off, which stops a compiler bomb that floods its
output. When the build ends the script writes /bot as a tar to its stdout, which the worker
reads over the attach socket (``sandbox.build_archive``: bounded, hostile), unpacks into a
folder of its own and, when the build succeeded, puts in the bot's folder in place of the
sources. A build that fails, is killed, takes too long or leaves more than
``built.ARTIFACT_MAX_BYTES`` raises :class:`BuildFailed` with the compiler's first lines, for
the bot's owner.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sandbox import untrusted
from sandbox.base import BotCode, Limits
from sandbox.build_archive import AttachedStdout, BadArchive, StreamTimeout, unpack
from sandbox.built import (
    BUILD_FOLDER_INODES,
    BUILD_FOLDER_MB,
    folder_full,
    is_built,
    mark_built,
    output_too_large,
)
from sandbox.docker_engine import launch, remove
from sandbox.docker_spec import BOT_USER, container_kwargs
from sandbox.host_build import OUTPUT_CAP, BuildFailed, failure_message
from sandbox.languages import BINARY, get_language

#: Wall-clock limit of one build (rustc and javac start slowly; a compiler bomb stops here).
#: It bounds the whole build, the reading of its folder's archive included.
BUILD_TIMEOUT_S = 120
#: A build's limits: compilers want more memory, processes and disk than a bot.
BUILD_LIMITS = Limits(
    memory_mb=2048, pids=256, tmpfs_mb=512, file_size_mb=256, cpu_seconds=BUILD_TIMEOUT_S
)
LOG = ".meeple-build.log"
#: Where the bot's folder is mounted, read-only, in the build container.
SRC = "/src"
#: The container's script: copy the sources, run the command (``"$@"``) with its output
#: through head (its first OUTPUT_CAP bytes kept, a flood cut off), then write the folder as a
#: tar to stdout whatever the build's end (hard links stored as files), and exit with the
#: build's status.
SCRIPT = (
    f'{{ cp -R {SRC}/. . && "$@"; echo $? > /tmp/.rc; }} 2>&1 | head -c {OUTPUT_CAP + 1} > {LOG}; '
    'rc="$(cat /tmp/.rc 2>/dev/null || echo 141)"; '
    "tar -cf - --hard-dereference --numeric-owner -C /bot . 2>/dev/null; "
    'exit "$rc"'
)


@dataclass(frozen=True)
class _Ended:
    """How a build container ended: its status (None: past the wall-clock limit), whether
    it ran out of memory, its log, and what was wrong with its folder's archive (for its
    owner; None when it was unpacked)."""

    status: int | None
    oom: bool
    log: bytes
    bad: str | None


def needs_build(code: BotCode) -> bool:
    """True when ``code``'s language is compiled and its folder holds no build yet (a stored
    build, which the worker's check made, carries :data:`BUILT`). An interpreted language's
    syntax check is the upload's, never a match's."""
    return get_language(code.language).compiled and not is_built(code)


def build_in_docker(
    code: BotCode, client: Any, *, timeout_s: float = BUILD_TIMEOUT_S, api_timeout_s: float = 15.0
) -> None:
    """Build (or check) ``code`` in place, in a build container of its language. Raises
    :class:`BuildFailed` (the bot's fault: compiler errors, killed, too slow, too much left)
    or :class:`SandboxError` (the engine's or the image's)."""
    lang = get_language(code.language)
    command = lang.build or lang.check
    if not command:
        return
    # What the build leaves is unpacked here, next to the bot's folder (the same file system),
    # and moved into it only when the build succeeded.
    out = Path(tempfile.mkdtemp(prefix=f".{code.root.name}-build-", dir=code.root.parent))
    try:
        ended = _run(code, client, list(command), timeout_s, out)
        if ended.status is None:
            raise BuildFailed(f"the {lang.name} build took over {timeout_s:.0f} s and was stopped")
        _finish(code, lang.name, ended, out)
    finally:
        shutil.rmtree(out, ignore_errors=True)


def _run(code: BotCode, client: Any, command: list[str], timeout_s: float, out: Path) -> _Ended:
    """Run the build container, unpack its folder's archive into ``out`` as it comes."""
    kw = container_kwargs(
        code,
        {"build": "1", **code.labels},
        BUILD_LIMITS,
        command=["sh", "-c", SCRIPT, "build", *command],
        stdin=False,
    )
    kw["volumes"] = {str(code.root): {"bind": SRC, "mode": "ro"}}
    user = build_user()
    kw["user"] = user
    uid, gid = user.split(":")
    # Build tools run helpers from their temporary folders (cargo's build scripts, go's link).
    kw["tmpfs"] = {
        "/tmp": f"rw,nosuid,nodev,size={BUILD_LIMITS.tmpfs_mb}m,mode=1777",
        "/bot": f"rw,exec,nosuid,nodev,size={BUILD_FOLDER_MB}m,nr_inodes={BUILD_FOLDER_INODES},"
        f"uid={uid},gid={gid},mode=0755",
    }
    deadline = time.monotonic() + timeout_s
    container, sock = launch(client, get_language(code.language).build_image, kw, attach=True)
    try:
        stream = AttachedStdout(sock, deadline)
        log, bad = b"", None
        try:
            log = unpack(stream, out, log_name=LOG)
        except StreamTimeout:
            return _Ended(None, False, b"", None)
        except BadArchive as exc:
            bad = str(exc)
        except untrusted.TooLarge as exc:
            bad = output_too_large(exc)
        # The stream's end is the container's: its status is there at once. A stream given up
        # half-read is not waited for (the container may be stuck writing it).
        status = _wait(container, deadline) if bad is None or stream.ended else 1
        return _Ended(status, _oom_killed(container), log, bad)
    finally:
        # The attach socket closed before the kill (its raw socket too: a kill with unread
        # output hangs).
        for end in (getattr(sock, "_sock", sock), sock):
            with contextlib.suppress(Exception):
                end.close()
        remove(container)


def _wait(container: Any, deadline: float) -> int | None:
    """The container's exit status, or None when it is still running at ``deadline``."""
    try:
        result = container.wait(timeout=max(1.0, deadline - time.monotonic()))
        return int(result.get("StatusCode", 1))
    except Exception:  # requests' ReadTimeout / ConnectionError: still running
        return None


def _finish(code: BotCode, name: str, ended: _Ended, out: Path) -> None:
    """After the build container is gone: its limits, its log, its program (in ``out``), and
    what it left moved into the bot's folder."""
    lang = get_language(code.language)
    if ended.oom:
        raise BuildFailed(f"the {name} build ran out of memory ({BUILD_LIMITS.memory_mb} MB)")
    if ended.bad is not None:
        raise BuildFailed(f"the {name} build failed: {ended.bad}")
    if ended.status != 0:
        raise BuildFailed(_failure(name, ended.status or 1, ended.log))
    if lang.run[:1] == (f"./{BINARY}",) and not untrusted.is_file(out, BINARY):
        shown = ended.log.decode("utf-8", "replace")
        raise BuildFailed(f"the {name} build made no program ({BINARY}):\n{shown}".rstrip())
    _merge(out, code.root)
    if lang.compiled:
        mark_built(code)


def _merge(out: Path, root: Path) -> None:
    """Move what the build left (``out``: regular files and folders of ours only) into the
    bot's folder, over the sources of the same names (the folder is the platform's, or the
    user's own for ``arena play``: the build saw it read-only). Nothing is followed."""
    for child in out.iterdir():
        dest = root / child.name
        st = os.lstat(dest) if os.path.lexists(dest) else None
        if child.is_dir() and st is not None and stat.S_ISDIR(st.st_mode):
            _merge(child, dest)
            continue
        if st is not None and stat.S_ISDIR(st.st_mode):
            shutil.rmtree(dest)
        os.replace(child, dest)


def _oom_killed(container: Any) -> bool:
    try:
        container.reload()
        return bool(container.attrs["State"].get("OOMKilled"))
    except Exception:
        return False


def _failure(name: str, status: int, output: bytes) -> str:
    how = f"killed by signal {status - 128}" if status > 128 else f"exit status {status}"
    message = failure_message(name, how, output, file_mb=BUILD_LIMITS.file_size_mb)
    if b"No space left on device" in output[:OUTPUT_CAP]:
        message += f"\n(stopped at a limit: {folder_full()})"
    return message


def build_user() -> str:
    """Who the build runs as: nobody when the worker is root (root in a container is not to
    be had), else the worker's own unprivileged uid, so that it can remove what the build
    wrote."""
    if os.getuid() == 0:
        return BOT_USER
    return f"{os.getuid()}:{os.getgid()}"
