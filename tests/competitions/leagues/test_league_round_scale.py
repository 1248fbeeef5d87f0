"""A league round at any size: a fixed number of queries (bulk creation and dispatch), and
planned before any lock, so a match of the same game is made and recorded while a round is
being planned (on PostgreSQL, whose row locks the test exercises)."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from catalog.models import Game
from competitions.leagues import services as leagues
from competitions.leagues.services import create_league, run_league_round
from competitions.management.commands.demo import demo_entrants
from competitions.models import League
from django.db import connection
from django.test.utils import CaptureQueriesContext
from matches import services as match_services
from matches.models import Match, MatchStatus
from matches.services import create_match, dispatch_matches, match_spec, record_outcome

from arena.tasks import play

GAME = "manhattan-traffiq"  # two seats


def _league(game: Game, bots: int) -> League:
    demo_entrants(game, bots - 1)  # a field of ``bots`` distinct bots
    return create_league(game=game, name=f"League of {bots}", players_per_match=2)


def _queries(fn: Any) -> tuple[int, Any]:
    with CaptureQueriesContext(connection) as ctx:
        out = fn()
    return len(ctx.captured_queries), out


def test_a_round_costs_the_same_queries_at_any_size(games: dict[str, Game], monkeypatch) -> None:
    """Rounds 1 and 2 of a league of 6 bots and of one of 30 (another game's, so the fields
    do not mix) cost as many queries each; so does sending their matches to the workers."""
    monkeypatch.setattr(match_services, "_send", lambda *a: None)
    counts = []
    for slug, bots in ((GAME, 6), ("tri-area", 30)):
        lg = _league(games[slug], bots)
        n1, first = _queries(lambda lg=lg: run_league_round(lg, dispatch=False))
        n2, second = _queries(lambda lg=lg: run_league_round(lg, dispatch=False))
        sent, _ = _queries(lambda m=first: dispatch_matches(m))
        assert len(first) == len(second) == bots // 2
        assert {m.attempts for m in Match.objects.filter(pk__in=[m.pk for m in first])} == {1}
        counts.append((n1, n2, sent))
    assert counts[0] == counts[1], counts


@pytest.mark.django_db(transaction=True)
def test_a_match_is_made_and_recorded_while_a_round_is_planned(games: Any, monkeypatch) -> None:
    """Round 2's planning is held (on an event this test sets) while another session makes a
    match of the same game and records a match of round 1 (which adds the bots' first
    standings rows under the league): neither waits, then the round is written."""
    if connection.vendor != "postgresql":
        from tests.conftest import missing_service

        missing_service("this test needs DATABASE_URL to name a PostgreSQL server")
    from competitions.tasks import play_league_round_now

    game = games[GAME]
    lg = _league(game, 4)
    first = run_league_round(lg, dispatch=False)
    outcome = play(match_spec(first[0]), sandbox="process", allow_unsafe=True).to_json(replay=True)
    planning, go = threading.Event(), threading.Event()
    real_next_round = leagues.next_round

    def held_next_round(*args: Any, **kwargs: Any) -> Any:
        planning.set()
        assert go.wait(120), "the test never let the planning go on"
        return real_next_round(*args, **kwargs)

    monkeypatch.setattr(leagues, "next_round", held_next_round)
    monkeypatch.setattr(leagues, "dispatch_matches", lambda matches: None)
    played: list[int] = []

    def round_two() -> None:
        try:
            played.append(play_league_round_now(lg.pk, 2))
        finally:
            go.set()
            connection.close()

    worker = threading.Thread(target=round_two)
    worker.start()
    try:
        assert planning.wait(120), "the round was never planned"
        with connection.cursor() as cur:
            cur.execute("SET lock_timeout = '10s'")  # a wait on a lock fails the test
        made = create_match(game=game, versions=[s.bot_version for s in first[1].seats.all()])
        record_outcome(first[0].pk, outcome)
        assert not go.is_set() and worker.is_alive()  # all of it during the planning
    finally:
        go.set()
        worker.join(120)
        with connection.cursor() as cur:
            cur.execute("RESET lock_timeout")
    assert Match.objects.get(pk=first[0].pk).status == MatchStatus.FINISHED
    assert Match.objects.filter(pk=made.pk).exists()
    lg.refresh_from_db()
    assert played == [2] and lg.rounds_played == 2
    assert lg.matches.filter(competition_link__round=2).count() == 2
