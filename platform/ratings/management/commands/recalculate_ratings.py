"""``manage.py recalculate_ratings [--game SLUG]``: rebuild ratings from the match history."""

from __future__ import annotations

from typing import Any

from catalog.models import Game
from django.core.management.base import BaseCommand, CommandError, CommandParser
from foundation import stamps
from foundation.database import without_statement_timeout

from ratings.selectors import board_stamp_key
from ratings.services import recalculate


class Command(BaseCommand):
    help = (
        "Rebuild Elo and OpenSkill ratings from the finished, rated matches in the order they "
        "were rated. The result equals what the live path produced."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", help="only this game's ratings (its slug)")

    def handle(self, *args: Any, **opts: Any) -> None:
        game_id = None
        if opts["game"]:
            game = Game.objects.filter(slug=opts["game"]).first()
            if game is None:
                known = ", ".join(Game.objects.values_list("slug", flat=True))
                raise CommandError(f"no game {opts['game']!r} (games: {known})")
            game_id = game.pk
        with without_statement_timeout():  # one long transaction over the whole history
            rated = recalculate(game_id)
        for pk in [game_id] if game_id else Game.objects.values_list("pk", flat=True):
            stamps.bump(board_stamp_key(pk))
        self.stdout.write(self.style.SUCCESS(f"Recalculated ratings over {rated} rated matches."))
