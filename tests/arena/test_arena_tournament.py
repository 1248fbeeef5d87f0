"""Tournaments through the referee: every registered game that imports now, built-in bots,
standings that add up; the same table whatever the number of parallel jobs."""

from __future__ import annotations

from collections import Counter

import pytest

from arena.tournament import bot_labels, run_tournament
from games import registry


def _field(slug: str) -> tuple[list[str], int]:
    """The game's built-in bots, repeated as needed to fill its smallest table of 2+ seats."""
    game = registry.get_game(slug)
    players = max(game.min_players, 2)
    bots = [f"builtin:{b}" for b in registry.bots(slug)]
    while len(bots) < players + 1:
        bots.append(bots[len(bots) % len(registry.bots(slug))])
    return bots, players


def test_builtin_tournament_on_every_game_adds_up(games_now):
    assert games_now, "at least one game must run"
    for slug in games_now:
        bots, players = _field(slug)
        seen = []
        t = run_tournament(
            slug,
            bots,
            games=players,
            players=players,
            seed=3,
            on_match=lambda i, o, seen=seen: seen.append(i),
        )
        labels = bot_labels(bots)
        assert sorted(seen) == list(range(len(t.schedule)))
        assert t.errors == []
        rows = t.standings.by_bot()
        assert set(rows) == set(labels)
        # every match puts `players` bots in the table, once each
        assert sum(r.matches for r in rows.values()) == players * len(t.outcomes)
        played = Counter(b for m in t.schedule for b in m.bots)
        assert {b: rows[b].matches for b in labels} == dict(played)
        # wins: the first places of the matches, by bot
        wins = Counter(
            m.bots[s]
            for m, o in zip(t.schedule, t.outcomes, strict=True)
            for s, seat in enumerate(o.seats)
            if seat.rank == 1
        )
        assert {b: rows[b].wins for b in labels} == {b: wins.get(b, 0) for b in labels}
        # average ranks from the outcomes
        for b in labels:
            ranks = [
                o.seats[s].rank
                for m, o in zip(t.schedule, t.outcomes, strict=True)
                for s in range(players)
                if m.bots[s] == b
            ]
            assert rows[b].avg_rank == pytest.approx(sum(ranks) / len(ranks))
        # Elo is zero-sum over the field; seats were rotated fairly
        assert sum(r.elo for r in rows.values()) == pytest.approx(1500 * len(labels))
        for b in labels:
            seats = Counter(m.bots.index(b) for m in t.schedule if b in m.bots)
            assert max(seats.values()) - min(seats.values()) <= 1


def test_parallel_jobs_give_the_same_table(small_game):
    bots, players = _field(small_game)
    one = run_tournament(small_game, bots, games=1, players=players, seed=8, jobs=1)
    two = run_tournament(small_game, bots, games=1, players=players, seed=8, jobs=2)
    assert one.standings.to_json() == two.standings.to_json()
    assert [o.result for o in one.outcomes] == [o.result for o in two.outcomes]


def test_program_bots_in_a_tournament(small_game, make_bot, tmp_path):
    good = make_bot("good")
    _, players = _field(small_game)
    bots = [good, "builtin:random", *(["builtin:random"] * (players - 1))]
    t = run_tournament(small_game, bots, games=1, players=players, out_dir=tmp_path / "out")
    assert t.errors == []
    assert len(list((tmp_path / "out" / "replays").glob("*.json"))) == len(t.schedule)
    assert (tmp_path / "out" / "standings.json").exists()
