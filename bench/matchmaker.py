"""One matchmaker tick over a big ladder: 1,000 active bots and 100,000 past matches.

Builds the ladder in a fresh database (a temporary SQLite file, or the PostgreSQL server named
by ``DATABASE_URL``: its database is created as ``<name>_bench`` and dropped after), then times
``ladder.services.tick`` (qualify pending uploads, fill the budget: read the ladder, plan, create
the matches; sending them to the broker is left out) and the pure planner alone, and lists the
queries of one tick. Between two ticks the matches it made are marked finished (not timed),
so that every tick has the whole budget to fill.

    python bench/matchmaker.py [--bots 1000] [--matches 100000] [--budget 20] [--ticks 20]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any, TypeVar

from rich.console import Console
from rich.table import Table

T = TypeVar("T")

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]


def setup_django(tmp: str) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "meeple.settings")
    os.environ["ARENA_DATA_DIR"] = tmp
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith("postgres"):
        os.environ["DATABASE_URL"] = url.rsplit("/", 1)[0] + "/" + url.rsplit("/", 1)[1] + "_bench"
    import django

    django.setup()


# -- the ladder ------------------------------------------------------------------------------


def build(n_bots: int, n_matches: int, seed: int) -> Any:
    """The trnd ladder: ``n_bots`` ranked bots and ``n_matches`` finished ladder matches."""
    from catalog.services import sync_games
    from django.db import connection

    rng = random.Random(seed)
    game = next(g for g in sync_games() if g.slug == "trnd")
    versions = _bots(game, n_bots, rng)
    _past_matches(game, versions, n_matches, rng)
    if connection.vendor == "postgresql":  # fresh statistics, as autovacuum would make them
        with connection.cursor() as cur:
            cur.execute("ANALYZE")
    return game


def _bots(game: Any, n_bots: int, rng: random.Random) -> list[Any]:
    """Bots with one version each, their ladder entries and ratings; returns the versions."""
    from bots.models import Bot, BotVersion
    from bots.services import system_user
    from django.utils import timezone
    from ladder.models import LadderEntry
    from ratings.models import Rating

    owner = system_user()
    Bot.objects.bulk_create(
        [Bot(owner=owner, game=game, name=f"bot{i:05d}", is_builtin=True) for i in range(n_bots)]
    )
    bots = list(Bot.objects.filter(game=game).order_by("pk"))
    BotVersion.objects.bulk_create(
        [BotVersion(bot=b, number=1, builtin_name="random", status="active") for b in bots]
    )
    now = timezone.now()
    LadderEntry.objects.bulk_create(
        [
            LadderEntry(
                bot=b,
                game=game,
                placement_owed=5 if i % 50 == 0 else 0,
                ladder_matches=rng.randint(20, 200),
                last_match_at=now - timedelta(seconds=rng.randint(0, 86_400)),
            )
            for i, b in enumerate(bots)
        ]
    )
    Rating.objects.bulk_create(
        [
            Rating(
                bot=b,
                game=game,
                mu=rng.gauss(25, 5),
                sigma=rng.uniform(1, 8.3),
                matches_played=rng.randint(20, 300),
            )
            for b in bots
        ]
    )
    return list(BotVersion.objects.filter(bot__game=game).order_by("bot_id"))


def _past_matches(game: Any, versions: list[Any], n_matches: int, rng: random.Random) -> None:
    """Finished three-seat ladder matches between random versions, in batches."""
    from ladder.models import LadderMatch
    from matches.models import Match, MatchKind, MatchSeat, MatchStatus

    batch = 5000
    for start in range(0, n_matches, batch):
        size = min(batch, n_matches - start)
        made = Match.objects.bulk_create(
            [
                Match(
                    game=game,
                    seed=rng.getrandbits(62),
                    status=MatchStatus.FINISHED,
                    kind=MatchKind.LADDER,
                    result={"ranks": [1, 2, 3]},
                )
                for _ in range(size)
            ]
        )
        seats = []
        for m in made:
            for s, v in enumerate(rng.sample(versions, 3)):
                seats.append(MatchSeat(match=m, seat=s, bot_version=v, rank=s + 1, status="ok"))
        MatchSeat.objects.bulk_create(seats, batch_size=5000)
        LadderMatch.objects.bulk_create(
            [LadderMatch(match=m, game=game, kind=MatchKind.LADDER) for m in made]
        )
        print(f"\r  built {start + size:,} matches", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)


# -- arguments -----------------------------------------------------------------------------


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bots", type=int, default=1000)
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument(
        "--budget",
        type=int,
        nargs="+",
        default=[4, 20],
        help="free slots a tick fills (default: 4, the default ARENA_LADDER_BUDGET, and 20)",
    )
    parser.add_argument("--ticks", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--explain", action="store_true", help="print EXPLAIN ANALYZE of the tick's reads"
    )
    return parser.parse_args()


def main() -> None:
    args = parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        setup_django(tmp)
        from django.test.utils import setup_databases, teardown_databases

        old = setup_databases(verbosity=0, interactive=False)  # a fresh, migrated database
        try:
            run(args)
        finally:
            teardown_databases(old, verbosity=0)


# -- the runs ------------------------------------------------------------------------------

#: One timed series: wall ms and CPU ms per run.
Timings = tuple[list[float], list[float]]


def timed(
    times: int, step: Callable[[], T], after: Callable[[], object] = lambda: None
) -> tuple[Timings, list[T]]:
    """Wall and CPU milliseconds of ``times`` calls of ``step``, and what each call returned;
    ``after`` runs after each call, outside the timing."""
    wall: list[float] = []
    cpu: list[float] = []
    out: list[T] = []
    for _ in range(times):
        start, start_cpu = time.perf_counter(), time.process_time()
        out.append(step())
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
        after()
    return (wall, cpu), out


def free_budget(game: Any) -> None:
    """Mark the matches the last tick made finished, so that the next has its whole budget."""
    from matches.models import Match, MatchStatus

    Match.objects.filter(game=game, status=MatchStatus.QUEUED).update(status=MatchStatus.FINISHED)


def time_ticks(game: Any, budget: int, ticks: int, rng: random.Random) -> tuple[Timings, list[int]]:
    """Whole ticks at ``budget``: their timings and the matches each made."""
    from django.conf import settings
    from ladder import services

    settings.ARENA_LADDER_BUDGET = budget
    services.tick(game, rng=rng)  # warm caches and the connection
    free_budget(game)
    timings, reports = timed(ticks, lambda: services.tick(game, rng=rng), lambda: free_budget(game))
    return timings, [len(report.ladder_matches) for report in reports]


def run(args: argparse.Namespace) -> None:
    from django.conf import settings
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone
    from ladder import services
    from matches.models import Match

    from arena.matchmaking import plan_matches

    console = Console(width=130)
    t0 = time.perf_counter()
    game = build(args.bots, args.matches, args.seed)
    console.print(
        f"built {args.bots:,} bots, {Match.objects.count():,} matches in "
        f"{time.perf_counter() - t0:.0f} s ({connection.vendor})"
    )
    services._send = lambda match: None  # time the tick, not the broker
    rng = random.Random(args.seed)
    b0 = args.budget[0]
    results = [(budget, time_ticks(game, budget, args.ticks, rng)) for budget in args.budget]
    # The decision alone: read the ladder, plan, pick the versions (what a tick does before
    # it creates the matches).
    deciding, _ = timed(args.ticks, lambda: services._plan(game, timezone.now(), rng, b0))
    settings.ARENA_LADDER_BUDGET = b0
    connection.queries_log.clear()  # the build filled it: start the count afresh
    with CaptureQueriesContext(connection) as queries:
        services.tick(game, rng=rng)
    free_budget(game)
    if os.environ.get("BENCH_PROFILE"):  # where a tick's time goes
        profile_tick(game, rng)
    cands = services.candidates(game, timezone.now())
    planning, _ = timed(
        args.ticks, lambda: plan_matches(cands, min_seats=3, max_seats=5, budget=b0, rng=rng)
    )
    print_table(console, args, results, deciding, planning)
    print_queries(console, b0, queries.captured_queries, explain=args.explain)


def profile_tick(game: Any, rng: random.Random) -> None:
    import cProfile
    import pstats

    from ladder import services

    prof = cProfile.Profile()
    prof.enable()
    services.tick(game, rng=rng)
    prof.disable()
    free_budget(game)
    pstats.Stats(prof).sort_stats("cumulative").print_stats(30)


# -- the table -----------------------------------------------------------------------------


def print_table(
    console: Console,
    args: argparse.Namespace,
    results: list[tuple[int, tuple[Timings, list[int]]]],
    deciding: Timings,
    planning: Timings,
) -> None:
    table = Table(title=f"One matchmaker tick: {args.bots:,} bots, {args.matches:,} past matches")
    # CPU: this process only (Python and, for SQLite, the database); wall: also the database
    # server and the wait for a core on a busy machine.
    for col in ("what", "wall median ms", "wall p90 ms", "CPU median ms", "matches made"):
        table.add_column(col, justify="right" if col != "what" else "left")

    def row(name: str, xs: list[float], cpu_: list[float], made_: str) -> None:
        xs = sorted(xs)
        table.add_row(
            name,
            f"{statistics.median(xs):.1f}",
            f"{xs[int(0.9 * (len(xs) - 1))]:.1f}",
            f"{statistics.median(cpu_):.1f}",
            made_,
        )

    for budget, ((ticks, cpu), made) in results:
        row(f"ladder.services.tick, budget {budget}", ticks, cpu, f"{statistics.mean(made):.0f}")
    b0 = args.budget[0]
    row(f"  deciding only (reads, plan, versions), budget {b0}", *deciding, "-")
    row(f"arena.matchmaking.plan_matches alone, budget {b0}", *planning, "-")
    console.print(table)
    console.print(
        f"load average while measuring: {os.getloadavg()[0]:.1f} ({os.cpu_count()} cores)"
    )


def print_queries(
    console: Console, budget: int, captured: list[dict[str, Any]], explain: bool
) -> None:
    """The queries of one tick, counted by verb, then its reads (with their plans)."""
    from django.db import connection

    kinds: dict[str, int] = {}
    for q in captured:
        verb = q["sql"].split()[0].upper()
        kinds[verb] = kinds.get(verb, 0) + 1
    console.print(
        f"queries in one tick (budget {budget}): {len(captured)} "
        f"({', '.join(f'{k} {v}' for k, v in sorted(kinds.items()))}); the reads:"
    )
    for q in captured:
        sql = q["sql"]
        if sql.startswith("SELECT"):
            console.print(f"  [dim]{q['time']}s[/dim] {sql[:150]}", highlight=False)
            if explain and "FOR UPDATE" not in sql:
                with connection.cursor() as cur:
                    cur.execute("EXPLAIN ANALYZE " + sql)
                    for (line,) in cur.fetchall():
                        console.print(f"      [dim]{line}[/dim]", highlight=False)


if __name__ == "__main__":
    main()
