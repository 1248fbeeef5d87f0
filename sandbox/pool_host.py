"""What the warm pool (``sandbox.pool``, ``pool_box``, ``pool_fill``) needs of the Docker
backend that owns it: a type of its own, so that the pool never imports the backend (the
backend imports the pool) and the two modules make no cycle, not even by their types."""

from __future__ import annotations

from typing import Any, Protocol


class PoolHost(Protocol):
    """The Docker backend as its warm pool sees it (``sandbox.docker.DockerSandbox``)."""

    #: The image warm containers run (the sandbox's own runtime).
    image: str
    #: An OCI runtime (e.g. runsc), or None for the engine's default.
    runtime: str | None
    #: How long one engine call may take.
    api_timeout_s: float

    @property
    def client(self) -> Any:
        """The engine's client (connected on first use)."""

    def reap_orphans(self, max_age_s: float | None = ...) -> int:
        """Remove containers left by dead workers; how many."""


class BotReleaser(Protocol):
    """The warm pool as its bots see it (``sandbox.pool.WarmPool``): a bot's end hands its
    container back (for a reset, or for removal)."""

    def release(self, bot: Any) -> None:
        """Take back the container ``bot`` (a ``PooledBot``) ran in."""
