"""Reading ratings: leaderboards, a bot's rating and its history."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bots.models import Bot
from catalog.models import Game
from django.db.models import QuerySet
from matches.selectors import seen_by

from ratings.models import Rating, RatingChange


def leaderboard(game: Game) -> QuerySet[Rating]:
    """Ratings of a game, best first (conservative OpenSkill ordinal, then Elo)."""
    return (
        Rating.objects.filter(game=game)
        .select_related("bot", "bot__owner")
        .order_by("-ordinal", "-elo", "bot__name")
    )


def top_bots(limit: int = 10) -> QuerySet[Rating]:
    return Rating.objects.select_related("bot", "game").order_by("-ordinal", "-elo")[:limit]


@dataclass(frozen=True)
class RatingPoint:
    match_id: int
    elo: float
    ordinal: float | None
    at: Any


def rating_history(bot: Bot, limit: int = 100, *, viewer: Any = None) -> list[RatingPoint]:
    """The bot's rating after each of its last ``limit`` rated matches that ``viewer`` may see
    (None: public matches only), oldest first (from the per-seat rating-change records; one
    query on their ``(bot, -id)`` index). A private competition rated on the ladder moves the
    rating for all to see, but its matches stay its members'."""
    rows = list(
        RatingChange.objects.filter(bot=bot)
        .filter(seen_by(viewer, "match__audience"))
        .order_by("-id")
        .only("match_id", "elo_after", "mu_after", "sigma_after", "created_at")[:limit]
    )
    return [
        RatingPoint(r.match_id, r.elo_after, r.ordinal_after, r.created_at) for r in reversed(rows)
    ]


def board_stamp_key(game_id: int) -> str:
    """The ``foundation.stamps`` number of a game's leaderboard: bumped after each recorded match
    of the game commits (its ratings, and who is held in placement or suspended, change then:
    ``ladder.receivers``) and by ``recalculate_ratings``; the game's page caches its drawn
    ranking under it."""
    return f"game-board:{game_id}"
