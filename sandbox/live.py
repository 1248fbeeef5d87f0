"""The record of a worker process's live bots: what ``reap`` ends when a referee is
interrupted, and what goes with the process when it exits.

:data:`CONTAINERS` holds this process's bot containers (cold ones and the warm pool's, until
their removal); the process backend keeps a :class:`LiveBots` of its own.
"""

from __future__ import annotations

import atexit
import threading
import weakref
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar

if TYPE_CHECKING:
    # By type only: docker_bot's bots join CONTAINERS, so it imports this module; CONTAINERS
    # stays here because its exit hook must be registered before the warm pool's.
    from sandbox.docker_bot import ContainerBot


class LiveBot(Protocol):
    labels: dict[str, str]

    def close(self, grace_s: float = 0.5) -> None: ...


B = TypeVar("B", bound=LiveBot)


class LiveBots(Generic[B]):
    """A thread-safe set of live bots, held weakly (a bot dropped by everyone is closed by its
    own ``__del__``)."""

    def __init__(self) -> None:
        self._bots: weakref.WeakSet[B] = weakref.WeakSet()
        self._lock = threading.Lock()

    def add(self, bot: B) -> None:
        with self._lock:
            self._bots.add(bot)

    def discard(self, bot: B) -> None:
        with self._lock:
            self._bots.discard(bot)

    def all(self) -> list[B]:
        with self._lock:
            return list(self._bots)

    def matching(self, labels: dict[str, str] | None) -> list[B]:
        """The live bots carrying every one of ``labels`` (all of them if None)."""
        wanted = (labels or {}).items()
        return [b for b in self.all() if all(b.labels.get(k) == v for k, v in wanted)]


#: this worker process's live bot containers (``DockerBot`` and the pool's ``PooledBot``)
CONTAINERS: LiveBots[ContainerBot] = LiveBots()


@atexit.register
def close_live_containers() -> None:
    """Close (and so remove) this process's live bot containers: at exit, and when a worker
    process shuts down (``sandbox.shutdown``). A worker that exits normally (or on SIGTERM via
    sys.exit) takes its containers along. Registered at this module's import, before the warm
    pool's hook (``sandbox.pool`` imports this module), so it runs after it."""
    for bot in CONTAINERS.all():
        bot.close(grace_s=0)
