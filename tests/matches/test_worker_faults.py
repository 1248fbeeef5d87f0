"""What a worker, the sweeper and beat do when the database or a second beat gets in the way
(issue 18, item 8), in-process; tests/resilience/ has the same with real workers and PostgreSQL.
"""

from __future__ import annotations

from typing import Any

import pytest
from celery.exceptions import Reject, SoftTimeLimitExceeded
from competitions.models import League
from django.core.cache import cache
from django.db import OperationalError
from matches import playing, services, sweeper
from matches.errors import PLAY_FAILED, SETUP_FAILED, public_error
from matches.models import ErrorKind, Match, MatchKind, MatchStatus
from matches.services import create_match, dispatch_match


def test_a_second_beat_tick_does_not_play_the_round_again(games: Any) -> None:
    from competitions.management.commands.demo import demo_entrants
    from competitions.tasks import play_league_round

    game = games["manhattan-traffiq"]
    demo_entrants(game, 2)
    league = League.objects.create(game=game, name="Twice", every_hours=6, players_per_match=2)
    # Two beats send the same tick: both deliveries run, one after the other.
    assert play_league_round(league.pk) == 2
    assert play_league_round(league.pk) == 0
    league.refresh_from_db()
    assert league.rounds_played == 1
    assert set(
        Match.objects.filter(competition_link__league=league).values_list(
            "competition_link__round", flat=True
        )
    ) == {1}


def test_a_match_being_recorded_keeps_its_bots_busy(trnd: Any, three_versions: Any) -> None:
    from ladder.selectors import busy_bot_ids, inflight_ladder_matches

    match = create_match(game=trnd, versions=three_versions, kind=MatchKind.LADDER)
    Match.objects.filter(pk=match.pk).update(status=MatchStatus.RECORDING)
    assert inflight_ladder_matches(trnd) == 1
    assert busy_bot_ids(trnd) == {v.bot_id for v in three_versions}


# ----------------------------------------------------------------------- building the match


def _running(match: Match) -> Match:
    """``match`` as a worker holds it after claiming its first attempt."""
    Match.objects.filter(pk=match.pk).update(status=MatchStatus.QUEUED, attempts=1)
    return match


def test_a_database_error_while_building_the_match_is_retried(
    trnd: Any, three_versions: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = _running(create_match(game=trnd, versions=three_versions, seed=3))
    real = services.match_spec
    calls: list[int] = []

    def flaky(m: Match) -> Any:
        calls.append(m.pk)
        if len(calls) == 1:
            raise OperationalError("server closed the connection unexpectedly")
        return real(m)

    monkeypatch.setattr(playing, "match_spec", flaky)
    monkeypatch.setattr(playing.time, "sleep", lambda s: None)
    played = playing.play(match.pk, 1)
    assert played is not None and played.status == MatchStatus.FINISHED, played and played.error
    assert len(calls) == 2


def test_a_setup_failure_has_a_fixed_public_error(
    trnd: Any, three_versions: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = _running(create_match(game=trnd, versions=three_versions))

    def broken(m: Match) -> Any:
        raise FileNotFoundError("/srv/arena/media/bots/7/secret_member.py")

    monkeypatch.setattr(playing, "match_spec", broken)
    played = playing.play(match.pk, 1)
    assert played is not None and played.status == MatchStatus.ERROR
    assert played.error == SETUP_FAILED


def test_an_eager_send_that_raises_stores_no_exception_text(
    trnd: Any, three_versions: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from matches.tasks import play_match

    def boom(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("/home/worker/.cache/arena/ab12.zip: member lib/x.py")

    monkeypatch.setattr(play_match, "apply_async", boom)
    match = dispatch_match(create_match(game=trnd, versions=three_versions))
    assert match.status == MatchStatus.ERROR and match.error == PLAY_FAILED


@pytest.mark.parametrize(
    ("error", "kind", "public"),
    [
        ("match refused: the bot's code could not be unpacked", ErrorKind.REFUSED, None),
        ("the match took over 900 s", ErrorKind.TIME_LIMIT, None),
        ("sandbox: cannot create /var/lib/arena/bots/pool-3", ErrorKind.SANDBOX, PLAY_FAILED),
        ("RecursionError: maximum recursion depth exceeded", ErrorKind.ENGINE, PLAY_FAILED),
        # the kind decides, not the words: an engine's message that reads like a refusal
        ("match refused: /home/worker/secret.py", ErrorKind.ENGINE, PLAY_FAILED),
        ("", ErrorKind.REFUSED, PLAY_FAILED),
    ],
)
def test_public_errors(error: str, kind: ErrorKind, public: str | None) -> None:
    assert public_error(error, kind) == (public or error)


# --------------------------------------------------------------------------------- claiming


def test_a_worker_that_cannot_reach_the_database_keeps_its_delivery(
    trnd: Any, three_versions: Any, monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    match = _running(create_match(game=trnd, versions=three_versions))
    real = playing.claim
    failures = iter([True, True, False])

    def claim(match_id: int, attempt: int, *, node: str = "") -> Match | None:
        if next(failures):
            raise OperationalError("connection refused")
        return real(match_id, attempt, node=node)

    monkeypatch.setattr(playing, "claim", claim)
    monkeypatch.setattr(playing.time, "sleep", lambda s: None)
    claimed = playing.claim_when_reachable(match.pk, 1)
    assert claimed is not None and claimed.status == MatchStatus.RUNNING

    # Never reachable: after the patience the delivery goes back to the queue, not acked.
    settings.ARENA_CLAIM_PATIENCE_S = 0
    monkeypatch.setattr(playing, "claim", lambda *a, **k: (_ for _ in ()).throw(OperationalError()))
    with pytest.raises(playing.DatabaseUnreachable):
        playing.claim_when_reachable(match.pk, 1)

    from matches.tasks import play_match

    with pytest.raises(Reject) as rejected:
        play_match.run(match.pk, 1)
    assert rejected.value.requeue


def test_the_soft_limit_while_recording_does_not_lose_the_result(
    trnd: Any, three_versions: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = _running(create_match(game=trnd, versions=three_versions, seed=4))
    real = playing.record_outcome
    fired: list[bool] = []

    def record_outcome(match_id: int, outcome: Any, *, attempt: int | None = None) -> Match:
        if not fired:
            fired.append(True)
            raise SoftTimeLimitExceeded()  # as if it fired while waiting on a row lock
        return real(match_id, outcome, attempt=attempt)

    monkeypatch.setattr(playing, "record_outcome", record_outcome)
    played = playing.play(match.pk, 1)
    assert fired and played is not None
    assert played.status == MatchStatus.FINISHED and played.attempts == 1


# --------------------------------------------------------------------------------- sweeping


def test_a_sweep_while_another_runs_does_nothing(trnd: Any, three_versions: Any) -> None:
    from datetime import timedelta

    from django.utils import timezone

    match = create_match(game=trnd, versions=three_versions)
    later = timezone.now() + timedelta(days=1)
    cache.add(sweeper.SWEEP_LOCK_KEY, "another sweep", timeout=60)
    try:
        assert sweeper.sweep_matches(now=later) == {"requeued": 0, "failed": 0, "skipped": 1}
    finally:
        cache.delete(sweeper.SWEEP_LOCK_KEY)
    assert Match.objects.get(pk=match.pk).attempts == 0
    # Each match is judged again under its row lock: a sweep that selected it before another
    # sweep sent it again finds it on the next attempt and leaves it.
    assert sweeper.take_back(match.pk, timezone.now(), 0) is None  # not stale yet
    assert sweeper.take_back(match.pk, later, 0) == "requeued"
    assert sweeper.take_back(match.pk, later, 0) is None
    assert Match.objects.get(pk=match.pk).attempts == 1
