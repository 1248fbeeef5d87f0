"""Starting, limiting and talking to one bot process. No game knowledge.

``get_sandbox("auto" | "docker" | "process")`` returns a backend; ``backend.start(code, ...)``
returns a :class:`sandbox.base.BotProcess`, a JSON-lines pipe to one bot for one match.
"""

from __future__ import annotations

import logging
import os
import warnings

from sandbox.base import (
    BotCode,
    BotGone,
    BotProcess,
    Limits,
    LineTooLong,
    Sandbox,
    SandboxError,
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

log = logging.getLogger("sandbox")

BACKENDS = ("auto", "docker", "process")


class UnsafeSandboxWarning(UserWarning):
    """Bots are running without a security boundary (the process backend)."""


# one engine client per worker process (and engine address), reused across matches
_docker: dict[str | None, Sandbox] = {}
# fallback reasons already reported: say it once per process, not once per match
_warned: set[str] = set()


def _docker_sandbox() -> Sandbox:
    from sandbox.docker import DockerSandbox

    host = os.environ.get("DOCKER_HOST")
    sb = _docker.get(host)
    if not isinstance(sb, DockerSandbox):
        # With ARENA_DOCKER_POOL set, its warm pool fills at the first match (or when the
        # worker process calls sb.warm()): never here, where a parent might fork workers.
        sb = _docker[host] = DockerSandbox()
    sb.check()  # every time: the engine may have gone, the image been removed
    return sb


def get_sandbox(name: str | None = "auto") -> Sandbox:
    """A backend by name: ``"docker"``, ``"process"`` or ``"auto"`` (Docker when an engine
    answers and the runtime image is built, else the process backend, with a warning). With
    ``name=None`` the environment variable ``ARENA_SANDBOX`` decides (default ``auto``)."""
    if name is None:
        name = os.environ.get("ARENA_SANDBOX") or "auto"
    name = name.strip().lower()
    if name == "process":
        from sandbox.process import ProcessSandbox

        return ProcessSandbox()
    if name == "docker":
        return _docker_sandbox()  # raises SandboxError saying what to run
    if name == "auto":
        reason = "the Docker backend is not available"
        try:
            return _docker_sandbox()
        except SandboxError as e:
            reason = str(e)
        except ImportError as e:  # the docker SDK is not installed
            reason = f"the docker package is missing ({e})"
        from sandbox.process import ProcessSandbox

        msg = (
            f"sandbox: using the process backend, which is NOT a security boundary ({reason}). "
            "Do not run untrusted bots with it."
        )
        if reason not in _warned:
            _warned.add(reason)
            warnings.warn(msg, UnsafeSandboxWarning, stacklevel=2)
            log.warning(msg)
        return ProcessSandbox()
    raise SandboxError(f"unknown sandbox {name!r}: choose one of {', '.join(BACKENDS)}")


def require_boundary(sandbox: Sandbox, *, untrusted: bool, allow_unsafe: bool = False) -> None:
    """Refuse to run another user's upload in a backend that is not a security boundary,
    unless an organiser explicitly allowed it (``allow_unsafe``). Raises SandboxError."""
    if untrusted and not sandbox.is_security_boundary and not allow_unsafe:
        raise SandboxError(
            f"the {sandbox.name or 'current'} sandbox is not a security boundary: it may only "
            "run your own bots. Use the Docker sandbox (ARENA_SANDBOX=docker, after "
            "deploy/build-runtime-image.sh), or have an organiser allow unsafe sandboxes."
        )
