"""The platform's side of a fault-injection test: a game, its built-in bots and an owner
(``arena``), matches sent through a test's broker, and their deliveries and statuses watched."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest

from tests.conftest import celery_on
from tests.resilience.waits import WAIT_S, wait_for
from tests.resilience.workers import Worker

#: A program bot that thinks for a while on every move: a match lasts seconds, so a worker can
#: be killed (or the broker restarted) while it is being played.
SLOW_BOT = """
import json, sys, time
for line in sys.stdin:
    msg = json.loads(line)
    if msg.get("type") == "start":
        print(json.dumps({"type": "ready", "name": "slow"}), flush=True)
    elif msg.get("type") == "act":
        time.sleep(DELAY)
        print(json.dumps({"action_index": 0, "turn": msg["turn"]}), flush=True)
    elif msg.get("type") == "end":
        break
"""


def slow_bot_source(delay: float) -> bytes:
    return SLOW_BOT.replace("DELAY", repr(delay)).encode()


@dataclass
class Arena:
    """The game, bots and helpers one test needs."""

    game: Any
    builtins: list[Any]  # BotVersion of built-in bots
    owner: Any

    def upload(self, name: str, source: bytes) -> Any:
        from bots.services import create_bot, upload_version

        bot = create_bot(owner=self.owner, game=self.game, name=name)
        return upload_version(bot=bot, filename="main.py", data=source)

    def match(self, versions: list[Any], seed: int = 1) -> Any:
        from matches.services import create_match

        return create_match(game=self.game, versions=versions, seed=seed)


@pytest.fixture
def arena(db: Any) -> Arena:
    from bots.services import ensure_builtin_bots
    from catalog.services import sync_games
    from django.contrib.auth import get_user_model

    game = {g.slug: g for g in sync_games()}["tri-area"]
    builtins = [b.latest_version() for b in ensure_builtin_bots(game)]
    # Staff uploads are the operator's own code: the process sandbox may run them.
    owner = get_user_model().objects.create_user("organiser", password="x", is_staff=True)
    return Arena(game=game, builtins=builtins, owner=owner)


def _configured() -> None:
    # Configure the Celery app from Django's settings before celery_on points it at a broker,
    # so that the configuration is not loaded (and the broker replaced) in the middle.
    import matches.tasks  # noqa: F401
    import meeple.celery  # noqa: F401

    from arena.celery_app import app

    assert app.conf.broker_url


def dispatch(broker_url: str, *matches: Any) -> None:
    from matches.services import dispatch_match

    _configured()
    with celery_on(broker_url):
        for m in matches:
            dispatch_match(m)


def send_task(broker_url: str, match_id: int, attempt: int) -> str:
    """A delivery of ``play_match`` as the platform sends it (a duplicate, or a stale one);
    returns the task id (the worker's log names it when it is done)."""
    from matches.tasks import play_match

    _configured()
    with celery_on(broker_url):
        return str(play_match.apply_async(args=[match_id, attempt]).id)


def done_tasks(*workers: Worker) -> dict[str, str]:
    """Task id -> what the task returned, for every task the workers' logs say succeeded."""
    import re

    found: dict[str, str] = {}
    for w in workers:
        for m in re.finditer(
            r"Task matches\.play_match\[([0-9a-f-]+)\] succeeded in [^:]+: (.*)",
            w.log.read_text(errors="replace"),
        ):
            found[m.group(1)] = m.group(2).strip()
    return found


def statuses(ids: list[int]) -> dict[int, str]:
    from matches.models import Match

    return dict(Match.objects.filter(pk__in=ids).values_list("pk", "status"))


def wait_status(
    ids: list[int], wanted: set[str], *workers: Worker, timeout: float = WAIT_S
) -> dict[int, str]:
    def check() -> dict[int, str] | None:
        now = statuses(ids)
        return now if all(s in wanted for s in now.values()) else None

    def logs() -> str:
        return f"statuses: {statuses(ids)}\n" + "\n".join(w.logs() for w in workers)

    return wait_for(f"matches {ids} to be {sorted(wanted)}", check, timeout=timeout, logs=logs)


def sweep_past_deadlines(broker_url: str) -> dict[str, int]:
    """Run the sweeper (sending through ``broker_url``) as if every deadline and the queue's
    patience had passed."""
    from django.conf import settings
    from django.utils import timezone
    from matches.models import Match
    from matches.sweeper import sweep_matches

    latest = max(
        [m for m in Match.objects.values_list("deadline_at", flat=True) if m is not None],
        default=timezone.now(),
    )
    now = max(latest, timezone.now()) + timedelta(seconds=settings.ARENA_QUEUE_PATIENCE_S + 1)
    _configured()
    with celery_on(broker_url):
        return sweep_matches(now=now)
