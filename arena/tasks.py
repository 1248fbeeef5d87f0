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


@app.task(name="arena.run_match", acks_late=True)
def run_match(spec: dict[str, Any]) -> dict[str, Any]:
    """Run one match on this worker and return ``MatchOutcome.to_json(replay=True)``.

    ``spec``: ``{"game", "bots": [path or "builtin:NAME", ...], "seed", "options",
    "match_id", "time": {"start_ms", "move_ms", "bank_ms"}, "sandbox", "untrusted",
    "allow_unsafe"}`` (all but game and bots optional). ``untrusted`` marks uploads of other
    users: they only run in a sandbox that is a security boundary (Docker) unless
    ``allow_unsafe`` (an organiser's decision) says otherwise. Input the referee refuses, and
    a sandbox that may not run these bots, come back as an ``error`` outcome, so the caller
    always has something to record.
    """
    from arena.referee import TimeControl
    from arena.referee import run_match as referee_run_match
    from sandbox import get_sandbox, require_boundary
    from sandbox.base import SandboxError

    try:
        backend = get_sandbox(spec.get("sandbox"))
        require_boundary(
            backend,
            untrusted=bool(spec.get("untrusted")),
            allow_unsafe=bool(spec.get("allow_unsafe")),
        )
        outcome = referee_run_match(
            spec["game"],
            list(spec["bots"]),
            seed=int(spec.get("seed", 0)),
            options=spec.get("options") or {},
            time=TimeControl(**spec["time"]) if spec.get("time") else None,
            sandbox=backend,
            match_id=spec.get("match_id"),
        )
    except (ValueError, KeyError, TypeError, SandboxError) as exc:
        return {
            "status": "error",
            "error": f"match refused: {exc}",
            "game": spec.get("game"),
            "seed": spec.get("seed"),
            "match_id": spec.get("match_id"),
            "seats": [],
            "result": None,
            "replay": None,
        }
    return outcome.to_json(replay=True)
