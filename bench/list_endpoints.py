"""CPU, queries and bytes of the list endpoints issue 24 named (the ladder API, the game page
with its held lists, the match API's filters, the API schema), in-process with Django's test
client: the median of ``--runs`` warm requests, server CPU only (``time.process_time``).

Run ``bench/fill_scale.py`` first (same ``DATABASE_URL`` and ``ARENA_DATA_DIR``).

    DATABASE_URL=postgres://... python bench/list_endpoints.py [--runs 20]
        [--code-dir DIR]   # measure another checkout (e.g. main's code) on the same data
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path


def setup(code_dir: Path) -> None:
    sys.path[:0] = [str(code_dir), str(code_dir / "platform")]
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "meeple.settings")
    os.environ.setdefault("THROTTLE_ANON", "100000/min")  # one client asks many times here
    import django

    django.setup()


def urls() -> dict[str, str]:
    from django.conf import settings

    targets = json.loads((Path(settings.DATA_DIR) / "scale_targets.json").read_text())
    game, tournament = targets["league_game"], targets["tournament"]
    return {
        "API ladder (the league's game)": f"/api/games/{game}/ladder/",
        "game page (cold drawn table)": f"/games/{game}/",
        "API matches ?tournament=": f"/api/matches/?tournament={tournament}",
        "API matches ?ordering=id": "/api/matches/?ordering=id",
        "API matches ?game=&status=": f"/api/matches/?game={game}&status=finished",
        "API matches ?owner=": f"/api/matches/?owner={targets['owner']}",
        "API schema": "/api/schema/",
    }


def measure(url: str, runs: int) -> tuple[float, int, int, int]:
    """(median CPU ms, queries, bytes, status) of ``url``."""
    from django.core.cache import cache
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client, cpu = Client(), []
    client.get(url)  # warm
    for _ in range(runs):
        if url.startswith("/games/"):
            cache.clear()  # the drawn ranking's cache: measure the page's own work
        start = time.process_time()
        response = client.get(url)
        cpu.append((time.process_time() - start) * 1000)
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    return (
        statistics.median(cpu),
        len(ctx.captured_queries),
        len(response.content),
        response.status_code,
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--code-dir", type=Path, default=Path(__file__).resolve().parents[1])
    args = ap.parse_args()
    setup(args.code_dir.resolve())
    print("| path | status | queries | bytes | CPU (median) |")
    print("|---|---:|---:|---:|---:|")
    for name, url in urls().items():
        cpu, queries, size, status = measure(url, args.runs)
        print(f"| {name} | {status} | {queries} | {size:,} | {cpu:.1f} ms |")


if __name__ == "__main__":
    main()
