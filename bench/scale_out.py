"""Matches per second through the whole platform path with 1, 2, ... worker processes:
``DATABASE_URL=postgres://... python bench/scale_out.py [--matches 200] [--workers 1,2]``.

Each row: a fresh redis-server of its own (on a free port), N ``celery -A meeple worker
--pool=solo`` processes (each plays one match at a time, as a prefork child does), M rated
matches of built-in bots created and dispatched by this process, every one claimed, played and
recorded (seats, replay, ratings) by the workers in PostgreSQL. The rate is M divided by the
time from the first match started to the last one recorded (the database's own timestamps), so
Django's and the workers' start-up are not counted. Uses (and migrates) the database named by
DATABASE_URL: give it a database of its own.
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait(what: str, check, timeout: float) -> None:  # type: ignore[no-untyped-def]
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if check():
            return
        time.sleep(0.1)
    raise SystemExit(f"timed out waiting for {what}")


def start_redis(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    import redis

    port = free_port()
    proc = subprocess.Popen(
        [
            "redis-server",
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(folder),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )

    def up() -> bool:
        try:
            return bool(redis.Redis(port=port, socket_connect_timeout=1).ping())
        except Exception:
            return False

    wait("redis-server", up, 30)
    return proc, f"redis://127.0.0.1:{port}/0"


def start_workers(n: int, broker: str, folder: Path) -> list[subprocess.Popen[bytes]]:
    procs = []
    for i in range(n):
        home = folder / f"worker{i}"
        home.mkdir()
        env = dict(os.environ)
        env.update(
            PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "platform")]),
            CELERY_BROKER_URL=broker,
            CELERY_RESULT_BACKEND="",
            ARENA_DATA_DIR=str(home),
            ARENA_SANDBOX="process",
        )
        log = open(home / "worker.log", "wb")  # noqa: SIM115  closed with the process
        procs.append(
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "celery",
                    "-A",
                    "meeple",
                    "worker",
                    "--pool=solo",
                    "--loglevel=INFO",
                    "--without-heartbeat",
                    "--without-gossip",
                    "--without-mingle",
                    "-n",
                    f"bench{i}@%h",
                ],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        )
        wait(f"worker {i}", lambda h=home: b" ready." in (h / "worker.log").read_bytes(), 90)
    return procs


def run_row(n_workers: int, n_matches: int, game_slug: str, folder: Path) -> dict[str, float]:
    from bots.services import ensure_builtin_bots
    from catalog.models import Game
    from django.db.models import Max, Min
    from matches.models import Match
    from matches.services import create_match, dispatch_match

    from arena.celery_app import app

    redis_proc, broker = start_redis(folder)
    workers = start_workers(n_workers, broker, folder)
    try:
        # Celery prefers the environment variable to its configuration.
        os.environ["CELERY_BROKER_URL"] = broker
        app.conf.update(broker_url=broker, result_backend=None, task_always_eager=False)
        app._pool = None
        app.amqp._producer_pool = None
        game = Game.objects.get(slug=game_slug)
        versions = [b.latest_version() for b in ensure_builtin_bots(game)][:2]
        matches = [create_match(game=game, versions=versions, seed=i) for i in range(n_matches)]
        ids = [m.pk for m in matches]
        for m in matches:
            dispatch_match(m)
        done = Match.objects.filter(pk__in=ids, status__in=["finished", "error"])
        wait("the matches", lambda: done.count() == n_matches, 60 + n_matches * 5)
        span = Match.objects.filter(pk__in=ids).aggregate(a=Min("started_at"), b=Max("finished_at"))
        seconds = (span["b"] - span["a"]).total_seconds()
        errors = Match.objects.filter(pk__in=ids, status="error").count()
        by_worker = sorted(Match.objects.filter(pk__in=ids).values_list("worker", flat=True))
        split = [by_worker.count(w) for w in sorted(set(by_worker))]
        return {
            "seconds": seconds,
            "rate": n_matches / seconds,
            "errors": errors,
            "split": "/".join(map(str, split)),  # type: ignore[dict-item]
            "load": os.getloadavg()[0],
        }
    finally:
        for p in workers:
            p.terminate()
        for p in workers:
            p.wait(timeout=30)
        redis_proc.kill()
        redis_proc.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--workers", default="1,2")
    parser.add_argument("--game", default="tri-area")
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        raise SystemExit("set DATABASE_URL to a PostgreSQL database of its own (it is migrated)")
    if not shutil.which("redis-server"):
        raise SystemExit("redis-server is not installed")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "meeple.settings")
    os.environ["CELERY_BROKER_URL"] = "redis://127.0.0.1:1/0"  # replaced per row
    import django

    django.setup()
    import matches.tasks  # noqa: F401  configures the Celery app from the settings now
    import meeple.celery  # noqa: F401
    from catalog.services import sync_games
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    sync_games()

    rows = []
    for n in [int(x) for x in args.workers.split(",")]:
        with tempfile.TemporaryDirectory(prefix="scale-out-") as tmp:
            rows.append((n, run_row(n, args.matches, args.game, Path(tmp))))
    base = rows[0][1]["rate"] / rows[0][0]
    print(f"{args.matches} matches of {args.game}, built-in bots, {os.cpu_count()} cores\n")
    print(
        "| worker processes | matches/s | per worker | speed-up | efficiency | split | errors "
        "| load (1 min) |"
    )
    print("|---:|---:|---:|---:|---:|---|---:|---:|")
    for n, r in rows:
        speed = r["rate"] / rows[0][1]["rate"]
        print(
            f"| {n} | {r['rate']:.1f} | {r['rate'] / n:.1f} | {speed:.2f}x | "
            f"{r['rate'] / (n * base):.0%} | {r['split']} | {r['errors']:.0f} | "
            f"{r['load']:.1f} |"
        )
    last_n, last = rows[-1]
    eff = last["rate"] / (last_n * base)
    print(
        f"\nR(N) ~= N x {base:.1f} x E matches/s for N worker processes up to the cores of a "
        f"host (E = {eff:.0%} measured at N = {last_n}); beyond that add hosts: "
        f"R ~= hosts x min(N, cores) x {base:.1f} x E, until the database's recording rate."
    )


if __name__ == "__main__":
    main()
