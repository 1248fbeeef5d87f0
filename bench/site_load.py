"""Every page and API endpoint of the site at scale: p50/p95 with 1 and 8 concurrent clients,
queries per request and bytes on the wire, against the goal (p95 under 50 ms, query counts
that do not grow with the rows stored).

Run ``bench/fill_scale.py`` first (same ``DATABASE_URL`` and ``ARENA_DATA_DIR``). This script
collects the static files, starts gunicorn on 127.0.0.1 with ``DEBUG=false`` (with
``deploy/gunicorn.conf.py`` when the code has one), sends bounded request loops to it from
threads (each with its own keep-alive connection, ``Accept-Encoding: gzip`` like a browser),
and counts each endpoint's queries and server CPU (median of 20 warm requests, as an anonymous
visitor: kept pages answer them, ``foundation.page_cache``) in-process with Django's test
client on the same database; ``PAGE_CACHE_SECONDS=0`` measures the pages drawn every time.
"Play a round now" on the league runs once, in-process, by its organiser (with
``CELERY_BROKER_URL`` set, matches are only queued: no worker runs them).

    DATABASE_URL=postgres://... python bench/site_load.py [--requests 40] [--markdown]
        [--code-dir DIR]   # measure another checkout (e.g. main's code) on the same data
"""

from __future__ import annotations

import argparse
import base64
import http.client
import json
import os
import signal
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

HERE = Path(__file__).resolve().parents[1]
GOAL_MS = 50.0


@dataclass
class Result:
    name: str
    url: str
    queries: int | None = None
    cpu_ms: float | None = None  # in-process, warm, median of CPU_RUNS (this process's CPU)
    wire_bytes: int = 0
    status: int = 0
    runs: dict[int, list[float]] = field(default_factory=dict)  # clients -> latencies (ms)
    seconds: dict[int, float] = field(default_factory=dict)

    def pct(self, clients: int, q: float) -> float | None:
        xs = sorted(self.runs.get(clients) or [])
        if not xs:
            return None
        return xs[min(len(xs) - 1, round(q * (len(xs) - 1)))]

    def rps(self, clients: int) -> float | None:
        n, s = len(self.runs.get(clients) or []), self.seconds.get(clients)
        return n / s if n and s else None


def targets(data_dir: Path) -> dict[str, Any]:
    path = data_dir / "scale_targets.json"
    if not path.exists():
        raise SystemExit(f"{path} is missing: run bench/fill_scale.py first")
    return json.loads(path.read_text())


#: Thousands of requests a minute from one address, in gunicorn and in this process (they
#: share the cache that counts them): measure the pages, not the API throttle.
NO_THROTTLE = {"THROTTLE_ANON": "1000000/min", "THROTTLE_USER": "1000000/min"}


def setup_django(code_dir: Path) -> None:
    sys.path[:0] = [str(code_dir), str(code_dir / "platform")]
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "meeple.settings")
    os.environ.update(NO_THROTTLE)
    import django

    django.setup()


def drf_cursor(position: int) -> str:
    """A DRF CursorPagination cursor pointing just past ``position`` (ordering ``-id``)."""
    return base64.b64encode(urlencode({"p": str(position)}).encode()).decode()


def endpoints(t: dict[str, Any]) -> list[tuple[str, str]]:
    """(name, URL) of every page and endpoint the issue measures."""
    from matches.models import Match

    slug, deep = t["game"], t["deep_match"]
    game_matches = Match.objects.filter(game__slug=slug)
    newer = game_matches.filter(pk__gt=deep).count()
    keyset = "cursor" in (_api_matches_next() or "")
    if keyset:
        deep_page = f"/matches/?game={slug}&before={deep}"
        deep_api = f"/api/matches/?cursor={drf_cursor(deep)}"
    else:
        deep_page = f"/matches/?game={slug}&page={newer // 25 + 1}"
        deep_api = f"/api/matches/?page={Match.objects.filter(pk__gt=deep).count() // 50 + 1}"
    longest, typical = t["longest_match"], t["typical_match"]
    total = _decisions(longest)
    return [
        ("home", "/"),
        ("games list", "/games/"),
        ("leaderboard page", f"/games/{slug}/"),
        ("leaderboard, find a bot", f"/games/{slug}/?bot={t['bot']}"),
        ("API leaderboard", f"/api/games/{slug}/leaderboard/"),
        ("bot page", f"/bots/{t['bot']}/"),
        ("API bots list", "/api/bots/"),
        ("match list", "/matches/"),
        ("match list ?game= deep", deep_page),
        ("API matches", "/api/matches/"),
        ("API matches deep", deep_api),
        ("match page (typical)", f"/matches/{typical}/"),
        ("match page (longest)", f"/matches/{longest}/"),
        ("step (typical, 3)", f"/matches/{typical}/steps/3.json"),
        ("step (longest, middle)", f"/matches/{longest}/steps/{total // 2}.json"),
        ("step (longest, last)", f"/matches/{longest}/steps/{total}.json"),
        ("API replay (typical)", f"/api/matches/{typical}/replay/"),
        ("API replay (longest)", f"/api/matches/{longest}/replay/"),
        ("tournament page", f"/tournaments/{t['tournament']}/"),
        ("API tournament", f"/api/tournaments/{t['tournament']}/"),
        ("league page", f"/tournaments/leagues/{t['league']}/"),
    ]


def _api_matches_next() -> str | None:
    from django.test import Client

    r = Client().get("/api/matches/")
    return r.json().get("next") if r.status_code == 200 else None


def _decisions(match_id: int) -> int:
    from django.test import Client

    r = Client().get(f"/matches/{match_id}/steps/0.json")
    return int(r.json().get("total", 0)) if r.status_code == 200 else 0


#: Warm requests per endpoint whose CPU is measured in-process (the median is reported).
CPU_RUNS = 20


def count_queries(results: list[Result]) -> None:
    """Each endpoint's queries and server CPU per request (median of ``CPU_RUNS``), asked
    in-process by an anonymous client after one request that warms the caches as the
    server's would be (kept pages included: ``foundation.page_cache``)."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client()
    for r in results:
        client.get(r.url)
        with CaptureQueriesContext(connection) as ctx:
            resp = client.get(r.url)
        r.queries, r.status = len(ctx.captured_queries), resp.status_code
        cpu = []
        for _ in range(CPU_RUNS):  # compressed, as the load's clients ask
            start = time.process_time()
            client.get(r.url, HTTP_ACCEPT_ENCODING="gzip")
            cpu.append((time.process_time() - start) * 1000)
        r.cpu_ms = statistics.median(cpu)


def cold_steps(results: list[Result]) -> str:
    """The first view of each measured step (nothing cached), in-process: what the server
    pays once per step before the cache answers."""
    from django.core.cache import cache
    from django.test import Client

    client, out = Client(), []
    for r in results:
        if "/steps/" not in r.url:
            continue
        cache.clear()
        t0 = time.perf_counter()
        client.get(r.url)
        out.append(f"{r.name} {1000 * (time.perf_counter() - t0):.0f} ms")
    return "first views of steps (in-process, cache empty): " + ", ".join(out)


def play_round_now(t: dict[str, Any]) -> tuple[float, int, int]:
    """Seconds, queries and status of "play a round now" on the league, as its organiser."""
    from competitions.models import League
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    user, _ = get_user_model().objects.get_or_create(
        username="scale-organiser", defaults={"is_staff": True}
    )
    client = Client()
    client.force_login(user)
    lg = League.objects.get(pk=t["league"])
    with CaptureQueriesContext(connection) as ctx:
        t0 = time.perf_counter()
        resp = client.post(f"/tournaments/leagues/{lg.pk}/play/")
        seconds = time.perf_counter() - t0
    return seconds, len(ctx.captured_queries), resp.status_code


# ----------------------------------------------------------------------------- the server


def start_gunicorn(code_dir: Path, port: int, workers: int) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "DEBUG": "false",
        "SECRET_KEY": os.environ.get("SECRET_KEY", "bench-" + "x" * 50),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_COOKIES": "false",
        "SECURE_SSL_REDIRECT": "false",  # plain HTTP on 127.0.0.1
        **NO_THROTTLE,
        "PYTHONPATH": f"{code_dir}:{code_dir / 'platform'}",
        "WEB_CONCURRENCY": str(workers),
    }
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=code_dir,
        env=env,
        check=True,
    )
    gunicorn = Path(sys.executable).with_name("gunicorn")
    cmd = [str(gunicorn), "--bind", f"127.0.0.1:{port}", "--workers", str(workers)]
    conf = code_dir / "deploy" / "gunicorn.conf.py"
    if conf.exists():
        cmd += ["-c", str(conf)]
    cmd += ["--access-logfile", "/dev/null", "meeple.wsgi:application"]
    proc = subprocess.Popen(cmd, cwd=code_dir, env=env, start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            c.request("GET", "/healthz")
            if c.getresponse().status == 200:
                return proc
        except OSError:
            pass
        time.sleep(0.3)
    stop(proc)
    raise SystemExit("gunicorn did not answer within 60 s")


def stop(proc: subprocess.Popen[bytes]) -> None:
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)


def load(port: int, r: Result, clients: int, requests: int, max_seconds: float) -> None:
    """``requests`` GETs of ``r.url`` shared by ``clients`` threads; stops after
    ``max_seconds`` in any case (a page of 20 s must not hold the run for an hour)."""
    latencies: list[float] = []
    lock = threading.Lock()
    left = [requests]
    deadline = time.monotonic() + max_seconds

    def worker() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        while True:
            with lock:
                if left[0] <= 0 or time.monotonic() > deadline:
                    return
                left[0] -= 1
            t0 = time.perf_counter()
            try:
                conn.request("GET", r.url, headers={"Accept-Encoding": "gzip"})
                resp = conn.getresponse()
                body, status = resp.read(), resp.status
            except (OSError, http.client.HTTPException):
                # The worker was killed (gunicorn's timeout) or the server hung up.
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
                body, status = b"", 599
            ms = 1000 * (time.perf_counter() - t0)
            with lock:
                latencies.append(ms)
                r.wire_bytes, r.status = len(body), max(r.status, status)

    threads = [threading.Thread(target=worker) for _ in range(clients)]
    t0 = time.perf_counter()
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    r.runs[clients], r.seconds[clients] = latencies, time.perf_counter() - t0


# ------------------------------------------------------------------------------- printing


def _ms(x: float | None) -> str:
    if x is None:
        return "-"
    return f"{x:.0f}" if x >= 100 else f"{x:.1f}"


def print_table(results: list[Result], clients: list[int], markdown: bool, extra: str) -> None:
    head = ["endpoint", "status", "queries", "CPU ms", "KB"]
    for c in clients:
        head += [f"p50 ms ({c})", f"p95 ms ({c})"]
    head += [f"req/s ({clients[-1]})", f"p95 < {GOAL_MS:.0f} ms"]
    rows = []
    for r in results:
        row = [r.name, str(r.status), str(r.queries), _ms(r.cpu_ms), f"{r.wire_bytes / 1024:.1f}"]
        for c in clients:
            row += [_ms(r.pct(c, 0.5)), _ms(r.pct(c, 0.95))]
        rps = r.rps(clients[-1])
        worst = max((r.pct(c, 0.95) or 0) for c in clients)
        row += [f"{rps:.0f}" if rps else "-", "yes" if worst < GOAL_MS else "NO"]
        rows.append(row)
    if markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "|".join("---" if i == 0 else "---:" for i in range(len(head))) + "|")
        for row in rows:
            print("| " + " | ".join(row) + " |")
    else:
        from rich.console import Console
        from rich.table import Table

        table = Table(*head)
        for row in rows:
            table.add_row(*row)
        Console().print(table)
    print(extra)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=40, help="requests per endpoint and level")
    ap.add_argument("--clients", default="1,8", help="concurrency levels")
    ap.add_argument("--max-seconds", type=float, default=20.0, help="per endpoint and level")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--port", type=int, default=8765)
    ap.add_argument("--code-dir", type=Path, default=HERE)
    ap.add_argument("--only", default="", help="comma-separated endpoint name prefixes")
    ap.add_argument("--no-round", action="store_true", help="skip 'play a round now'")
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    code_dir = args.code_dir.resolve()
    setup_django(code_dir)
    from django.conf import settings
    from django.db import connection

    if connection.vendor != "postgresql":
        raise SystemExit("site_load measures PostgreSQL: set DATABASE_URL=postgres://...")
    t = targets(Path(settings.DATA_DIR))
    results = [Result(name, url) for name, url in endpoints(t)]
    if args.only:
        wanted = tuple(args.only.split(","))
        results = [r for r in results if r.name.startswith(wanted)]
    count_queries(results)
    clients = [int(c) for c in args.clients.split(",")]
    proc = start_gunicorn(code_dir, args.port, args.workers)
    try:
        for r in results:
            for _ in range(args.workers):  # warm this endpoint in each worker
                load(args.port, r, 1, 1, 60)
            r.status = 0
            for c in clients:
                n = args.requests if c == 1 else args.requests * 2
                load(args.port, r, c, n, args.max_seconds)
            p95 = ", ".join(_ms(r.pct(c, 0.95)) for c in clients)
            print(f"{r.name}: p95 {p95} ms, status {r.status}", file=sys.stderr, flush=True)
    finally:
        stop(proc)
    extra = cold_steps(results)
    if not args.no_round:
        seconds, queries, status = play_round_now(t)
        extra += "\n" + (
            f"play a round now (league {t['league']}, in-process): {seconds * 1000:.0f} ms, "
            f"{queries} queries, status {status}"
        )
    print(f"scale {t['scale']}, code {code_dir}, {args.workers} gunicorn workers")
    print_table(results, clients, args.markdown, extra)


if __name__ == "__main__":
    main()
