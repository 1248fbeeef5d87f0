"""Tournaments through the referee: every registered game that imports now, built-in bots,
standings that add up; the same table whatever the number of parallel jobs; Swiss and
knockout through the command line, round by round with arena.formats."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from arena.cli import EXIT_BAD_INPUT, EXIT_OK, main
from arena.formats import BYE_POINTS, Result, match_points, new_standings, next_round, record_round
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


# -- formats: the CLI plays arena.formats round by round -------------------------------------


def _fast(slug: str, players: int) -> int:
    """Decisions in a first-legal-action game of ``slug`` (to pick quick games)."""
    state = registry.get_game(slug).new_game(players, 1)
    n = 0
    while not state.is_over() and n < 5000:
        state.apply(state.legal_actions()[0])
        n += 1
    return n


@pytest.fixture(scope="module")
def pair_game(games_now: list[str]) -> str:
    """The quickest game that two can play."""
    two = [s for s in games_now if registry.get_game(s).min_players <= 2]
    assert two, "no two-seat game to play a bracket with"
    return min(two, key=lambda s: _fast(s, 2))


@pytest.fixture(scope="module")
def table_game(games_now: list[str]) -> str:
    """The quickest game that seats three."""
    three = [s for s in games_now if registry.get_game(s).max_players >= 3]
    return min(three, key=lambda s: _fast(s, max(3, registry.get_game(s).min_players)))


def _bots(slug: str, n: int) -> list[str]:
    names = [f"builtin:{b}" for b in registry.bots(slug)]
    return [names[i % len(names)] for i in range(n)]


def _run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _replay_rounds(t) -> None:  # type: ignore[no-untyped-def]
    """The rounds the runner played are exactly what arena.formats plans from the results."""
    rows = new_standings(t.bots)
    by_match = dict(zip(map(id, t.schedule), t.outcomes, strict=True))
    for number, rnd in enumerate(t.rounds):
        assert next_round(t.format, rows, number, t.options) == rnd
        results = [
            Result(m.bots, tuple(s.rank for s in by_match[id(m)].seats)) for m in rnd.matches
        ]
        rows = record_round(t.format, rows, number, results, t.options)
    assert next_round(t.format, rows, len(t.rounds), t.options) is None
    assert rows == t.rows


def test_cli_swiss_end_to_end(capsys, table_game, tmp_path):
    bots = _bots(table_game, 7)
    code, out, err = _run_cli(
        capsys, "tournament", table_game, *bots, "--format", "swiss", "--rounds", "3",
        "--seed", "4", "--out", str(tmp_path), "--json",
    )  # fmt: skip
    assert code == EXIT_OK, err
    doc = json.loads(out)
    labels = bot_labels(bots)
    assert doc["format"] == "swiss" and len(doc["rounds"]) == 3
    for rnd in doc["rounds"]:
        seated = [b for t in rnd["tables"] for b in t]
        assert sorted(seated + rnd["byes"]) == sorted(labels)
    # Points in the ranking are the matches' points plus byes, and the ranking sorts by them.
    points = dict.fromkeys(labels, 0.0)
    for m in doc["matches"]:
        for bot, p in zip(m["bots"], match_points(m["ranks"]), strict=True):
            points[bot] += p
    for rnd in doc["rounds"]:
        for b in rnd["byes"]:
            points[b] += BYE_POINTS
    ranked = doc["ranking"]
    assert {r["bot"]: r["points"] for r in ranked} == pytest.approx(points)
    assert [r["points"] for r in ranked] == sorted((r["points"] for r in ranked), reverse=True)
    assert json.loads((tmp_path / "standings.json").read_text())["ranking"] == ranked
    assert len(list((tmp_path / "replays").glob("*.json"))) == len(doc["matches"])


def test_cli_knockout_bracket_end_to_end(capsys, pair_game):
    bots = _bots(pair_game, 6)
    code, out, err = _run_cli(
        capsys, "tournament", pair_game, *bots, "--format", "knockout", "--players", "2",
        "--games", "2",
    )  # fmt: skip
    assert code == EXIT_OK, err
    assert out.count("winner") == 1 and "knockout" in out
    t = run_tournament(pair_game, bots, format="knockout", players=2, games=2)
    # Six entrants in a bracket of eight: seeds 1 and 2 wait for round two; 5 tables in all.
    assert set(t.rounds[0].byes) == {t.bots[0], t.bots[1]}
    assert len(t.rounds) == 3 and len(t.outcomes) == 5 * 2
    assert sum(not r.eliminated for r in t.rows.values()) == 1
    assert t.ranking[0].bot in out
    _replay_rounds(t)


def test_multiplayer_knockout_groups_until_one_winner(table_game):
    game = registry.get_game(table_game)
    players = max(3, game.min_players)
    t = run_tournament(
        table_game, _bots(table_game, 2 * players + 1), format="knockout", players=players, seed=2
    )
    assert t.errors == []
    for rnd in t.rounds:
        assert all(game.min_players <= len(tb.bots) <= players for tb in rnd.tables)
    assert len(t.rounds[-1].tables) == 1  # the final
    assert [r.eliminated for r in t.ranking] == [False] + [True] * (len(t.bots) - 1)
    _replay_rounds(t)


def test_swiss_in_parallel_is_the_same_tournament(pair_game):
    bots = _bots(pair_game, 5)
    one = run_tournament(pair_game, bots, format="swiss", players=2, rounds=3, seed=9, jobs=1)
    two = run_tournament(pair_game, bots, format="swiss", players=2, rounds=3, seed=9, jobs=2)
    assert one.rounds == two.rounds and one.rows == two.rows
    assert [o.result for o in one.outcomes] == [o.result for o in two.outcomes]
    _replay_rounds(one)


@pytest.mark.parametrize(
    ("extra", "needle"),
    [
        (["--format", "knockout", "--rounds", "2"], "takes no number of rounds"),
        (["--format", "swiss", "--rounds", "0"], "rounds must be"),
        (["--format", "knockout", "--players", "2", "--advance", "2"], "one per match"),
        (["--format", "league"], "invalid choice"),
        (["--advance", "2"], "knocks nobody out"),
        (["--format", "swiss", "--tie-replays", "1"], "for a two-seat knockout"),
    ],
)
def test_cli_refuses_bad_format_input(capsys, pair_game, extra, needle):
    code, _, err = _run_cli(capsys, "tournament", pair_game, *_bots(pair_game, 4), *extra)
    assert code == EXIT_BAD_INPUT
    assert err.startswith("arena: error: ") and err.count("\n") == 1, err
    assert needle in err
