"""Reading people's matches."""

from __future__ import annotations

from bots.models import BotVersion
from bots.selectors import bots_for_game, latest_versions
from catalog.models import Game
from django.contrib.auth.models import User
from django.db.models import QuerySet

from play.models import PlaySeat


def opponents(game: Game) -> list[BotVersion]:
    """Bots a person may sit down with: every bot of the game with a version (built-ins and
    uploads, newest version), never the stand-in for people."""
    return latest_versions(bots_for_game(game))


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
