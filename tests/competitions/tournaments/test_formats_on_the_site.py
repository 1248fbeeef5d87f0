"""Tournaments played round by round in each format on the site: rounds from the stored
standings, a knockout's winner, the stored table against a recomputation, the settings checked
at creation (eager mode; tests/foundation plays the same through Redis and a real worker)."""

from __future__ import annotations

from typing import Any

import pytest
from bots.models import BotVersion
from competitions.models import TournamentEntry, TournamentStatus
from competitions.tournaments.selectors import tournament_standings
from competitions.tournaments.services import create_tournament, start_tournament
from django.core.exceptions import ValidationError
from matches.models import MatchStatus

from arena.ratings import standings


def field(games: dict[str, Any], size: int, slug: str = "manhattan-traffiq") -> list[BotVersion]:
    from competitions.management.commands.demo import demo_entrants

    game = games[slug]
    entrants = demo_entrants(game, size - 1)[:size]
    assert len({v.bot_id for v in entrants}) == size
    return entrants


def play(t: Any, capture: Any) -> None:
    with capture(execute=True):
        start_tournament(t)
    t.refresh_from_db()


def pairings(t: Any) -> list[frozenset[int]]:
    return [
        frozenset(m.seats.values_list("bot_version_id", flat=True))
        for m in t.matches.order_by("pk")
    ]


def test_swiss_plays_rounds_from_stored_standings(games, django_capture_on_commit_callbacks):
    entrants = field(games, 5)
    t = create_tournament(
        organiser=entrants[0].bot.owner,
        game=games["manhattan-traffiq"],
        name="Swiss",
        entrants=entrants,
        format="swiss",
        seed=3,
    )
    play(t, django_capture_on_commit_callbacks)
    assert t.status == TournamentStatus.FINISHED
    # ceil(log2 5) = 3 rounds of 2 tables and a bye each; no pairing repeated (avoidable here).
    assert t.current_round == 2 and t.matches.count() == t.planned_matches == 6
    pairs = pairings(t)
    assert len(set(pairs)) == len(pairs)
    entries = list(TournamentEntry.objects.filter(tournament=t))
    assert sum(e.row["byes"] for e in entries) == 3
    assert all(e.matches + e.row["byes"] == 3 for e in entries)
    rows = tournament_standings(t)
    assert [r.position for r in rows] == [1, 2, 3, 4, 5]
    assert [r.points for r in rows] == sorted((r.points for r in rows), reverse=True)


def test_knockout_ends_with_one_winner(games, django_capture_on_commit_callbacks):
    entrants = field(games, 4)
    t = create_tournament(
        organiser=entrants[0].bot.owner,
        game=games["manhattan-traffiq"],
        name="Cup",
        entrants=entrants,
        format="knockout",
        seed=8,
    )
    play(t, django_capture_on_commit_callbacks)
    assert t.status == TournamentStatus.FINISHED
    rows = tournament_standings(t)
    assert [r.eliminated for r in rows] == [False, True, True, True]
    assert t.current_round == 1 and t.matches.count() == 3  # semi-finals, final
    final = t.matches.get(competition_link__round=1)
    winner = final.seats.get(rank=1).bot_version_id
    assert rows[0].version.pk == winner


def test_stored_table_equals_a_recomputation(games, django_capture_on_commit_callbacks):
    entrants = field(games, 4)
    t = create_tournament(
        organiser=entrants[0].bot.owner,
        game=games["manhattan-traffiq"],
        name="RR",
        entrants=entrants,
        games_per_pairing=2,
        seed=11,
    )
    play(t, django_capture_on_commit_callbacks)
    records = []
    for m in t.matches.filter(status=MatchStatus.FINISHED).order_by("finished_at", "pk"):
        seats = list(m.seats.order_by("seat"))
        records.append(
            {
                "bots": [str(s.bot_version_id) for s in seats],
                "ranks": [s.rank for s in seats],
                "scores": [s.score for s in seats],
                "seat_status": [s.status for s in seats],
            }
        )
    fresh = standings(records).by_bot()
    for row in tournament_standings(t):
        expect = fresh[str(row.version.pk)]
        assert row.standing.matches == expect.matches == 6
        assert row.standing.wins == expect.wins
        assert row.standing.elo == pytest.approx(expect.elo)
        assert row.standing.mu == pytest.approx(expect.mu)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"format": "ladder"}, "Unknown format"),
        ({"format": "swiss", "max_matches": 3}, "Only a round robin can be cut"),
        ({"format": "knockout", "rounds": 2}, "plays until one winner"),
        ({"options": {"bogus": 1}}, "bogus"),
    ],
)
def test_tournament_settings_are_checked_at_creation(games, kwargs, message):
    entrants = field(games, 4)
    with pytest.raises(ValidationError, match=message):
        create_tournament(
            organiser=entrants[0].bot.owner,
            game=games["manhattan-traffiq"],
            name="bad",
            entrants=entrants,
            **kwargs,
        )
