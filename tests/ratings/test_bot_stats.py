"""The stats that explain a rating (results by table size and seat, per opponent, and the Elo
over each version's period): counters kept as each rated match is recorded, the migration's
backfill giving the very same counters, pages and API that read them at a constant cost."""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from typing import Any

import pytest
from bots.models import BotVersion, VersionStatus
from django.apps import apps
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from matches.models import MatchSeat, MatchStatus
from matches.services import create_match, dispatch_match
from ratings import stats
from ratings.models import OpponentStat, Rating, RatingChange, SeatStat, VersionPeriod
from ratings.stat_backfill import backfill
from ratings.stat_tally import MAX_POINTS, Period

from tests.scale.conftest import History


def _play(versions: list[BotVersion], n: int, seed: int = 1) -> None:
    """``n`` rated matches of 2 or 3 seats among ``versions``, each played by the referee and
    recorded through the worker's path (so every hook runs)."""
    rng = random.Random(seed)
    game = versions[0].bot.game
    for _ in range(n):
        seats = rng.sample(versions, rng.choice([game.min_players, min(3, game.max_players)]))
        match = dispatch_match(create_match(game=game, versions=seats, seed=rng.randrange(999)))
        assert match.status == MatchStatus.FINISHED


def _snapshot() -> dict[str, Any]:
    return {
        "seats": {
            (s.version_id, s.players, s.seat): (
                s.bot_id,
                s.played,
                s.firsts,
                s.rank_sum,
                round(s.elo_change, 6),
            )
            for s in SeatStat.objects.all()
        },
        "opponents": {
            (o.version_id, o.opponent_id): (o.bot_id, o.met, o.ahead, o.level, o.behind)
            for o in OpponentStat.objects.all()
        },
        "periods": {
            p.version_id: (
                p.bot_id,
                p.matches,
                p.first_at,
                p.last_at,
                round(p.elo_start, 6),
                round(p.elo_end, 6),
                round(p.elo_high, 6),
                round(p.elo_low, 6),
                p.points,
                p.stride,
            )
            for p in VersionPeriod.objects.all()
        },
    }


@pytest.fixture
def pool(three_versions: list[BotVersion]) -> list[BotVersion]:
    """Four bots of trnd (3 to 5 seats): the built-ins, a second random and a v2 of greedy."""
    greedy = three_versions[1].bot
    v2 = greedy.versions.create(number=2, builtin_name="random", status=VersionStatus.ACTIVE)
    return [*three_versions, v2]


def test_counters_agree_with_the_recorded_matches(pool: list[BotVersion]) -> None:
    _play(pool, 12)
    seats = list(
        MatchSeat.objects.filter(match__rating_changes__isnull=False)
        .distinct()
        .select_related("bot_version")
    )
    sizes = Counter(s.match_id for s in seats)
    want: dict[tuple[int, int, int], list[int]] = defaultdict(lambda: [0, 0, 0])
    for s in seats:
        row = want[(s.bot_version_id, sizes[s.match_id], s.seat)]
        row[0] += 1
        row[1] += s.rank == 1
        row[2] += s.rank
    got = {
        (s.version_id, s.players, s.seat): [s.played, s.firsts, s.rank_sum]
        for s in SeatStat.objects.all()
    }
    assert got == dict(want)
    assert {s.players for s in SeatStat.objects.all()} == {3}  # trnd seats 3 at least
    # What the counters say each bot's Elo moved is what its rating moved.
    for rating in Rating.objects.all():
        moved = sum(s.elo_change for s in SeatStat.objects.filter(bot_id=rating.bot_id))
        assert moved == pytest.approx(rating.elo - 1500.0)
        played = sum(s.played for s in SeatStat.objects.filter(bot_id=rating.bot_id))
        assert played == rating.matches_played
    # Per opponent: each pair met as often as they sat together, from both sides.
    for o in OpponentStat.objects.all():
        assert o.met == o.ahead + o.level + o.behind
        together = MatchSeat.objects.filter(
            bot_version_id=o.version_id,
            match__seats__bot_version__bot_id=o.opponent_id,
            match__rating_changes__isnull=False,
        ).distinct()
        assert o.met == together.count()
    # Each version's period: its matches, and the Elo after its last one.
    for p in VersionPeriod.objects.all():
        mine = RatingChange.objects.filter(
            match__seats__bot_version_id=p.version_id, bot_id=p.bot_id
        ).order_by("id")
        assert p.matches == mine.count()
        assert p.elo_end == pytest.approx(mine.last().elo_after)
        assert p.elo_start == pytest.approx(mine.first().elo_before)


def test_the_backfill_counts_what_the_live_path_counted(pool: list[BotVersion]) -> None:
    _play(pool, 10, seed=3)
    live = _snapshot()
    assert live["seats"] and live["opponents"] and live["periods"]
    for model in (SeatStat, OpponentStat, VersionPeriod):
        model.objects.all().delete()
    # Small batches: matches straddle the batches' edges.
    counted = backfill(apps.get_model, batch=4)
    # (Not every match is rated: greedy's two versions at one table are one bot twice.)
    rated = set(RatingChange.objects.values_list("match_id", flat=True))
    assert counted == len(rated) >= 4
    assert _snapshot() == live
    # Counting one game again (after its rating changes were rewritten) gives the same, once.
    assert stats.recount(pool[0].bot.game_id) == counted
    assert _snapshot() == live


def test_a_periods_series_stays_bounded_and_even() -> None:
    period = Period()
    elo = 1500.0
    for n in range(1, 1001):
        before, elo = elo, elo + (1 if n % 3 else -2)
        period.add(before, elo, None)
    assert period.matches == 1000
    assert len(period.points) <= MAX_POINTS and period.stride == 16
    # points[i] is the Elo after match (i + 1) * stride, whatever the thinning did.
    replay, elos = 1500.0, {}
    for n in range(1, 1001):
        replay += 1 if n % 3 else -2
        elos[n] = replay
    assert period.points == [elos[(i + 1) * period.stride] for i in range(len(period.points))]


def _page_queries(client: Client, url: str) -> tuple[int, int]:
    """(queries with the cache cold, queries with it warm) for one page."""
    cache.clear()
    with CaptureQueriesContext(connection) as cold:
        assert client.get(url).status_code == 200
    with CaptureQueriesContext(connection) as warm:
        assert client.get(url).status_code == 200
    return len(cold.captured_queries), len(warm.captured_queries)


def test_bot_page_costs_the_same_with_5_and_50_matches(db: None, games: Any) -> None:
    history = History(games["tri-area"])
    others = history.add_bots(4)
    mine = others.pop(0)
    bot = mine.bot
    v1 = bot.versions.get(number=1)
    owner = Client()
    owner.force_login(bot.owner)
    urls = [f"/bots/{bot.pk}/", f"/bots/{bot.pk}/compare/?a=1&b=2"]

    def play(n: int) -> None:
        """``n`` matches of the bot, its two versions in turn, at 2 and 3 seats."""
        for k in range(n):
            seats = [v1 if k % 2 else mine, *history.rng.sample(others, 1 + k % 2)]
            turn = (k // 2) % len(seats)  # every seat in turn
            seats = seats[-turn:] + seats[:-turn] if turn else seats
            history.finish(create_match(game=history.game, versions=seats, seed=k))

    def measure() -> list[tuple[int, int]]:
        return [_page_queries(owner, u) for u in urls] + [_page_queries(Client(), urls[0])]

    play(5)
    small = measure()
    play(45)
    # v2 at two seats of 2, v1 at three seats of 3.
    assert SeatStat.objects.filter(bot=bot).count() == 2 + 3
    assert sum(s.played for s in SeatStat.objects.filter(bot=bot)) == 50
    page = owner.get(urls[0]).content.decode()
    assert "Rated results by table size and seat" in page and 'data-test="by-seat"' in page
    big = measure()
    print("queries (cold, warm): owner's bot page, compare page, anonymous bot page:", big)
    assert big == small


@pytest.mark.django_db(transaction=True)
def test_the_migration_counts_the_stored_history(pool: list[BotVersion]) -> None:
    """Back to before the counters were counted (0004: tables empty), then forward: the
    migration counts the rated matches already stored, with the models as they were."""
    from django.db.migrations.executor import MigrationExecutor

    _play(pool, 6, seed=5)
    live = _snapshot()
    assert live["periods"]
    executor = MigrationExecutor(connection)
    leaves = executor.loader.graph.leaf_nodes()
    try:
        executor.migrate([("ratings", "0004_result_counters")])
        assert not SeatStat.objects.exists() and not VersionPeriod.objects.exists()
        executor = MigrationExecutor(connection)
        executor.migrate(leaves)
        assert _snapshot() == live
    finally:
        MigrationExecutor(connection).migrate(leaves)
