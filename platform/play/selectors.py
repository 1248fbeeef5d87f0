"""Reading people's matches."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bots.models import Bot, BotVersion
from bots.selectors import bots_for_game, latest_version_map, latest_versions
from catalog.models import Game
from django.contrib.auth.models import User
from django.db.models import F, OuterRef, Q, QuerySet, Subquery
from matches.models import Match
from ratings.models import Rating

from play.models import PlaySeat

#: Bots the chooser lists in each seat (the best rated, or those a search finds), besides the
#: built-ins, the user's own bots and the bot whose page the user came from.
CHOOSER_SIZE = 30


def opponents(
    game: Game,
    *,
    user: Any = None,
    bot: Bot | None = None,
    search: str = "",
    limit: int = CHOOSER_SIZE,
) -> list[BotVersion]:
    """The bots a person may sit down with, as the chooser offers them (newest version, never
    the stand-in for people): the bot they came from, the built-ins, their own bots, then the
    ``limit`` best rated of the game, or those whose name or owner holds ``search``. Bounded
    whatever the game holds, in three queries; each version carries its bot and owner."""
    pool = bots_for_game(game)
    rating = Rating.objects.filter(bot=OuterRef("pk"), game=game).values("ordinal")[:1]
    ranked = pool.annotate(skill=Subquery(rating)).order_by(
        F("skill").desc(nulls_last=True), "name", "pk"
    )
    if search:
        ranked = ranked.filter(Q(name__icontains=search) | Q(owner__username__icontains=search))
    near = Q(is_builtin=True) | Q(pk=bot.pk if bot else None)
    if getattr(user, "is_authenticated", False):
        near |= Q(owner=user)
    first = list(pool.filter(near).order_by("-is_builtin", "name", "pk")[:limit])
    shown = {b.pk: b for b in [*first, *ranked[:limit]]}
    versions = latest_versions(list(shown.values()))
    for v in versions:
        v.bot = shown[v.bot_id]
    return versions


def seat_versions(game: Game, ids: Iterable[str]) -> dict[str, BotVersion]:
    """The versions posted for the seats, by id as posted, among those a person may sit down
    with (the newest version of a listed bot of ``game``): one query for all the seats."""
    wanted = {int(i) for i in ids if i.isascii() and i.isdigit() and len(i) < 19}
    if not wanted:
        return {}
    bots = bots_for_game(game).filter(versions__pk__in=wanted)
    found = latest_version_map(bots)
    return {str(v.pk): v for v in found.values() if v.pk in wanted}


def my_seats(user: User, limit: int = 50) -> QuerySet[PlaySeat]:
    """The user's seats in people's matches, newest first (one page; the list is bounded)."""
    return (
        PlaySeat.objects.filter(user=user)
        .select_related("match__game")
        .order_by("-created_at", "seat")[:limit]
    )


def seat_for(match_id: int, seat: int) -> PlaySeat | None:
    return (
        PlaySeat.objects.filter(match_id=match_id, seat=seat)
        .select_related("match__game", "user")
        .first()
    )


def table(match: Match, here: PlaySeat) -> list[dict[str, Any]]:
    """Who sits where, in seat order (from 0): people by their username, bots by their name.
    ``you``: the seat this page plays; ``yours``: another seat of the same person."""
    people = {p.seat: p.user for p in PlaySeat.objects.filter(match=match).select_related("user")}
    rows = []
    for s in match.seats.select_related("bot_version__bot").order_by("seat"):
        person = people.get(s.seat)
        rows.append(
            {
                "seat": s.seat,
                "name": person.username if person else s.bot_version.bot.name,
                "person": person is not None,
                "you": s.seat == here.seat,
                "yours": person is not None and person.pk == here.user_id and s.seat != here.seat,
            }
        )
    return rows
