"""Sandbox backends by name: what ``get_sandbox(name)`` looks up.

A backend is registered as a *factory*: a function of no arguments that returns a ready
:class:`~sandbox.base.Sandbox`, or raises :class:`~sandbox.base.SandboxError` saying what to
run when the backend cannot work on this machine (no engine, no image). The built-in backends
are the table at the bottom of this module; their factories import the backend's module when
called, so that naming a backend (or listing them) never imports the Docker SDK.
"""

from __future__ import annotations

import logging
import re
import warnings
from collections.abc import Callable

from sandbox.base import Sandbox, SandboxError, UnsafeSandboxWarning

log = logging.getLogger("sandbox")

Factory = Callable[[], Sandbox]

_factories: dict[str, Factory] = {}


def register(name: str, factory: Factory, *, replace: bool = False) -> None:
    """Make ``factory`` the backend called ``name`` (lower case, as ``ARENA_SANDBOX`` spells
    it). Registering a taken name again is an error unless ``replace``."""
    if not re.fullmatch(r"[a-z0-9][a-z0-9_-]*", name):
        raise ValueError(f"a backend name is lower case without spaces, got {name!r}")
    if name in _factories and not replace:
        raise ValueError(f"a sandbox backend called {name!r} is already registered")
    _factories[name] = factory


def unregister(name: str) -> None:
    """Forget the backend called ``name`` (a test's or a plugin's). KeyError if unknown."""
    del _factories[name]


def names() -> tuple[str, ...]:
    """The registered backend names, in the order they were registered."""
    return tuple(_factories)


def create(name: str) -> Sandbox:
    """The backend called ``name``. Raises SandboxError for a name nobody registered (listing
    the registered ones) and whatever the backend's factory raises."""
    factory = _factories.get(name)
    if factory is None:
        raise SandboxError(f"unknown sandbox {name!r}: choose one of {', '.join(names())}")
    return factory()


# -- the built-in backends ---------------------------------------------------------------------


def _docker() -> Sandbox:
    from sandbox.docker import shared_sandbox

    return shared_sandbox()  # raises SandboxError saying what to run


def _process() -> Sandbox:
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


register("auto", _auto)
register("docker", _docker)
register("process", _process)
