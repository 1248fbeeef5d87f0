"""``manage.py load_games``: sync the registry's games and their built-in bots."""

from __future__ import annotations

from typing import Any

from catalog.services import sync_games
from django.core.management.base import BaseCommand

from bots.services import ensure_builtin_bots


class Command(BaseCommand):
    help = (
        "Copy every registered game into the database and give the system user 'arena' "
        "one bot per built-in bot of each game. Safe to run again."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        for game in sync_games():
            bots = ensure_builtin_bots(game)
            self.stdout.write(
                f"{game.slug}: {game.name}, {game.players_label} players, "
                f"built-in bots: {', '.join(b.name for b in bots)}"
            )
