"""Queries and CPU per request of the pages issue 24 found growing with the site: the admin's
change pages, changelists and delete confirmations, the play chooser and "My bots".

Run ``bench/fill_scale.py`` first (same ``DATABASE_URL`` and ``ARENA_DATA_DIR``). Each page is
asked in-process with Django's test client, signed in as a superuser (the staff pages) or as
the owner of the measured bot (its "My bots"), warm; the CPU is this process's (user +
system) per request, the median of ``--runs``; the queries are the last run's. The ids come
from ``scale_targets.json`` and the database (the bot with the most matches, the author with
the most bots...).

    DATABASE_URL=postgres://... python bench/admin_pages.py [--runs 20] [--code-dir DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parents[1]


def setup_django(code_dir: Path) -> None:
    sys.path[:0] = [str(code_dir), str(code_dir / "platform")]
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "meeple.settings")
    os.environ.update({"THROTTLE_ANON": "1000000/min", "THROTTLE_USER": "1000000/min"})
    import django

    django.setup()


def pages(t: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(name, URL, who asks: "staff" or "owner") for every measured page."""
    from bots.models import Bot
    from django.contrib.auth import get_user_model
    from django.db.models import Count
    from ratings.models import Rating

    bot = t["bot"]
    author = (
        get_user_model()
        .objects.annotate(n=Count("bots"))
        .exclude(username="arena")
        .order_by("-n")
        .values_list("pk", flat=True)[0]
    )
    busiest = Bot.objects.filter(game__slug=t["league_game"], is_builtin=False).order_by("pk")[0].pk
    rating = Rating.objects.filter(bot_id=bot).values_list("pk", flat=True)[0]
    a = "/admin"
    return [
        ("admin: change a bot", f"{a}/bots/bot/{bot}/change/", "staff"),
        ("admin: change a tournament", f"{a}/competitions/tournament/{t['tournament']}/change/",
         "staff"),
        ("admin: change a rating", f"{a}/ratings/rating/{rating}/change/", "staff"),
        ("admin: delete a user with many bots", f"{a}/auth/user/{author}/delete/", "staff"),
        ("admin: delete a bot", f"{a}/bots/bot/{bot}/delete/", "staff"),
        ("admin: change a user", f"{a}/auth/user/{author}/change/", "staff"),
        ("admin: matches", f"{a}/matches/match/", "staff"),
        ("admin: bots", f"{a}/bots/bot/", "staff"),
        ("admin: ratings", f"{a}/ratings/rating/", "staff"),
        ("admin: versions", f"{a}/bots/botversion/", "staff"),
        ("admin: seats", f"{a}/matches/matchseat/", "staff"),
        ("admin: rating changes", f"{a}/ratings/ratingchange/", "staff"),
        ("play: new game ?game= (1,000-bot game)", f"/play/new/?game={t['league_game']}", "staff"),
        ("play: new game ?bot=", f"/play/new/?bot={busiest}", "staff"),
        ("my bots", "/bots/mine/", "owner"),
    ]  # fmt: skip


def measure(client: Any, url: str, runs: int) -> tuple[int, int, float]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.get(url)  # warm
    cpu = []
    for _ in range(runs):
        with CaptureQueriesContext(connection) as ctx:
            start = time.process_time()
            response = client.get(url)
            cpu.append(time.process_time() - start)
    return response.status_code, len(ctx.captured_queries), statistics.median(cpu) * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--code-dir", type=Path, default=HERE, help="measure another checkout")
    args = ap.parse_args()
    setup_django(args.code_dir.resolve())
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    settings.ALLOWED_HOSTS = ["*"]
    data_dir = Path(os.environ.get("ARENA_DATA_DIR") or HERE / "data")
    t = json.loads((data_dir / "scale_targets.json").read_text())
    users = get_user_model().objects
    staff, _ = users.get_or_create(username="bench-admin", defaults={"is_staff": True})
    users.filter(pk=staff.pk).update(is_staff=True, is_superuser=True)
    clients = {"staff": Client(), "owner": Client()}
    clients["staff"].force_login(users.get(pk=staff.pk))
    clients["owner"].force_login(users.get(username=t["owner"]))
    print(f"scale {t['scale']}, CPU median of {args.runs}, code {args.code_dir}")
    print("| path | status | queries | CPU ms |\n|---|---:|---:|---:|")
    for name, url, who in pages(t):
        status, queries, cpu = measure(clients[who], url, args.runs)
        print(f"| {name} | {status} | {queries:,} | {cpu:,.1f} |", flush=True)


if __name__ == "__main__":
    main()
