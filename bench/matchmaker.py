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
from pathlib import Path

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


def build(n_bots: int, n_matches: int, seed: int) -> object:
    from bots.models import Bot, BotVersion
    from bots.services import system_user
    from catalog.services import sync_games
    from django.utils import timezone
    from ladder.models import LadderEntry, LadderMatch
    from matches.models import Match, MatchKind, MatchSeat, MatchStatus
    from ratings.models import Rating

    rng = random.Random(seed)
    game = next(g for g in sync_games() if g.slug == "trnd")
    owner = system_user()
    Bot.objects.bulk_create(
        [Bot(owner=owner, game=game, name=f"bot{i:05d}", is_builtin=True) for i in range(n_bots)]
    )
    bots = list(Bot.objects.filter(game=game).order_by("pk"))
    BotVersion.objects.bulk_create(
        [BotVersion(bot=b, number=1, builtin_name="random", status="active") for b in bots]
    )
    versions = list(BotVersion.objects.filter(bot__game=game).order_by("bot_id"))
    now = timezone.now()
    LadderEntry.objects.bulk_create(
        [
            LadderEntry(
                bot=b,
                game=game,
                placement_owed=5 if i % 50 == 0 else 0,
                ladder_matches=rng.randint(20, 200),
                last_match_at=now - timezone.timedelta(seconds=rng.randint(0, 86_400)),
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
    from django.db import connection

    if connection.vendor == "postgresql":  # fresh statistics, as autovacuum would make them
        with connection.cursor() as cur:
            cur.execute("ANALYZE")
    return game


def main() -> None:
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
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        setup_django(tmp)
        from django.conf import settings
        from django.core.management import call_command
        from django.db import connection
        from django.test.utils import CaptureQueriesContext, setup_databases, teardown_databases

        old = setup_databases(verbosity=0, interactive=False)  # a fresh, migrated database
        try:
            run(args, settings, connection, CaptureQueriesContext, call_command)
        finally:
            teardown_databases(old, verbosity=0)


def run(args, settings, connection, CaptureQueriesContext, call_command) -> None:  # type: ignore[no-untyped-def]
    from ladder import services
    from matches.models import Match, MatchStatus
    from rich.console import Console
    from rich.table import Table

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

    def free_budget() -> None:
        Match.objects.filter(game=game, status=MatchStatus.QUEUED).update(
            status=MatchStatus.FINISHED
        )

    results = []
    for budget in args.budget:
        settings.ARENA_LADDER_BUDGET = budget
        services.tick(game, rng=rng)  # warm caches and the connection
        free_budget()
        ticks, cpu, made = [], [], []
        for _ in range(args.ticks):
            start, start_cpu = time.perf_counter(), time.process_time()
            report = services.tick(game, rng=rng)
            ticks.append((time.perf_counter() - start) * 1000)
            cpu.append((time.process_time() - start_cpu) * 1000)
            made.append(len(report.ladder_matches))
            free_budget()
        results.append((budget, ticks, cpu, made))

    # The decision alone: read the ladder, plan, pick the versions (what a tick does before
    # it creates the matches).
    from django.utils import timezone

    decide, decide_cpu = [], []
    for _ in range(args.ticks):
        start, start_cpu = time.perf_counter(), time.process_time()
        services._plan(game, timezone.now(), rng, args.budget[0])
        decide.append((time.perf_counter() - start) * 1000)
        decide_cpu.append((time.process_time() - start_cpu) * 1000)
    settings.ARENA_LADDER_BUDGET = args.budget[0]
    connection.queries_log.clear()  # the build filled it: start the count afresh
    with CaptureQueriesContext(connection) as queries:
        services.tick(game, rng=rng)
    free_budget()
    if os.environ.get("BENCH_PROFILE"):  # where a tick's time goes
        import cProfile
        import pstats

        prof = cProfile.Profile()
        prof.enable()
        services.tick(game, rng=rng)
        prof.disable()
        free_budget()
        pstats.Stats(prof).sort_stats("cumulative").print_stats(30)

    cands = services.candidates(game, timezone.now())
    plans, plans_cpu = [], []
    for _ in range(args.ticks):
        start, start_cpu = time.perf_counter(), time.process_time()
        plan_matches(cands, min_seats=3, max_seats=5, budget=args.budget[0], rng=rng)
        plans.append((time.perf_counter() - start) * 1000)
        plans_cpu.append((time.process_time() - start_cpu) * 1000)

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

    for budget, ticks, cpu, made in results:
        row(f"ladder.services.tick, budget {budget}", ticks, cpu, f"{statistics.mean(made):.0f}")
    b0 = args.budget[0]
    row(f"  deciding only (reads, plan, versions), budget {b0}", decide, decide_cpu, "-")
    row(f"arena.matchmaking.plan_matches alone, budget {b0}", plans, plans_cpu, "-")
    console.print(table)
    console.print(
        f"load average while measuring: {os.getloadavg()[0]:.1f} ({os.cpu_count()} cores)"
    )
    kinds: dict[str, int] = {}
    for q in queries.captured_queries:
        verb = q["sql"].split()[0].upper()
        kinds[verb] = kinds.get(verb, 0) + 1
    console.print(
        f"queries in one tick (budget {args.budget[0]}): {len(queries.captured_queries)} "
        f"({', '.join(f'{k} {v}' for k, v in sorted(kinds.items()))}); the reads:"
    )
    for q in queries.captured_queries:
        sql = q["sql"]
        if sql.startswith("SELECT"):
            console.print(f"  [dim]{q['time']}s[/dim] {sql[:150]}", highlight=False)
            if args.explain and "FOR UPDATE" not in sql:
                with connection.cursor() as cur:
                    cur.execute("EXPLAIN ANALYZE " + sql)
                    for (line,) in cur.fetchall():
                        console.print(f"      [dim]{line}[/dim]", highlight=False)


if __name__ == "__main__":
    main()
