"""Reading people's matches."""

from __future__ import annotations

from typing import Any

from bots.models import BotVersion
from bots.selectors import bots_for_game, latest_versions
from catalog.models import Game
from django.contrib.auth.models import User
from django.db.models import QuerySet
from matches.models import Match

from play.models import PlaySeat


def opponents(game: Game) -> list[BotVersion]:
    """Bots a person may sit down with: every bot of the game with a version (built-ins and
    uploads, newest version), never the stand-in for people. Each version carries its bot as
    read with its owner (the chooser names both): two queries, whatever the number of bots."""
    bots = {b.pk: b for b in bots_for_game(game)}
    versions = latest_versions(list(bots.values()))
    for v in versions:
        v.bot = bots[v.bot_id]
    return versions


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
