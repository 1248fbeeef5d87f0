"""Reading bots."""

from __future__ import annotations

from catalog.models import Game
from django.db.models import QuerySet

from bots.models import Bot, BotVersion


def bots_for_game(game: Game) -> QuerySet[Bot]:
    return Bot.objects.filter(game=game).select_related("owner", "game")


def latest_versions(bots: QuerySet[Bot] | list[Bot]) -> list[BotVersion]:
    """The newest version of each bot that has one, in the bots' order."""
    out = []
    for bot in bots:
        v = bot.latest_version()
        if v is not None:
            out.append(v)
    return out


def versions_of(bot: Bot) -> QuerySet[BotVersion]:
    return bot.versions.order_by("-number")
