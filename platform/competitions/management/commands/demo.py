"""``manage.py demo``: load the games, then play a short round robin of built-in bots for
every game with a progress bar, and print the standings. Safe to run again: each run adds a
new tournament and the ratings keep moving.

Each game's field is as big as lets the *whole* round robin fit in ``--matches``, so that every
bot plays as many matches as the others (a round robin cut short leaves some with fewer, or
none); the command says how many each played, and why a bigger field was left out."""

from __future__ import annotations

import logging
import zlib
from dataclasses import dataclass
from typing import Any

from bots.models import Bot, BotVersion
from bots.services import ensure_builtin_bots, system_user, upload_version
from catalog.models import Game
from catalog.services import sync_games
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db.models import Count, Max
from foundation.workers import background_workers
from ladder.qualification import sandbox_refusal
from matches.models import MatchSeat

from arena.formats import FormatOptions, total_matches
from arena.newbot import STARTER
from competitions.models import Tournament, TournamentFormat
from competitions.progress import console, follow_tournament, print_standings
from competitions.tournaments.services import create_tournament, start_tournament
from games.registry import slugs

DEFAULT_SERVE = "127.0.0.1:8000"

#: Each demo field holds at least this many bots: a round robin needs more entrants than
#: seats to be interesting, and most games ship only two built-ins.
MIN_ENTRANTS = 4


def demo_entrants(game: Game, players: int) -> list[BotVersion]:
    """The game's built-in bots, plus numbered copies ("greedy #2"...) owned by the system
    user until the field has ``max(MIN_ENTRANTS, players + 1)`` distinct bots."""
    builtins = ensure_builtin_bots(game)
    wanted = max(MIN_ENTRANTS, players + 1)
    bots = list(builtins)
    copy = 2
    while len(bots) < wanted:
        for base in builtins:
            if len(bots) >= wanted:
                break
            bot, created = Bot.objects.get_or_create(
                owner=system_user(),
                game=game,
                name=f"{base.name} #{copy}",
                defaults={
                    "is_builtin": True,
                    "description": f"A second entry of the built-in {base.name!r} bot, "
                    "so that demo tournaments have a full field.",
                },
            )
            if created:
                bot.versions.create(number=1, builtin_name=base.name)
            bots.append(bot)
        copy += 1
    return [v for b in bots if (v := b.latest_version()) is not None]


def round_robin_matches(entrants: int, players: int) -> int:
    """The whole demo round robin: every combination, ``players`` games each (seats rotated)."""
    opts = FormatOptions(players=players, games_per_table=players)
    return total_matches(TournamentFormat.ROUND_ROBIN, entrants, opts)


@dataclass(frozen=True)
class DemoField:
    entrants: list[BotVersion]
    left_out: int  # bots of the full field that did not fit in the budget
    wanted: int  # the full field


def demo_field(game: Game, players: int, budget: int, *, program_bot: bool) -> DemoField:
    """The demo's entrants for one game: the built-ins first, then the starter program bot
    (unless left out), then numbered copies; as many as let the whole round robin fit in
    ``budget`` matches. One full table (``players`` bots) always fits: every match seats all
    of them, so a cut leaves them even too."""
    bots = demo_entrants(game, players)
    if program_bot:
        bots.insert(len(ensure_builtin_bots(game)), starter_entrant(game))
    fits = [n for n in range(players, len(bots) + 1) if round_robin_matches(n, players) <= budget]
    size = max(fits, default=players)
    return DemoField(entrants=bots[:size], left_out=len(bots) - size, wanted=len(bots))


def field_note(t: Tournament, field: DemoField, players: int, budget: int) -> str:
    """One line under a demo tournament's table: how many matches each bot played, and why
    not more bots, or why not as many for each, when the budget decided it."""
    played = dict.fromkeys((v.pk for v in field.entrants), 0)
    seats = MatchSeat.objects.filter(match__competition_link__tournament=t)
    for row in seats.values("bot_version").annotate(n=Count("match", distinct=True)):
        played[row["bot_version"]] = row["n"]
    lo, hi = min(played.values()), max(played.values())
    whole = round_robin_matches(len(field.entrants), players)
    if lo == hi:
        note = f"Every bot played {lo} match{'es' if lo != 1 else ''}"
        note += (
            f": the whole round robin of {len(field.entrants)} bots."
            if whole <= budget
            else f" (one table of {players}; --matches {budget} cut its {whole} matches)."
        )
    else:
        note = (
            f"Bots played {lo} to {hi} matches: --matches {budget} cut the round robin of "
            f"{whole}; run with --matches {whole} for an even table."
        )
    if field.left_out:
        more = round_robin_matches(field.wanted, players)
        note += (
            f" {field.left_out} more bot{'s' if field.left_out != 1 else ''} would make it "
            f"{more} matches: run with --matches {more} to field all {field.wanted}."
        )
    return note


def starter_entrant(game: Game) -> BotVersion:
    """The starter bot that ``arena new-bot`` writes, uploaded as a program by the system
    user: it plays through the sandbox and the bot protocol like any upload."""
    bot, _ = Bot.objects.get_or_create(
        owner=system_user(),
        game=game,
        name="starter",
        defaults={
            "description": "The starter bot of `arena new-bot`, run as a program in the "
            "sandbox: it plays the first legal action."
        },
    )
    return bot.latest_version() or upload_version(
        bot=bot, filename="main.py", data=STARTER.read_bytes()
    )


def game_seed(seed: int, slug: str) -> int:
    """The seed of one game's demo tournament: the run's seed mixed with the game's slug, so
    that the tournaments of one run never share match seeds (CRC-32: stable across runs and
    processes, unlike ``hash``)."""
    return (seed * 1_000_003 + zlib.crc32(slug.encode())) % 2**31


def serve_address(value: str) -> tuple[str, str]:
    """``--serve``'s value as (runserver's address, the URL to open). Accepts what runserver
    does: ``PORT``, ``ADDR:PORT`` or ``[IPv6]:PORT``; all interfaces print the loopback URL."""
    addr, _, port = value.rpartition(":")
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise CommandError(f"--serve wants [ADDR:]PORT, e.g. 127.0.0.1:8001, not {value!r}")
    host = addr or "127.0.0.1"
    shown = {"0.0.0.0": "127.0.0.1", "[::]": "[::1]", "0": "127.0.0.1"}.get(host, host)
    return f"{host}:{port}", f"http://{shown}:{port}/"


def _ladder_note() -> None:
    """One line on the ladder, and on how to let strangers' uploads play here."""
    console.print(
        "Ladder: the worker's beat runs the matchmaker; an upload plays its qualification "
        "match, then its placement matches, on its own."
    )
    if sandbox_refusal():
        console.print(
            "[yellow]Uploads of users other than staff wait for a sandbox:[/yellow] start Docker "
            "(and run deploy/build-runtime-image.sh), or allow the process sandbox for your own "
            "local site with [bold]ARENA_ALLOW_UNSAFE_SANDBOX=true[/bold]."
        )


class Command(BaseCommand):
    help = (
        "Load the games and play a short round-robin tournament of built-in bots for "
        "each game, then print the standings and the site's URL. Add --serve [ADDR:]PORT "
        f"to serve the site afterwards (default {DEFAULT_SERVE})."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--games",
            nargs="+",
            metavar="SLUG",
            help=f"games to play (default: all of {', '.join(slugs())})",
        )
        parser.add_argument(
            "--matches",
            type=int,
            default=12,
            metavar="N",
            help="matches per game at most (default 12); each game's field is as big as lets "
            "the whole round robin fit, so that every bot plays as many matches",
        )
        parser.add_argument(
            "--players",
            type=int,
            default=None,
            metavar="N",
            help="seats per match (default: 2, within each game's range)",
        )
        parser.add_argument(
            "--seed", type=int, default=None, help="tournament seed (default: a new one per run)"
        )
        parser.add_argument(
            "--no-program-bot",
            action="store_true",
            help="leave out the starter bot that plays as a program in the sandbox",
        )
        parser.add_argument(
            "--serve",
            nargs="?",
            const=DEFAULT_SERVE,
            metavar="[ADDR:]PORT",
            help=f"then serve the site until Ctrl-C, on {DEFAULT_SERVE} or the given port, "
            "e.g. --serve 8001 or --serve 0.0.0.0:8001",
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        if opts["matches"] < 1:
            raise CommandError("--matches must be at least 1")
        served = serve_address(opts["serve"]) if opts["serve"] else None
        call_command("migrate", verbosity=0)
        # Matches are played by a worker process, as in production: with no broker service
        # configured, one is started here (and stopped when the demo ends).
        with background_workers() as worker_log:
            if worker_log:
                console.print(
                    f"[dim]A background worker plays the matches (log: {worker_log}).[/dim]"
                )
            self._run(opts, served)

    def _run(self, opts: dict[str, Any], served: tuple[str, str] | None) -> None:
        # Eager mode (CELERY_TASK_ALWAYS_EAGER) runs the tasks here; Celery's per-task INFO
        # lines would bury the bars.
        logging.getLogger("celery.app.trace").setLevel(logging.WARNING)
        games = {g.slug: g for g in sync_games()}
        chosen = opts["games"] or list(games)
        unknown = [s for s in chosen if s not in games]
        if unknown:
            raise CommandError(f"unknown game(s) {', '.join(unknown)} (known: {', '.join(games)})")
        runs = (Tournament.objects.aggregate(n=Max("pk"))["n"] or 0) + 1
        seed = opts["seed"] if opts["seed"] is not None else runs
        for slug in chosen:
            game = games[slug]
            players = game.clamp_players(opts["players"] or 2)
            budget = opts["matches"]
            field = demo_field(game, players, budget, program_bot=not opts["no_program_bot"])
            t = create_tournament(
                organiser=system_user(),
                game=game,
                name=f"Demo {game.name} #{runs}",
                entrants=field.entrants,
                players_per_match=players,
                games_per_pairing=players,
                seed=game_seed(seed, slug),
                max_matches=budget,
            )
            start_tournament(t)
            follow_tournament(t, label=f"{game.name} ({players} seats)")
            print_standings(t)
            console.print(field_note(t, field, players, budget))
        if served is not None:
            address, url = served
            console.print(
                f"\n[bold green]Done.[/bold green] Matches, replays and leaderboards: "
                f"[link]{url}[/link] (Ctrl-C stops the server)"
            )
            _ladder_note()
            call_command("runserver", address, use_reloader=False)
            return
        console.print(
            "\n[bold green]Done.[/bold green] See the matches, replays and leaderboards: run "
            "[bold]python manage.py serve[/bold] (or [bold]serve 8001[/bold] for another port: "
            "the site with the worker that plays its matches) and open "
            "[link]http://127.0.0.1:8000/[/link], or serve straight away next time with "
            "[bold]demo --serve [ADDR:]PORT[/bold]."
        )
