"""Tie-breaks (arena.formats.tiebreaks) against a hand computation, and a played Swiss's
published table against a recomputation from its matches' seats (issue 22, item 5)."""

from __future__ import annotations

from collections import defaultdict

import pytest
from competitions.management.commands.demo import demo_entrants
from competitions.models import TournamentStatus
from competitions.tournaments.services import create_tournament, start_tournament
from django.test import Client
from matches.models import MatchStatus

from arena.formats import FORMATS, Result, StandingRow, match_points, tiebreak_names
from arena.formats.tiebreaks import head_to_head, sonneborn_berger


def rows(points: dict[str, float]) -> dict[str, StandingRow]:
    return {b: StandingRow(bot=b, seed=i + 1, points=p) for i, (b, p) in enumerate(points.items())}


def test_two_seat_meetings_and_sonneborn_berger_by_hand():
    # Round 1: A beats B, C and D draw. Round 2: A and C draw, B beats D.
    results = [
        Result(("A", "B"), (1, 2)),
        Result(("C", "D"), (1, 1)),
        Result(("A", "C"), (1, 1)),
        Result(("D", "B"), (2, 1)),
        Result(("A", "D"), None),  # failed on the platform's side: counts for nothing
    ]
    met = head_to_head(results)
    assert (met["A"]["B"].ahead, met["B"]["A"].behind) == (1, 1)
    assert (met["C"]["D"].level, met["C"]["D"].points) == (1, 0.5)
    assert "D" not in met["A"]
    # Points A 1.5, B 1, C 1, D 0.5; SB: A = 1*1 + .5*1, B = 0*1.5 + 1*.5,
    # C = .5*.5 + .5*1.5, D = .5*1 + 0*1.
    sb = sonneborn_berger(rows({"A": 1.5, "B": 1.0, "C": 1.0, "D": 0.5}), met)
    assert sb == {"A": 1.5, "B": 0.5, "C": 1.0, "D": 0.5}


def test_three_seat_meetings_add_up_to_match_points():
    # A first, B and C share second; then C first, A second, B third.
    results = [Result(("A", "B", "C"), (1, 2, 2)), Result(("C", "A", "B"), (1, 2, 3))]
    met = head_to_head(results)
    assert (met["A"]["B"].ahead, met["A"]["C"].ahead, met["A"]["C"].behind) == (2, 1, 1)
    assert (met["B"]["C"].level, met["B"]["C"].behind) == (1, 1)
    for bot in "ABC":
        # A meeting is worth 1, 1/2 or 0 over the seats less one: they add up to the points.
        won = sum(m.points for m in met[bot].values())
        expected = sum(
            match_points(r.ranks)[r.bots.index(bot)] for r in results if r.ranks is not None
        )
        assert won == pytest.approx(expected)
    # A: 1 + 1/2, B: 1/4 + 0, C: 1/4 + 1. SB(A) = A's points from B times B's, plus from C.
    sb = sonneborn_berger(rows({"A": 1.5, "B": 0.25, "C": 1.25}), met)
    assert sb["A"] == pytest.approx(1.0 * 0.25 + 0.5 * 1.25)


def test_the_tiebreaks_are_what_each_format_ranks_by():
    assert tiebreak_names("swiss") == ("buchholz", "wins", "seed")
    assert tiebreak_names("round-robin") == ("buchholz", "wins", "seed")
    assert FORMATS["knockout"].ranked_by[:2] == ("eliminated_in", "points")


def test_a_played_swiss_table_matches_a_recomputation(games, inline, client: Client):
    game = games["manhattan-traffiq"]
    entrants = demo_entrants(game, 4)[:5]
    t = create_tournament(
        organiser=entrants[0].bot.owner,
        game=game,
        name="Swiss",
        entrants=entrants,
        format="swiss",
        seed=3,
    )
    inline(start_tournament, t)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    rounds = t.current_round + 1
    points: dict[str, float] = defaultdict(float)
    played: dict[str, int] = defaultdict(int)
    won: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    met: dict[str, list[str]] = defaultdict(list)
    for m in t.matches.filter(status=MatchStatus.FINISHED).prefetch_related("seats"):
        a, b = sorted(m.seats.all(), key=lambda s: s.seat)
        for me, other in ((a, b), (b, a)):
            got = 1.0 if me.rank < other.rank else 0.5 if me.rank == other.rank else 0.0
            key, opp = str(me.bot_version_id), str(other.bot_version_id)
            points[key] += got
            played[key] += 1
            won[key][opp] += got
            met[key].append(opp)
    keys = [str(v.pk) for v in entrants]
    for k in keys:  # a bye is worth half a point (one game a table)
        points[k] += 0.5 * (rounds - played[k])
    buchholz = {k: sum(points[o] for o in met[k]) for k in keys}
    sb = {k: sum(g * points[o] for o, g in won[k].items()) for k in keys}

    answer = client.get(f"/api/tournaments/{t.pk}/standings/")
    assert answer.status_code == 200
    data = answer.json()
    assert data["ranked_by"] == ["points", "buchholz", "wins", "seed"]
    for line in data["standings"]:
        k = str(line["bot_version"])
        assert line["points"] == pytest.approx(points[k])
        assert line["buchholz"] == pytest.approx(buchholz[k])
        assert line["sonneborn_berger"] == pytest.approx(sb[k], abs=1e-5)
        assert line["byes"] == rounds - played[k]
    order = [(-r["points"], -r["buchholz"], -r["wins"], r["seed"]) for r in data["standings"]]
    assert order == sorted(order)
    assert data["winner"]["bot_version"] == data["standings"][0]["bot_version"]
    assert data["links"]["csv"].endswith(f"/tournaments/{t.pk}/standings.csv")

    # The page shows the tie-breaks (a Swiss has no full crosstable).
    html = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert "Standings with tie-breaks" in html and "Crosstable" not in html
    # Round by round: every match linked from both sides, a bye where an entrant had no table.
    grid = html[html.index("<h3>Round by round</h3>") :]
    for m in t.matches.all():
        assert grid.count(f'data-match="{m.pk}"') == 2
    assert grid.count(">bye</td>") == sum(rounds - played[k] for k in keys)
    place = {str(r["bot_version"]): r["position"] for r in data["standings"]}
    first = t.matches.filter(status=MatchStatus.FINISHED).order_by("pk")[0]
    a, b = sorted(first.seats.all(), key=lambda s: s.seat)
    sign = "+" if a.rank < b.rank else "=" if a.rank == b.rank else "−"
    cell = f"{sign}{place[str(b.bot_version_id)]}</a>"
    assert f'data-match="{first.pk}" title="Match {first.pk}: finished">{cell}' in grid
    cross = client.get(f"/api/tournaments/{t.pk}/crosstable/").json()
    assert {str(c["bot_version"]): {str(o["opponent"]) for o in c["opponents"]}
            for c in cross["crosstable"]} == {k: set(met[k]) for k in keys}  # fmt: skip
