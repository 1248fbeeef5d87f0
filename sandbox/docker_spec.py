"""What a bot container is created with: its command, limits, labels and lock-down. The cold path
(``sandbox.docker``) and the warm pool (``sandbox.pool``) create theirs from the very same.

Each container: no network, read-only root, a size-capped tmpfs /tmp, memory without swap, a
process-count limit, a CPU quota, all capabilities dropped, no-new-privileges, user nobody,
file-size/open-file/CPU-time ulimits, the bot's code mounted read-only at /bot, and no log
driver (a bot's output never reaches the host's disk).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from sandbox.base import BotCode, Limits
from sandbox.languages import get_language
from sandbox.workers import worker_id

LABEL = "meeple-arena"  # label prefix; "meeple-arena.sandbox=1" marks every bot container
BOT_USER = "65534:65534"
BOT_UID = 65534


def run_command(code: BotCode) -> list[str]:
    """The bot's command in its container: its language's run command (``sandbox.languages``)
    for its entry file."""
    return get_language(code.language).run_command(code.entry)


def image_of(code: BotCode, default: str) -> str:
    """The image a bot runs in: ``default`` (the sandbox's own runtime) for the language of
    that runtime, else its language's."""
    lang = get_language(code.language)
    return default if lang.sandbox_runtime else lang.image


def language_limits(code: BotCode, limits: Limits) -> Limits:
    """``limits`` raised to what the bot's language needs at least (a JVM's memory and
    threads): the language's defaults are a floor, an organiser's larger limits stay."""
    lang = get_language(code.language)
    return replace(
        limits, memory_mb=max(limits.memory_mb, lang.memory_mb), pids=max(limits.pids, lang.pids)
    )


def container_labels(labels: dict[str, str]) -> dict[str, str]:
    """The engine labels of a bot container: every bot's mark, its worker, and ``labels``
    (e.g. match and seat) under the prefix, so that the reaper finds it."""
    out = {f"{LABEL}.sandbox": "1", f"{LABEL}.worker": worker_id()}
    out.update({f"{LABEL}.{k}": str(v) for k, v in labels.items()})
    return out


def container_kwargs(
    code: BotCode,
    labels: dict[str, str],
    limits: Limits,
    *,
    runtime: str | None = None,
    command: list[str] | None = None,
    extra_volumes: dict[str, dict[str, str]] | None = None,
    stdin: bool = True,
) -> dict[str, Any]:
    """Everything a bot container is created with (``containers.create``'s arguments). The
    warm pool passes its loader as ``command``, an empty code folder, its FIFO folder as
    ``extra_volumes`` and no attached stdin; ``runtime`` is an OCI runtime (e.g. runsc)."""
    from docker.types import LogConfig, Ulimit

    mb = 1024 * 1024
    kw: dict[str, Any] = dict(
        command=command or run_command(code),
        stdin_open=stdin,
        tty=False,
        user=BOT_USER,
        working_dir="/bot",
        environment={
            "HOME": "/tmp",
            "PYTHONUNBUFFERED": "1",
            "PYTHONDONTWRITEBYTECODE": "1",
            "LANG": "C.UTF-8",
            **get_language(code.language).env,
        },
        hostname="bot",
        labels=container_labels(labels),
        network_mode="none",
        read_only=True,
        tmpfs={"/tmp": f"rw,nosuid,nodev,noexec,size={limits.tmpfs_mb}m,mode=1777"},
        volumes={str(code.root): {"bind": "/bot", "mode": "ro"}, **(extra_volumes or {})},
        mem_limit=f"{limits.memory_mb}m",
        memswap_limit=f"{limits.memory_mb}m",  # equal to memory: no swap beyond it
        pids_limit=limits.pids,
        nano_cpus=int(limits.cpus * 1e9),
        cap_drop=["ALL"],
        security_opt=["no-new-privileges"],
        ipc_mode="private",
        shm_size="16m",
        init=True,  # tini as pid 1: reaps zombies, and a bot cannot signal the engine
        ulimits=[
            Ulimit(name="fsize", soft=limits.file_size_mb * mb, hard=limits.file_size_mb * mb),
            Ulimit(name="nofile", soft=limits.open_files, hard=limits.open_files),
            Ulimit(name="cpu", soft=limits.cpu_seconds, hard=limits.cpu_seconds + 1),
            Ulimit(name="core", soft=0, hard=0),
        ],
        log_config=LogConfig(type="none"),
    )
    if runtime:
        kw["runtime"] = runtime
    return kw
