"""Reading bots."""

from __future__ import annotations

from catalog.models import Game
from django.db.models import OuterRef, QuerySet, Subquery

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


def current_versions(game: Game) -> dict[int, BotVersion]:
    """The version each bot of ``game`` plays with now (its newest), by bot id, in two
    queries whatever the number of bots."""
    newest = BotVersion.objects.filter(bot=OuterRef("bot")).order_by("-number").values("pk")[:1]
    versions = (
        BotVersion.objects.filter(bot__game=game, pk=Subquery(newest))
        .select_related("bot__owner")
        .order_by("bot_id")
    )
    return {v.bot_id: v for v in versions}
