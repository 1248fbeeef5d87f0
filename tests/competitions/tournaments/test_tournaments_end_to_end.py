"""Tournaments end to end in eager mode: every match played, the checks, the cut, the
``run_tournament`` command and the page's standings after each recorded match."""

from __future__ import annotations

import pytest
from competitions.models import TournamentStatus
from competitions.tournaments.selectors import tournament_standings
from competitions.tournaments.services import create_tournament, start_tournament
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from matches.models import Match, MatchStatus
from ratings.models import Rating


def test_tournament_plays_every_match_and_finishes(
    trnd, three_versions, django_capture_on_commit_callbacks
) -> None:
    owner = three_versions[0].bot.owner
    t = create_tournament(
        organiser=owner,
        game=trnd,
        name="Cup",
        entrants=three_versions,
        players_per_match=3,
        games_per_pairing=2,
        seed=5,
    )
    with django_capture_on_commit_callbacks(execute=True):
        matches = start_tournament(t)
    t.refresh_from_db()
    assert len(matches) == 2  # one combination of 3 bots, 2 games
    assert t.status == TournamentStatus.FINISHED and t.finished_at
    assert set(t.matches.values_list("status", flat=True)) == {MatchStatus.FINISHED}
    rows = tournament_standings(t)
    assert [r.position for r in rows] == [1, 2, 3]
    assert all(r.standing.matches == 2 for r in rows)
    assert sum(r.standing.wins for r in rows) >= 2
    assert Rating.objects.filter(game=trnd, matches_played=2).count() == 3
    with pytest.raises(ValidationError, match="already been started"):
        start_tournament(t)


def test_tournament_validation(trnd, builtin_versions, games) -> None:
    owner = builtin_versions[0].bot.owner
    with pytest.raises(ValidationError, match="3–5 players, not 2"):
        create_tournament(
            organiser=owner, game=trnd, name="x", entrants=builtin_versions, players_per_match=2
        )
    from bots.services import ensure_builtin_bots

    other = ensure_builtin_bots(games["tri-area"])[0].latest_version()
    with pytest.raises(ValidationError, match="Not bots for TRND"):
        create_tournament(
            organiser=owner, game=trnd, name="x", entrants=[other], players_per_match=3
        )
    t = create_tournament(
        organiser=owner, game=trnd, name="small", entrants=builtin_versions, players_per_match=3
    )
    with pytest.raises(ValidationError, match="needs at least 3 entrants"):
        start_tournament(t)


def test_max_matches_cuts_the_schedule(games) -> None:
    from competitions.management.commands.demo import demo_entrants

    game = games["manhattan-traffiq"]
    entrants = demo_entrants(game, 2)
    assert len(entrants) == 4 and len({v.bot_id for v in entrants}) == 4
    t = create_tournament(
        organiser=entrants[0].bot.owner,
        game=game,
        name="cut",
        entrants=entrants,
        players_per_match=2,
        max_matches=3,
    )
    first_round = start_tournament(t, dispatch=False)
    t.refresh_from_db()
    # Four entrants: two matches a round; the cut stops the third round-robin round short.
    assert len(first_round) == 2 and t.planned_matches == 3


def test_run_tournament_command(trnd, three_versions, capsys) -> None:
    t = create_tournament(
        organiser=three_versions[0].bot.owner,
        game=trnd,
        name="Cmd Cup",
        entrants=three_versions,
        players_per_match=3,
    )
    call_command("run_tournament", str(t.pk))
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    assert "Cmd Cup" in capsys.readouterr().out
    with pytest.raises(CommandError, match="no tournament 999"):
        call_command("run_tournament", "999")


def test_tournament_page_standings_follow_each_recorded_match(
    trnd, three_versions, django_capture_on_commit_callbacks, client
) -> None:
    """The standings table is drawn once per state of the tournament (a cached fragment):
    every recorded match changes what the page shows."""
    import re

    from matches.services import dispatch_match

    t = create_tournament(
        organiser=three_versions[0].bot.owner,
        game=trnd,
        name="Cached cup",
        entrants=three_versions,
        players_per_match=3,
        games_per_pairing=2,
        seed=5,
    )
    start_tournament(t, dispatch=False)

    def played_and_wins() -> list[tuple[int, int]]:
        page = client.get(f"/tournaments/{t.pk}/").content.decode()
        table = page.split("<h2>Standings</h2>", 1)[1].split("</table>", 1)[0]
        cells = re.findall(r'<td class="num">(\d+)</td><td class="num">(\d+)</td>', table)
        return [(int(p), int(w)) for p, w in cells]

    assert played_and_wins() == [(0, 0)] * 3
    assert played_and_wins() == [(0, 0)] * 3  # drawn from the cache, same answer
    for n, match in enumerate(
        Match.objects.filter(competition_link__tournament=t).order_by("pk"), start=1
    ):
        with django_capture_on_commit_callbacks(execute=True):
            dispatch_match(match)
        rows = played_and_wins()
        assert [p for p, _ in rows] == [n] * 3
        assert sum(w for _, w in rows) >= n
