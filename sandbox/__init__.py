"""Starting, limiting and talking to one bot process. No game knowledge.

``get_sandbox("auto" | "docker" | "process")`` returns a backend (registered by name in
``sandbox.registry``); ``backend.start(code, ...)`` returns a :class:`sandbox.base.BotProcess`,
a JSON-lines pipe to one bot for one match. docs/sandbox.md says how to add a backend.
"""

from __future__ import annotations

import os

from sandbox import registry
from sandbox.base import (
    BotCode,
    BotGone,
    BotProcess,
    Limits,
    LineTooLong,
    Sandbox,
    SandboxError,
    UnsafeSandboxWarning,
)

__all__ = [
    "BACKENDS",
    "BotCode",
    "BotGone",
    "BotProcess",
    "Limits",
    "LineTooLong",
    "Sandbox",
    "SandboxError",
    "UnsafeSandboxWarning",
    "get_sandbox",
    "require_boundary",
]

#: the built-in backends' names (``sandbox.registry.names()`` lists any registered later)
BACKENDS = registry.names()


def get_sandbox(name: str | None = "auto") -> Sandbox:
    """A backend by name, looked up in ``sandbox.registry``: ``"docker"``, ``"process"`` or
    ``"auto"`` (Docker when an engine answers and the runtime image is built, else the process
    backend, with a warning). With ``name=None`` the environment variable ``ARENA_SANDBOX``
    decides (default ``auto``). Raises SandboxError for an unknown name (listing the
    registered ones) or a backend that cannot run here (saying what to run)."""
    if name is None:
        name = os.environ.get("ARENA_SANDBOX") or "auto"
    return registry.create(name.strip().lower())


def require_boundary(sandbox: Sandbox, *, untrusted: bool, allow_unsafe: bool = False) -> None:
    """Refuse to run another user's upload in a backend that is not a security boundary,
    unless an organiser explicitly allowed it (``allow_unsafe``). Raises SandboxError."""
    if untrusted and not sandbox.is_security_boundary and not allow_unsafe:
        raise SandboxError(
            f"the {sandbox.name or 'current'} sandbox is not a security boundary: it may only "
            "run your own bots. Use the Docker sandbox (ARENA_SANDBOX=docker, after "
            "deploy/build-runtime-image.sh), or have an organiser allow unsafe sandboxes."
        )
