"""Celery tasks of the arena. One task per match, never per move: a match's bots live for the
whole match inside the worker that runs it."""

from __future__ import annotations

import os
import platform as _stdlib_platform  # proves the standard library is not shadowed
import socket
from typing import Any

from celery.exceptions import SoftTimeLimitExceeded

from arena.celery_app import app
from arena.codestore import CodeFetchError, seat_code
from arena.contract import ContractError, ErrorKind, MatchSpec
from arena.human_seat import HUMAN, channel_for
from arena.outcome import MatchOutcome
from arena.referee import run_match as referee_run_match
from sandbox import get_sandbox, require_boundary
from sandbox.base import SandboxError


@app.task(name="arena.ping")
def ping(payload: str = "ping") -> dict[str, Any]:
    """A round trip through the broker: which worker answered, and with what."""
    return {
        "payload": payload,
        "worker_pid": os.getpid(),
        "host": socket.gethostname(),
        "python": _stdlib_platform.python_version(),
    }


def play(
    spec: MatchSpec,
    *,
    sandbox: str | None = None,
    allow_unsafe: bool | None = None,
    deadline_s: float | None = None,
) -> MatchOutcome:
    """Play ``spec`` on this machine. The sandbox is this worker's own choice (``sandbox``, else
    ``ARENA_SANDBOX``), never the sender's; strangers' code (``trusted=False`` seats) only runs in a
    sandbox that is a security boundary unless this worker allows otherwise
    (``ARENA_ALLOW_UNSAFE_SANDBOX``). Anything that stops the match from being played comes back
    as an ``error`` outcome, so the caller always has something to record. ``deadline_s``: the
    match's time limit, which the referee enforces itself (see ``arena.referee.run_match``);
    the worker's own soft time limit, should it fire first, is raised on to the caller."""
    if allow_unsafe is None:
        allow_unsafe = os.environ.get("ARENA_ALLOW_UNSAFE_SANDBOX", "").lower() in _TRUE
    try:
        backend = get_sandbox(sandbox)
    except SandboxError as exc:  # no backend that can run here: the worker refuses
        return MatchOutcome.refused(spec, f"match refused: {getattr(exc, 'public', exc)}")
    try:
        require_boundary(backend, untrusted=spec.untrusted, allow_unsafe=allow_unsafe)
    except SandboxError as exc:
        # A matter of the site's set-up (the ladder waits for a boundary), told by its kind.
        text = f"match refused: {getattr(exc, 'public', exc)}"
        return MatchOutcome.refused(spec, text, ErrorKind.NO_BOUNDARY)
    try:
        bots = [seat_code(seat) for seat in spec.seats]
        human, human_time = channel_for(spec) if HUMAN in bots else (None, None)
        return referee_run_match(
            spec.game,
            bots,
            seed=spec.seed,
            options=dict(spec.options),
            time=spec.time,
            sandbox=backend,
            match_id=spec.match_id or None,
            human=human,
            human_time=human_time,
            deadline_s=deadline_s,
            # Celery's soft time limit reaches the caller (matches.playing records it).
            interrupts=(SoftTimeLimitExceeded,),
        )
    except (ValueError, SandboxError, CodeFetchError) as exc:
        # A bad bundle's own message may name files of a private zip: the match's error is
        # public, so it gets the bundle error's public text (sandbox.bundle.BundleError).
        return MatchOutcome.refused(spec, f"match refused: {getattr(exc, 'public', exc)}")


_TRUE = {"1", "true", "yes", "on"}


@app.task(name="arena.run_match", acks_late=True)
def run_match(spec: dict[str, Any]) -> dict[str, Any]:
    """Run one match on this worker: takes ``MatchSpec.to_json()``, returns
    ``MatchOutcome.to_json(replay=True)`` (an ``error`` outcome for a malformed spec)."""
    try:
        parsed = MatchSpec.from_json(spec)
    except ContractError as exc:
        return MatchOutcome.refused(None, f"match refused: {exc}").to_json(replay=True)
    return play(parsed).to_json(replay=True)
