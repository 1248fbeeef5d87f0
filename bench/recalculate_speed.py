"""``manage.py recalculate_ratings`` at scale: CPU, wall time, queries and the longest
transaction it held open (what a live recording may have to wait for), per game and in all.

Run ``bench/fill_scale.py`` first (same ``DATABASE_URL``). The recalculation runs in-process;
a watcher thread on its own connection reads ``pg_stat_activity`` every 10 ms and keeps the
longest ``now() - xact_start`` of the recalculation's session (so the figure is exact to
about 10 ms). Copy the database first (``createdb -T``) to measure twice on the same data.

    DATABASE_URL=postgres://... python bench/recalculate_speed.py [--game SLUG] [--markdown]
        [--code-dir DIR]   # measure another checkout (e.g. main's code) on the same data
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from pathlib import Path


def setup(code_dir: Path) -> None:
    sys.path[:0] = [str(code_dir), str(code_dir / "platform")]
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "meeple.settings")
    import django

    django.setup()


class Watcher(threading.Thread):
    """Samples how long the session ``pid`` has been inside its current transaction."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid, self.longest, self.stop = pid, 0.0, threading.Event()

    def run(self) -> None:
        import psycopg
        from django.conf import settings

        db = settings.DATABASES["default"]
        with psycopg.connect(
            host=db["HOST"],
            port=db["PORT"],
            user=db["USER"],
            password=db["PASSWORD"],
            dbname=db["NAME"],
            autocommit=True,
        ) as conn:
            while not self.stop.is_set():
                row = conn.execute(
                    "SELECT extract(epoch FROM now() - xact_start) FROM pg_stat_activity "
                    "WHERE pid = %s AND xact_start IS NOT NULL",
                    [self.pid],
                ).fetchone()
                if row and row[0] is not None:
                    self.longest = max(self.longest, float(row[0]))
                time.sleep(0.01)


def measure(slug: str | None) -> dict[str, float]:
    from catalog.models import Game
    from django.db import connection
    from ratings.services import recalculate

    games = Game.objects.filter(slug=slug) if slug else Game.objects.all()
    queries = 0

    def count(execute, sql, params, many, context):
        nonlocal queries
        queries += 1
        return execute(sql, params, many, context)

    connection.ensure_connection()
    watcher = Watcher(connection.connection.info.backend_pid)
    watcher.start()
    cpu, wall, rated = time.process_time(), time.perf_counter(), 0
    with connection.execute_wrapper(count):
        for game in games:
            rated += recalculate(game.pk)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    time.sleep(0.05)
    watcher.stop.set()
    watcher.join()
    return {
        "matches": rated,
        "cpu_s": cpu,
        "wall_s": wall,
        "queries": queries,
        "longest_transaction_s": watcher.longest,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", help="one game's slug (default: every game)")
    ap.add_argument("--code-dir", type=Path, default=Path(__file__).resolve().parents[1])
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    setup(args.code_dir.resolve())
    r = measure(args.game)
    if args.markdown:
        print("| rated matches | CPU | wall | queries | longest transaction |")
        print("|---:|---:|---:|---:|---:|")
        print(
            f"| {r['matches']:,} | {r['cpu_s']:.1f} s | {r['wall_s']:.1f} s | "
            f"{r['queries']:,} | {r['longest_transaction_s']:.2f} s |"
        )
    else:
        for k, v in r.items():
            print(f"{k:>22}: {v:,.3f}" if isinstance(v, float) else f"{k:>22}: {v:,}")


if __name__ == "__main__":
    main()
