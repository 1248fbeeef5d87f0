"""Celery tasks of the arena. One task per match, never per move: a match's bots live for the
whole match inside the worker that runs it."""

from __future__ import annotations

import os
import platform as _stdlib_platform  # proves the standard library is not shadowed
import socket
from typing import Any

from arena.celery_app import app


@app.task(name="arena.ping")
def ping(payload: str = "ping") -> dict[str, Any]:
    """A round trip through the broker: which worker answered, and with what."""
    return {
        "payload": payload,
        "worker_pid": os.getpid(),
        "host": socket.gethostname(),
        "python": _stdlib_platform.python_version(),
    }
