"""Reading bots."""

from __future__ import annotations

from collections.abc import Iterable

from catalog.models import Game
from django.db.models import OuterRef, Q, QuerySet, Subquery

from bots.models import Bot, BotVersion, VersionStatus


def listed(bots: QuerySet[Bot]) -> QuerySet[Bot]:
    """``bots`` without the stand-ins for people (``VersionStatus.PERSON``): what lists show."""
    return bots.exclude(versions__status=VersionStatus.PERSON)


def bots_for_game(game: Game) -> QuerySet[Bot]:
    return listed(Bot.objects.filter(game=game)).select_related("owner", "game")


def with_latest_number(bots: QuerySet[Bot]) -> QuerySet[Bot]:
    """``bots`` annotated with ``latest_number`` and ``latest_status``, the number and status
    of each one's newest version (None without one), in the same query."""
    newest = BotVersion.objects.filter(bot=OuterRef("pk")).order_by("-number")
    return bots.annotate(
        latest_number=Subquery(newest.values("number")[:1]),
        latest_status=Subquery(newest.values("status")[:1]),
    )


def latest_version_map(bots: QuerySet[Bot]) -> dict[int, BotVersion]:
    """Bot id -> its newest version, for every bot of ``bots`` that has one: one query."""
    newest = BotVersion.objects.filter(bot=OuterRef("bot_id")).order_by("-number").values("pk")
    rows = BotVersion.objects.filter(bot__in=bots, pk=Subquery(newest[:1])).select_related("bot")
    return {v.bot_id: v for v in rows}


def latest_versions(bots: QuerySet[Bot] | list[Bot]) -> list[BotVersion]:
    """The newest version of each bot that has one, in the bots' order."""
    bots = list(bots)
    found = latest_version_map(Bot.objects.filter(pk__in=[b.pk for b in bots]))
    return [found[b.pk] for b in bots if b.pk in found]


def current_versions(game: Game) -> dict[int, BotVersion]:
    """The version each bot of ``game`` plays with now (``playing_versions``: pinned while
    active, else its newest active one; bots with no qualified version are left out), by bot
    id, in three queries whatever the number of bots."""
    ids = Bot.objects.filter(game=game).order_by().values_list("pk", flat=True)
    return playing_versions(ids, related=("bot__owner",))


def playing_versions(
    bot_ids: Iterable[int], *, related: tuple[str, ...] = ("bot",)
) -> dict[int, BotVersion]:
    """For each bot, the version it plays with (its pinned version while active, else its
    newest active one; never a held one); bots with none are left out. Two queries whatever
    the number of bots."""
    ids = list(bot_ids)
    if not ids:
        return {}
    active = BotVersion.objects.filter(
        bot_id__in=ids, status=VersionStatus.ACTIVE, held_at__isnull=True
    )
    pinned = dict(
        Bot.objects.filter(pk__in=ids, pinned_version__isnull=False)
        .order_by()
        .values_list("pk", "pinned_version_id")
    )
    newest: dict[int, BotVersion] = {}
    chosen: dict[int, BotVersion] = {}
    for v in active.select_related(*related).order_by("bot_id", "-number"):
        newest.setdefault(v.bot_id, v)
        if pinned.get(v.bot_id) == v.pk:
            chosen[v.bot_id] = v
    return {**newest, **chosen}


def bots_search(*, query: str = "", game: str = "", owner: str = "") -> QuerySet[Bot]:
    """Bots by name or description words, narrowed by game slug and owner's username."""
    qs = listed(Bot.objects.select_related("owner", "game")).order_by("game__name", "name", "pk")
    if query:
        qs = qs.filter(Q(name__icontains=query) | Q(description__icontains=query))
    if game:
        qs = qs.filter(game__slug=game)
    if owner:
        qs = qs.filter(owner__username=owner)
    return qs
