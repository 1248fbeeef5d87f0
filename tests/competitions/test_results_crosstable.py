"""A played round robin's published results (crosstable, CSV, JSON) against a recomputation
from its matches' seats (issue 22, item 5)."""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from typing import Any

import pytest
from competitions.management.commands.demo import demo_entrants
from competitions.models import TournamentStatus
from competitions.tournaments.services import create_tournament, start_tournament
from django.test import Client
from matches.models import MatchStatus

Pair = dict[str, dict[str, list[float]]]


def play_round_robin(games: dict[str, Any], inline: Any, size: int, seats: int) -> Any:
    game = games["manhattan-traffiq"]
    entrants = demo_entrants(game, size - 1)[:size]
    t = create_tournament(
        organiser=entrants[0].bot.owner,
        game=game,
        name="Club night",
        entrants=entrants,
        players_per_match=seats,
        seed=5,
    )
    inline(start_tournament, t)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    return t


def recompute(t: Any) -> tuple[dict[str, float], Pair, dict[frozenset[str], list[int]]]:
    """From the seats alone: each entrant's points, each ordered pair's meeting scores
    (1 ahead, ½ level, 0 behind, over the table's seats less one), each pair's matches."""
    points: dict[str, float] = defaultdict(float)
    pair: Pair = defaultdict(lambda: defaultdict(list))
    matches: dict[frozenset[str], list[int]] = defaultdict(list)
    for m in t.matches.prefetch_related("seats").order_by("pk"):
        seats = sorted(m.seats.all(), key=lambda s: s.seat)
        bots = [str(s.bot_version_id) for s in seats]
        for i, a in enumerate(bots):
            for b in bots[i + 1 :]:
                matches[frozenset((a, b))].append(m.pk)
        if m.status != MatchStatus.FINISHED:
            continue
        share = 1 / (len(seats) - 1)
        for s in seats:
            for o in seats:
                if o is s:
                    continue
                got = 1.0 if s.rank < o.rank else 0.5 if s.rank == o.rank else 0.0
                pair[str(s.bot_version_id)][str(o.bot_version_id)].append(got)
                points[str(s.bot_version_id)] += got * share
    return points, pair, matches


@pytest.mark.parametrize("seats", [2, 3])
def test_crosstable_csv_and_json_match_the_seats(games, inline, client: Client, seats: int):
    t = play_round_robin(games, inline, size=5 if seats == 2 else 4, seats=seats)
    points, pair, pair_matches = recompute(t)
    share = 1 / (seats - 1)

    data = client.get(f"/tournaments/{t.pk}/standings.json").json()
    standings = data["standings"]
    assert [r["position"] for r in standings] == list(range(1, len(standings) + 1))
    by_version = {str(r["bot_version"]): r for r in standings}
    assert by_version.keys() == points.keys()
    buchholz = {a: sum(points[b] * len(scores) for b, scores in pair[a].items()) for a in points}
    sb = {a: sum(sum(s) * share * points[b] for b, s in pair[a].items()) for a in points}
    for key, row in by_version.items():
        assert row["points"] == pytest.approx(points[key])
        assert row["buchholz"] == pytest.approx(buchholz[key])
        assert row["sonneborn_berger"] == pytest.approx(sb[key], abs=1e-5)
    # The order is the format's: points first, then Buchholz.
    keys = [(-r["points"], -r["buchholz"]) for r in standings]
    assert keys == sorted(keys)

    for line in data["crosstable"]:
        a = str(line["bot_version"])
        assert {str(o["opponent"]) for o in line["opponents"]} == set(pair[a])
        for o in line["opponents"]:
            scores = pair[a][str(o["opponent"])]
            assert o["ahead"] == scores.count(1.0)
            assert o["level"] == scores.count(0.5)
            assert o["behind"] == scores.count(0.0)
            assert o["points"] == pytest.approx(sum(scores) * share)
            assert o["matches"] == pair_matches[frozenset((a, str(o["opponent"])))]
    assert len(data["matches"]) == t.matches.count()
    assert all(m["replay"].endswith(f"/matches/{m['id']}/") for m in data["matches"])
    assert data["matches"][0]["replay"].startswith("http://testserver/")

    answer = client.get(f"/tournaments/{t.pk}/standings.csv")
    assert answer["Content-Type"].startswith("text/csv")
    assert "attachment" in answer["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(answer.content.decode())))
    assert [int(r["bot_version"]) for r in rows] == [r["bot_version"] for r in standings]
    for r in rows:
        assert float(r["points"]) == pytest.approx(points[r["bot_version"]], abs=1e-5)
        assert float(r["buchholz"]) == pytest.approx(buchholz[r["bot_version"]], abs=1e-5)
        assert r["owner"] == "arena"  # the built-ins' owner


def test_the_page_shows_the_crosstable_with_each_match_linked(games, inline, client: Client):
    t = play_round_robin(games, inline, size=4, seats=2)
    points, _, pair_matches = recompute(t)
    html = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert "<h3>Crosstable</h3>" in html
    for ids in pair_matches.values():
        for pk in ids:
            # Linked twice: from each side's cell.
            assert html.count(f'data-match="{pk}"') == 2
    winner = max(points, key=lambda k: points[k])
    assert "/standings.csv" in html and "Copy embed code" in html
    assert "replay of its last match" in html
    data = client.get(f"/tournaments/{t.pk}/standings.json").json()
    assert data["winner"]["bot_version"] == data["standings"][0]["bot_version"]
    assert points[str(data["winner"]["bot_version"])] == pytest.approx(points[winner])
