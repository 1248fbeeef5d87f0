"""The referee knows no task queue: importing it, or playing a match with `arena play`, loads
no Celery; a worker's own time limit reaches the referee as an ``interrupts`` exception that
``arena.tasks.play`` names (Celery's), raised on to the task, never recorded as the match's
error."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from celery.exceptions import SoftTimeLimitExceeded
from referee_helpers import seats_for

from arena import referee
from arena.contract import MatchSpec, SeatSpec
from arena.referee import run_match
from arena.tasks import play

ROOT = Path(__file__).resolve().parents[2]


def _no_celery_after(code: str) -> None:
    env = dict(os.environ, ARENA_SANDBOX="process", PYTHONPATH=str(ROOT))
    check = f"{code}\nimport sys\nassert 'celery' not in sys.modules, 'celery was imported'\n"
    done = subprocess.run(
        [sys.executable, "-c", check],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr


def test_importing_the_referee_loads_no_celery() -> None:
    _no_celery_after("import arena.referee")


def test_arena_play_loads_no_celery(small_game: str) -> None:
    bots = ", ".join(repr("builtin:random") for _ in range(seats_for(small_game)))
    _no_celery_after(
        f"from arena.cli import main\nassert main(['play', {small_game!r}, {bots}, '--json']) == 0"
    )


class Stopped(Exception):
    """Stands for a worker's own time limit firing in the middle of a match."""


def _stopped_mid_match(monkeypatch: pytest.MonkeyPatch, exc: type[Exception]) -> None:
    def play_then_stop(self: Any, state: Any) -> None:
        raise exc()

    monkeypatch.setattr(referee._Match, "_play", play_then_stop)


def test_an_interrupt_is_raised_on_and_anything_else_is_the_match_s_error(
    monkeypatch: pytest.MonkeyPatch, small_game: str
) -> None:
    bots = ["builtin:random"] * seats_for(small_game)
    _stopped_mid_match(monkeypatch, Stopped)
    with pytest.raises(Stopped):
        run_match(small_game, bots, seed=1, interrupts=(Stopped,))
    outcome = run_match(small_game, bots, seed=1)
    assert outcome.status == "error"
    assert outcome.error is not None and outcome.error.startswith("Stopped")


def test_the_worker_s_soft_time_limit_reaches_the_task(
    monkeypatch: pytest.MonkeyPatch, small_game: str
) -> None:
    """``arena.tasks.play`` lets Celery's soft time limit through (``matches.playing``
    records "the match took over N s")."""
    seats = [SeatSpec(bot="builtin:random") for _ in range(seats_for(small_game))]
    spec = MatchSpec(game=small_game, seats=tuple(seats), seed=1)
    _stopped_mid_match(monkeypatch, SoftTimeLimitExceeded)
    with pytest.raises(SoftTimeLimitExceeded):
        play(spec, sandbox="process")
