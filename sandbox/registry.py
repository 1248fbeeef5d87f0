"""Sandbox backends by name: what ``get_sandbox(name)`` looks up, and what the settings
(``ARENA_SANDBOX``) and the command line's ``--sandbox`` offer.

Each backend describes itself in one :class:`Backend`: its name, a *factory* (a function of no
arguments that returns a ready :class:`~sandbox.base.Sandbox`, or raises
:class:`~sandbox.base.SandboxError` saying what to run when the backend cannot work on this
machine: no engine, no image), how it is shown (``summary``), what it needs on a machine
(``needs``) and whether it is a security boundary. The built-in backends are the table at the
bottom of this module; their factories import the backend's module when called, so that naming
a backend (or listing them) never imports the Docker SDK.
"""

from __future__ import annotations

import logging
import re
import warnings
from collections.abc import Callable
from dataclasses import dataclass

from sandbox.base import Sandbox, SandboxError, UnsafeSandboxWarning

log = logging.getLogger("sandbox")

Factory = Callable[[], Sandbox]


@dataclass(frozen=True)
class Backend:
    """One backend as the registry, the settings and the command line know it."""

    #: Lower case, as ``ARENA_SANDBOX`` and ``--sandbox`` spell it.
    name: str
    factory: Factory
    #: How it is shown: what it runs a bot in ("a container per seat").
    summary: str
    #: What a machine needs for it to start ("a Docker engine and the runtime image").
    needs: str
    #: True only where bots are contained (the backend's ``is_security_boundary``; for a
    #: backend that picks another, whether what it picks always is one).
    security_boundary: bool = False

    def shown(self) -> str:
        """One line for a help text: ``docker: a container per seat (needs ...)``."""
        boundary = "a security boundary" if self.security_boundary else "no security boundary"
        return f"{self.name}: {self.summary} ({boundary}; needs {self.needs})"


_backends: dict[str, Backend] = {}


def register(
    name: str,
    factory: Factory,
    *,
    summary: str,
    needs: str,
    security_boundary: bool = False,
    replace: bool = False,
) -> None:
    """Make ``factory`` the backend called ``name`` (lower case, as ``ARENA_SANDBOX`` spells
    it), described by ``summary`` and ``needs`` (neither may be empty: the settings and the
    command line show them). Registering a taken name again is an error unless ``replace``."""
    if not re.fullmatch(r"[a-z0-9][a-z0-9_-]*", name):
        raise ValueError(f"a backend name is lower case without spaces, got {name!r}")
    if name in _backends and not replace:
        raise ValueError(f"a sandbox backend called {name!r} is already registered")
    if not summary.strip() or not needs.strip():
        raise ValueError(f"the sandbox backend {name!r} must say what it is and what it needs")
    _backends[name] = Backend(name, factory, summary, needs, security_boundary)


def unregister(name: str) -> None:
    """Forget the backend called ``name`` (a test's or a plugin's). KeyError if unknown."""
    del _backends[name]


def names() -> tuple[str, ...]:
    """The registered backend names, in the order they were registered."""
    return tuple(_backends)


def backends() -> tuple[Backend, ...]:
    """The registered backends, in the order they were registered."""
    return tuple(_backends.values())


def create(name: str) -> Sandbox:
    """The backend called ``name``. Raises SandboxError for a name nobody registered (listing
    the registered ones) and whatever the backend's factory raises."""
    backend = _backends.get(name)
    if backend is None:
        raise SandboxError(f"unknown sandbox {name!r}: choose one of {', '.join(names())}")
    return backend.factory()


# -- the built-in backends ---------------------------------------------------------------------


def _docker() -> Sandbox:
    # Imported when the backend is asked for: naming or listing backends stays cheap.
    from sandbox.docker import shared_sandbox

    return shared_sandbox()  # raises SandboxError saying what to run


def _process() -> Sandbox:
    # Imported when the backend is asked for (as _docker's).
    from sandbox.process import ProcessSandbox

    return ProcessSandbox()


# fallback reasons already reported: say it once per process, not once per match
_warned: set[str] = set()


def _auto() -> Sandbox:
    """Docker when an engine answers and the runtime image is built, else the process
    backend, with a warning (once per process and reason) that it is no security boundary."""
    try:
        return create("docker")
    except SandboxError as e:
        reason = str(e)
    except ImportError as e:  # the docker SDK is not installed
        reason = f"the docker package is missing ({e})"
    msg = (
        f"sandbox: using the process backend, which is NOT a security boundary ({reason}). "
        "Do not run untrusted bots with it."
    )
    if reason not in _warned:
        _warned.add(reason)
        # stacklevel: past _auto, create and get_sandbox, to get_sandbox's caller
        warnings.warn(msg, UnsafeSandboxWarning, stacklevel=4)
        log.warning(msg)
    return create("process")


register(
    "auto",
    _auto,
    summary="Docker when an engine answers and the runtime image is built, else processes",
    needs="nothing (it warns when it falls back to processes)",
)
register(
    "docker",
    _docker,
    summary="a container per seat",
    needs="a Docker engine and the runtime image, deploy/build-runtime-image.sh",
    security_boundary=True,
)
register(
    "process",
    _process,
    summary="a child process per seat with rlimits (bubblewrap where installed)",
    needs="the languages' toolchains on this machine",
)
