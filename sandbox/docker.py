"""The Docker backend: one container per seat per match, talked to over the attach socket (or
over FIFOs, for a container from the warm pool, which may serve later matches of the same bot
version after a reset).

Where its parts live: what a container is created with (limits, labels, lock-down) in
``sandbox.docker_spec``; engine calls (image check, start, removal, exit state) in
``sandbox.docker_engine``; the bot the referee talks to in ``sandbox.docker_bot``; the record
of live containers in ``sandbox.live``; the warm pool in ``sandbox.pool``.

Every container carries labels naming its match and worker, and is always removed through the
engine's API: on close, by :meth:`DockerSandbox.reap` when a referee is interrupted, at
interpreter exit, and by :meth:`DockerSandbox.reap_orphans` for containers a dead worker left
behind. Every engine call has a timeout (``api_timeout_s``), and the attach socket is closed
before a container is killed: a kill of a container whose output nobody reads can otherwise
hang.
"""

from __future__ import annotations

import os
import time
from typing import Any

from sandbox.base import BotCode, BotProcess, Limits, Sandbox, SandboxError
from sandbox.built import make_runnable
from sandbox.docker_bot import DockerBot
from sandbox.docker_build import build_in_docker, needs_build
from sandbox.docker_engine import check_image, connect, launch, list_bot_containers, remove
from sandbox.docker_spec import LABEL, container_kwargs, image_of, language_limits
from sandbox.languages import LANGUAGES, get_language
from sandbox.live import CONTAINERS
from sandbox.pool import WarmPool
from sandbox.pool_slot import remove_slot_folder
from sandbox.workers import dead_worker_on_this_host

__all__ = [
    "RUNTIME_IMAGE",
    "DockerSandbox",
    "pool_reuse_setting",
    "pool_size_setting",
    "shared_sandbox",
]

#: The sandbox's own image: its runtime language's (Python's, sandbox/languages/python.py),
#: served by the warm pool. deploy/build-runtime-image.sh builds it from local files;
#: deploy/runtime/Dockerfile builds it from python:3.11-slim.
RUNTIME_IMAGE = next(lang.image for lang in LANGUAGES.values() if lang.sandbox_runtime)


def pool_size_setting() -> int:
    """``ARENA_DOCKER_POOL``: warm containers kept per worker process (0 or unset: none)."""
    raw = (os.environ.get("ARENA_DOCKER_POOL") or "0").strip()
    try:
        size = int(raw)
    except ValueError:
        raise SandboxError(
            f"ARENA_DOCKER_POOL must be a whole number of containers (0 = no pool), got {raw!r}"
        ) from None
    if not 0 <= size <= 64:
        raise SandboxError(f"ARENA_DOCKER_POOL must be between 0 and 64, got {size}")
    return size


def pool_reuse_setting(pool_size: int) -> int:
    """``ARENA_DOCKER_REUSE``: reset containers kept per worker process for later matches of
    the same bot version (unset: as many as the pool's size; 0: every container serves one
    match)."""
    raw = (os.environ.get("ARENA_DOCKER_REUSE") or "").strip()
    if not raw:
        return pool_size
    try:
        reuse = int(raw)
    except ValueError:
        raise SandboxError(
            f"ARENA_DOCKER_REUSE must be a whole number of containers (0 = no reuse), got {raw!r}"
        ) from None
    if not 0 <= reuse <= 64:
        raise SandboxError(f"ARENA_DOCKER_REUSE must be between 0 and 64, got {reuse}")
    return reuse


class DockerSandbox(Sandbox):
    name = "docker"
    is_security_boundary = True

    def __init__(
        self,
        image: str = RUNTIME_IMAGE,
        *,
        api_timeout_s: float = 15.0,
        runtime: str | None = None,
        pool_size: int | None = None,
        reuse: int | None = None,
    ) -> None:
        """``runtime`` picks an OCI runtime (e.g. ``runsc`` for gVisor) where installed;
        ``pool_size`` warm containers per limits (None: ``ARENA_DOCKER_POOL``, 0: no pool);
        ``reuse`` reset containers kept for later matches of their bot version (None:
        ``ARENA_DOCKER_REUSE``, 0: none)."""
        self.image = image
        self.api_timeout_s = api_timeout_s
        self.runtime = runtime or os.environ.get("ARENA_DOCKER_RUNTIME") or None
        self._client: Any = None
        self.pool_size = pool_size_setting() if pool_size is None else max(0, int(pool_size))
        self.reuse = pool_reuse_setting(self.pool_size) if reuse is None else max(0, int(reuse))
        self._pool: WarmPool | None = None
        self._pool_pid = 0

    # -- engine ------------------------------------------------------------------------
    @property
    def client(self) -> Any:
        if self._client is None:
            self._client = connect(self.api_timeout_s)
        return self._client

    def check(self) -> None:
        """Raise :class:`SandboxError` saying what to run unless the engine answers and the
        runtime image exists."""
        check_image(self.client, self.image)

    def start(self, code: BotCode, *, labels: dict[str, str], limits: Limits) -> BotProcess:
        # The language of this sandbox's own runtime (Python) runs in its image, warm pool
        # and all; the others run cold in their own image.
        own = get_language(code.language).sandbox_runtime
        if own and not (code.root / code.entry).is_file():
            raise SandboxError(f"bot code has no {code.entry} in {code.root}")
        if not own:
            # Code not built yet (the command line's) is built first in a build container.
            if needs_build(code):
                build_in_docker(code, self.client, api_timeout_s=self.api_timeout_s)
            make_runnable(code)
            limits = language_limits(code, limits)
        pool = self.pool if own else None
        if pool is not None:
            warm = pool.acquire(code, labels, limits)
            if warm is not None:
                return warm
            # An empty pool: start this seat the cold way, and have the pool refill meanwhile.
        kwargs = container_kwargs(code, labels, limits, runtime=self.runtime)
        container, sock = launch(self.client, image_of(code, self.image), kwargs, attach=True)
        bot = DockerBot(container, sock, limits, dict(labels))
        CONTAINERS.add(bot)
        return bot

    # -- the warm pool -------------------------------------------------------------------
    @property
    def pool(self) -> WarmPool | None:
        """This worker's warm pool (``ARENA_DOCKER_POOL`` containers per limits), or None."""
        if self.pool_size <= 0:
            return None
        pid = os.getpid()
        if self._pool is None or self._pool_pid != pid:
            # After a fork the parent's pool (its threads and sockets) is not ours to use.
            self._pool = WarmPool(self, self.pool_size, reuse=self.reuse)
            self._pool_pid = pid
        return self._pool

    def warm(self, limits: Limits | None = None) -> None:
        """Start filling the warm pool for ``limits`` (default ``Limits()``) in the background.
        A no-op without a pool."""
        pool = self.pool
        if pool is not None:
            pool.warm(limits or Limits())

    def settle(self, timeout_s: float = 60.0) -> bool:
        """Wait until every container handed to the background remover is gone (tests, and
        before a worker exits). True if none is pending."""
        pool = self._pool if self._pool_pid == os.getpid() else None
        return pool.settle(timeout_s) if pool is not None else True

    # -- clean-up ----------------------------------------------------------------------
    def containers(self, labels: dict[str, str] | None = None) -> list[Any]:
        """The engine's bot containers carrying ``labels`` (all bot containers if None)."""
        return list_bot_containers(self.client, labels)

    def reap(self, labels: dict[str, str] | None = None) -> int:
        """Remove every bot container matching ``labels`` (all bot containers if None), and
        close this worker's matching pipes. Returns how many containers were removed.

        A pooled container was created before its match was known, so it carries no match
        label: this worker finds it in its own record of live bots (labels kept in-process)."""
        mine = CONTAINERS.matching(labels)
        for bot in mine:
            bot.close_pipes()
        n = sum(1 for c in self.containers(labels) if remove(c))
        for bot in mine:
            bot.close(grace_s=0)
        for bot in mine:
            if bot.pooled and bot.wait_removed(self.api_timeout_s * 2):
                n += 1
        return n

    def reap_orphans(self, max_age_s: float | None = 6 * 3600) -> int:
        """Remove containers left by dead workers: a worker on this host whose pid is gone,
        or any bot container older than ``max_age_s`` (no match lasts that long; None: only
        the dead workers' containers, as a new warm pool does at its start)."""
        now = time.time()
        n = 0
        for c in self.containers(None):
            dead = dead_worker_on_this_host(c.labels.get(f"{LABEL}.worker", ""))
            created = c.attrs.get("Created", "")
            old = max_age_s is not None and _age_s(created, now) > max_age_s
            if (dead or old) and remove(c):
                n += 1
                remove_slot_folder(c)
        return n


# one engine client per worker process (and engine address), reused across matches
_shared: dict[str | None, DockerSandbox] = {}


def shared_sandbox() -> DockerSandbox:
    """The registry's ``docker`` backend: this process's DockerSandbox for ``DOCKER_HOST``,
    checked every time (the engine may have gone, the image been removed). Raises
    SandboxError saying what to run."""
    host = os.environ.get("DOCKER_HOST")
    sb = _shared.get(host)
    if sb is None:
        # With ARENA_DOCKER_POOL set, its warm pool fills at the first match (or when the
        # worker process calls sb.warm()): never here, where a parent might fork workers.
        sb = _shared[host] = DockerSandbox()
    sb.check()
    return sb


def _age_s(created: str, now: float) -> float:
    from datetime import datetime

    try:
        ts = datetime.fromisoformat(created[:26].rstrip("Z") + "+00:00").timestamp()
    except ValueError:
        return 0.0
    return now - ts
