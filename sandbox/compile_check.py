"""Whether a bot's code compiles, checked the way a worker may afford it: in a child process
with an address-space and a CPU-time limit, so that no file, however built, costs the checking
process more than those limits (compiling a few MiB of Python takes hundreds of MB).

The site never calls this in a web request: ``bots.tasks.check_version`` does, on a worker, once
per uploaded version, before its qualification. It is the place where a build step (other
languages, compiled once per version) belongs too.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess  # nosec B404: a fixed command line, no shell
import sys
from pathlib import Path

from sandbox.bundle import Bundle, BundleError, compile_error, read_main
from sandbox.bundle_limits import ENTRY, MAX_UNPACKED_BYTES

_CHILD = Path(__file__).with_name("compile_child.py")


def memory_limit() -> int:
    """Bytes of address space the compiler may use (``ARENA_CHECK_MEMORY_MB``, 1024)."""
    return int(os.environ.get("ARENA_CHECK_MEMORY_MB") or 1024) * 1024 * 1024


def cpu_limit() -> int:
    """Seconds of CPU the compiler may use (``ARENA_CHECK_CPU_S``, 30)."""
    return int(os.environ.get("ARENA_CHECK_CPU_S") or 30)


def check_code(filename: str, data: bytes, *, max_bytes: int = MAX_UNPACKED_BYTES) -> Bundle:
    """Everything :func:`sandbox.bundle.check_bundle` checks, and that ``main.py`` compiles
    (in a limited child process). Raises :class:`BundleError` with the uploader's message."""
    bundle, main = read_main(filename, data, max_bytes=max_bytes)
    compile_limited(main)
    return bundle


def compile_limited(
    source: bytes,
    name: str = ENTRY,
    *,
    memory_bytes: int | None = None,
    cpu_seconds: int | None = None,
) -> None:
    """Compile ``source`` in a child process under limits; :class:`BundleError` when it does
    not compile or needs more than the limits. ``OSError`` when no child could be started
    (the platform's failure, not the bot's)."""
    memory = memory_limit() if memory_bytes is None else memory_bytes
    cpu = cpu_limit() if cpu_seconds is None else cpu_seconds
    command = [sys.executable, "-I", "-S", str(_CHILD), name, str(memory), str(cpu)]
    try:
        done = subprocess.run(  # nosec B603: our own interpreter and script
            command,
            input=source,
            capture_output=True,
            timeout=2 * cpu + 10,  # CPU time is the limit; this only catches a stuck child
            env={"PATH": os.defpath, "LC_ALL": "C.UTF-8"},
            close_fds=True,
        )
    except subprocess.TimeoutExpired:
        raise _too_slow(name, cpu) from None
    if done.returncode in (-signal.SIGXCPU, -signal.SIGKILL):
        raise _too_slow(name, cpu)
    try:
        answer = json.loads(done.stdout.decode("utf-8"))
    except ValueError:
        # No answer: it died, most likely from the memory limit (a MemoryError outside
        # compile(), or the limit reached while reading the source).
        raise BundleError(
            f"{name} needs more than {memory // (1024 * 1024)} MiB to compile; make it smaller "
            "(move data into a file it reads)."
        ) from None
    if not answer.get("ok"):
        raise compile_error(name, answer)


def _too_slow(name: str, cpu: int) -> BundleError:
    return BundleError(
        f"{name} takes more than {cpu} s to compile; make it smaller (move data into a file "
        "it reads)."
    )
