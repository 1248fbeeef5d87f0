"""``manage.py recalculate_ratings [--game SLUG]``: rebuild ratings from the match history
while matches keep being recorded.

The replay runs in memory and writes what differs in short transactions (``--batch`` rating
changes each); no rating is deleted first. A match recorded during the run is never lost: the
run marks where the history it reads ends, counts the matches recorded after that mark from
their stored changes, and in a last short transaction (the game's gate held, so that no
rating of the game commits meanwhile) replays them on top of its result before it installs
it. Matches recorded after that are rated from the installed ratings. The end state equals a
recalculation run alone afterwards. The design, step by step: ``ratings.recalculation`` and
docs/ratings.md, "Recalculating ratings".
"""

from __future__ import annotations

from typing import Any

from catalog.models import Game
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import OperationalError
from foundation import stamps

from ratings.recalculation import BATCH, AlreadyRunning, recalculate_game
from ratings.selectors import board_stamp_key


class Command(BaseCommand):
    help = (
        "Rebuild Elo and OpenSkill ratings from the finished, rated matches in the order they "
        "were rated, in short transactions while matches keep being recorded. The result "
        "equals what the live path produced."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", help="only this game's ratings (its slug)")
        parser.add_argument(
            "--batch",
            type=int,
            default=BATCH,
            help=f"rating changes replayed per transaction (default {BATCH})",
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        if opts["batch"] < 1:
            raise CommandError(f"--batch must be 1 or more, not {opts['batch']}")
        games = Game.objects.order_by("pk")
        if opts["game"]:
            games = games.filter(slug=opts["game"])
            if not games:
                known = ", ".join(Game.objects.values_list("slug", flat=True))
                raise CommandError(f"no game {opts['game']!r} (games: {known})")
        rated = 0
        for game in games:
            try:
                n = recalculate_game(game.pk, batch=opts["batch"], progress=self._progress)
            except AlreadyRunning:
                raise CommandError(
                    f"the ratings of {game.slug} are being recalculated by another run"
                ) from None
            except OperationalError as exc:  # a lock wait or the server gave up
                raise CommandError(
                    f"{game.slug}: the database refused a step ({str(exc).strip()}); the run "
                    "stopped part-way: run the command again (it starts over and completes)"
                ) from None
            stamps.bump(board_stamp_key(game.pk))
            rated += n
            if opts["verbosity"] >= 1:
                self.stdout.write(f"{game.slug}: {n} rated matches")
        self.stdout.write(self.style.SUCCESS(f"Recalculated ratings over {rated} rated matches."))

    def _progress(self, stage: str, done: int) -> None:
        if self.verbosity >= 2:
            self.stdout.write(f"  {stage}: {done}")

    def execute(self, *args: Any, **opts: Any) -> Any:
        self.verbosity = opts.get("verbosity", 1)
        return super().execute(*args, **opts)
