"""Fill a PostgreSQL database with a site at real scale, fast (PostgreSQL ``COPY``).

At ``--scale 1``: 1,000 users, ~4,000 bots, ~7,000 versions, 100,000 finished matches with
~300,000 seats and real replays (copied from matches the built-in bots play at the start of
the run, short and long ones for every game and player count), a tournament of 2,000 matches
and a league of 20,000 matches (the game with ~1,000 bots, so "play a round now" schedules
~500 matches). ``--scale 0.1`` makes a tenth of everything. Rows go in with psycopg 3's
``cursor.copy`` (row by row through the ORM took 18 minutes); derived data (the games'
counters, ratings, stored standings, when the code has them) is then rebuilt by the same
functions that the tests compare against a recomputation.

    DATABASE_URL=postgres://... python bench/fill_scale.py [--scale 1] [--seed 1] [--fresh]

Writes the ids that ``bench/site_load.py`` measures to ``$ARENA_DATA_DIR/scale_targets.json``.
The phases live in ``bench/scale_fill/``, one module each.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "meeple.settings")

import django  # noqa: E402

django.setup()

from django.apps import apps  # noqa: E402
from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from rich.console import Console  # noqa: E402
from scale_fill import BOTS, MATCHES, USERS  # noqa: E402
from scale_fill.competitions import Competitions, build_tables, create_competitions  # noqa: E402
from scale_fill.copying import model, reset_sequences  # noqa: E402
from scale_fill.history import History, copy_history, draw_matches  # noqa: E402
from scale_fill.people import People, add_people  # noqa: E402
from scale_fill.ratings import add_ratings  # noqa: E402
from scale_fill.replays import longest_match, play_demo_replays  # noqa: E402

console = Console()


def fill(scale: float, seed: int) -> dict[str, Any]:
    """Every phase in turn (each draws from one seeded ``rng``, in this order); returns the
    targets ``site_load.py`` measures."""
    from bots.services import ensure_builtin_bots
    from catalog.models import Game
    from catalog.services import sync_games

    rng = random.Random(seed)
    t0 = time.perf_counter()
    sync_games()
    games = list(Game.objects.filter(is_active=True).order_by("pk"))
    for g in games:
        ensure_builtin_bots(g)
    pool = play_demo_replays(rng)
    console.print(
        f"demo replays: {sum(map(len, pool.values()))} in {time.perf_counter() - t0:.1f} s"
    )
    n_users, n_bots = max(10, int(USERS * scale)), max(40, int(BOTS * scale))
    n_matches = max(200, int(MATCHES * scale))
    t, now = time.perf_counter(), datetime.now(UTC)
    people = add_people(games, n_users, n_bots, rng)
    console.print(
        f"{n_users} users, {n_bots} bots, {len(people.versions)} versions: "
        f"{time.perf_counter() - t:.1f} s"
    )
    comps = create_competitions(games, people, scale, now)
    t = time.perf_counter()
    history = draw_matches(games, people, comps, pool, n_matches, rng)
    copy_history(history)
    comps.copy_links(history.matches)
    console.print(
        f"{len(history.matches)} matches, {len(history.seats)} seats: "
        f"{time.perf_counter() - t:.1f} s"
    )
    Rating = add_ratings(people, history.played, now, rng)
    comps.finish()
    reset_sequences(
        "auth.User",
        "bots.Bot",
        "bots.BotVersion",
        "matches.Match",
        "matches.MatchSeat",
        Rating._meta.label,
    )
    with connection.cursor() as cur:
        cur.execute("ANALYZE")
    rebuild_derived()
    console.print(f"total {time.perf_counter() - t0:.1f} s")
    return targets(scale, people, comps, history)


def targets(scale: float, people: People, comps: Competitions, history: History) -> dict[str, Any]:
    """The pages ``site_load.py`` asks for: the competitions, a bot of the league's game
    (and its owner), the longest replay, a typical match and one deep in the history."""
    User, Bot = apps.get_model("auth.User"), apps.get_model("bots.Bot")
    league_bots = people.by_game[comps.l_game.pk]
    bot = league_bots[len(league_bots) // 2]
    first, n = history.first_match, len(history.matches)
    return {
        "scale": scale,
        "tournament": comps.tournament.pk,
        "league": comps.league.pk,
        "league_game": comps.l_game.slug,
        "game": comps.l_game.slug,
        "bot": bot,
        "owner": User.objects.get(pk=Bot.objects.get(pk=bot).owner_id).username,
        "longest_match": longest_match(),
        "typical_match": first + n // 2,
        "deep_match": first + n // 20,
    }


def rebuild_derived() -> None:
    """Counters (by the site's own recount) and the tournament's and league's stored tables
    (computed here from the matches with ``arena.ratings`` and ``arena.formats``, as the
    recording path would have left them)."""
    try:
        from matches.services import recount_game_counters
    except ImportError:
        pass
    else:
        recount_game_counters()
    if model("competitions.TournamentEntry") is not None:
        build_tables()


def parse_args() -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--fresh", action="store_true", help="flush the database first")
    return ap.parse_args()


def main() -> None:
    args = parse_args()
    if connection.vendor != "postgresql":
        raise SystemExit("fill_scale needs PostgreSQL: set DATABASE_URL=postgres://...")
    call_command("migrate", verbosity=0)
    if args.fresh:
        call_command("flush", interactive=False, verbosity=0)
    targets = fill(args.scale, args.seed)
    out = Path(settings.DATA_DIR) / "scale_targets.json"
    out.write_text(json.dumps(targets, indent=1))
    console.print(f"targets in {out}: {targets}")


if __name__ == "__main__":
    main()
