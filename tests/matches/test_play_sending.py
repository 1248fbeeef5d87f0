"""A match is sent to a worker by the name of the task that plays it (``matches.services``
never imports ``matches.tasks``), and the worker's side (``matches.playing``) records what the
referee could not finish within the worker's own time limit."""

from __future__ import annotations

from typing import Any

import pytest
from bots.services import ensure_builtin_bots
from catalog.services import sync_games
from celery.exceptions import SoftTimeLimitExceeded
from matches import playing, services
from matches.errors import took_too_long
from matches.models import MatchKind, MatchStatus
from matches.services import create_match, dispatch_match
from matches.tasks import play_match, play_person_match


@pytest.fixture
def match(db: None) -> Any:
    game = next(g for g in sync_games() if g.slug == "trnd")
    versions = [b.latest_version() for b in ensure_builtin_bots(game)]
    return create_match(game=game, versions=[*versions, versions[0]][:3])


def test_each_kind_of_match_names_the_task_that_plays_it() -> None:
    assert services.task_name_for(MatchKind.HUMAN) == play_person_match.name
    for kind in set(MatchKind) - {MatchKind.HUMAN}:
        assert services.task_name_for(kind) == play_match.name


def test_dispatch_sends_the_attempt_by_name_and_keeps_the_task_id(
    match: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent: list[tuple[str, list[int]]] = []

    def send_named(name: str, args: list[int]) -> str:
        sent.append((name, list(args)))
        return "task-1"

    monkeypatch.setattr(services, "send_named", send_named)
    dispatched = dispatch_match(match)
    assert sent == [(play_match.name, [match.pk, 1])]
    assert dispatched.task_id == "task-1" and dispatched.status == MatchStatus.QUEUED


def test_the_worker_s_own_time_limit_is_recorded_as_too_long(
    match: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    def stopped(*args: Any, **kwargs: Any) -> Any:
        raise SoftTimeLimitExceeded()

    monkeypatch.setattr(playing, "arena_play", stopped)
    monkeypatch.setattr(services, "send_named", lambda name, args: "task-1")
    dispatch_match(match)
    played = playing.play(match.pk, 1, limit_s=7)
    assert played is not None and played.status == MatchStatus.ERROR
    assert played.error == took_too_long(7)
