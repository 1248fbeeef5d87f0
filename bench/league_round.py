"""One league round through the platform at league size: CPU, wall time and queries of
``run_league_round`` (planning, then matches, seats and links written), and of sending its
matches to the workers (``dispatch_matches``, the broker stubbed out).

Makes its own field in the database ``DATABASE_URL`` names (built-in copies of one two-seat
game's bot, a league whose season has played ``--before`` rounds of random results stored as
the standings rows), measures round ``--before + 1``, then deletes what it made.

    DATABASE_URL=postgres://... python bench/league_round.py [--bots 1000] [--before 39]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "platform"), str(ROOT / "bench")]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "meeple.settings")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from formats_speed import _random_history  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from arena.formats import new_standings  # noqa: E402
from games.rng import Rng  # noqa: E402

GAME = "manhattan-traffiq"


def make_league(bots: int, before: int) -> tuple[Any, list[Any]]:
    """A league of ``bots`` bots whose open season has played ``before`` rounds."""
    from bots.models import Bot, BotVersion, VersionStatus
    from bots.services import system_user
    from catalog.services import count_bots, sync_games
    from competitions.leagues.services import create_league, current_season
    from competitions.models import LeagueStanding

    game = next(g for g in sync_games() if g.slug == GAME)
    owner = system_user()
    tag = f"{time.time():.0f}"  # a run left half done does not clash with the next
    made = Bot.objects.bulk_create(
        [Bot(owner=owner, game=game, name=f"bench league {tag} #{i}") for i in range(bots)]
    )
    count_bots(game.pk, bots)  # as saving each bot would (deleting them counts them out)
    BotVersion.objects.bulk_create(
        [
            BotVersion(bot=b, number=1, builtin_name="greedy", status=VersionStatus.ACTIVE)
            for b in made
        ]
    )
    league = create_league(game=game, name="Bench league", rounds_per_season=before + 10)
    season = current_season(league)
    rows = new_standings([str(b.pk) for b in made])
    _random_history(rows, before, Rng(3))
    LeagueStanding.objects.bulk_create(
        [
            LeagueStanding(
                league=league, season=season, bot_id=int(k), row=r.to_json(), points=r.points
            )
            for k, r in rows.items()
        ]
    )
    league.rounds_played = season.rounds_played = before
    league.save(update_fields=["rounds_played"])
    season.save(update_fields=["rounds_played"])
    return league, made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", type=int, default=1000)
    parser.add_argument("--before", type=int, default=39, help="rounds already played")
    args = parser.parse_args()
    from bots.models import Bot
    from competitions.leagues.services import run_league_round
    from matches import services
    from matches.models import Match

    services._send = lambda *a: None  # no broker: only what the database is asked counts
    league, made = make_league(args.bots, args.before)
    try:
        with CaptureQueriesContext(connection) as q:
            cpu, wall = time.process_time(), time.perf_counter()
            matches = run_league_round(league, dispatch=False)
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        with CaptureQueriesContext(connection) as sq:
            send_cpu = time.process_time()
            services.dispatch_matches(matches)
            send_cpu = time.process_time() - send_cpu
    finally:
        Match.objects.filter(competition_link__league=league).delete()
        league.delete()
        Bot.objects.filter(pk__in=[b.pk for b in made]).delete()
    table = Table(title=f"League round {args.before + 1}, {args.bots} bots, two seats")
    for col in ("step", "matches", "queries", "CPU s", "wall s"):
        table.add_column(col, justify="left" if col == "step" else "right")
    table.add_row("plan + write", str(len(matches)), str(len(q)), f"{cpu:.3f}", f"{wall:.3f}")
    table.add_row("send", str(len(matches)), str(len(sq)), f"{send_cpu:.3f}", "")
    Console(width=120).print(table)


if __name__ == "__main__":
    main()
