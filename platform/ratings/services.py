"""Moving ratings: one finished match at a time (live), or the whole history again
(``ratings.recalculation``)."""

from __future__ import annotations

from collections.abc import Sequence

from catalog.models import Game
from matches.models import Match, MatchSeat

from arena.contract import MatchStatus
from ratings import game_lock, stats
from ratings.models import Rating, RatingChange
from ratings.moves import Standing, change_row, moved, rated_by_rule
from ratings.recalculation import BATCH, Progress, recalculate_game


def is_rated(match: Match, seats: Sequence[MatchSeat]) -> bool:
    """The one rule of what moves ratings (``ratings.moves.rated_by_rule``): a finished match
    that its creator meant to be rated (ladder, tournament, league; not challenges or games
    with people), with two or more seats held by different bots."""
    return rated_by_rule(
        match.rated,
        match.status == MatchStatus.FINISHED,
        [s.bot_version.bot_id for s in seats],
        [int(s.rank or 0) for s in seats],
    )


def rate_match(match: Match, seats: Sequence[MatchSeat]) -> bool:
    """Move the Elo and OpenSkill ratings of the bots of a finished match and keep what changed
    per seat. Call inside the transaction that records the match. Returns False, changing
    nothing, when the match is not rated."""
    if not is_rated(match, seats):
        return False
    # A running recalculation installs its result only between two ratings of the game.
    game_lock.share(match.game_id)
    bot_ids = [s.bot_version.bot_id for s in seats]
    # Concurrent matches may both create a bot's first rating: let the database settle it,
    # inserting in bot order (as the locks below are taken) so two matches cannot deadlock.
    Rating.objects.bulk_create(
        [Rating(bot_id=b, game_id=match.game_id) for b in sorted(set(bot_ids))],
        ignore_conflicts=True,
    )
    # Lock in primary-key order so that two concurrent matches cannot deadlock.
    locked = {
        r.bot_id: r
        for r in Rating.objects.select_for_update()
        .filter(game_id=match.game_id, bot_id__in=bot_ids)
        .order_by("pk")
    }
    ratings = [locked[b] for b in bot_ids]
    before = [Standing(r.elo, r.mu, r.sigma, r.matches_played) for r in ratings]
    after = moved(before, [int(s.rank or 0) for s in seats])
    changes = []
    for seat, rating, old, new in zip(seats, ratings, before, after, strict=True):
        changes.append(change_row(match.pk, match.game_id, seat.seat, rating.bot_id, old, new))
        rating.elo, rating.mu, rating.sigma = new.elo, new.mu, new.sigma
        rating.ordinal = new.ordinal
        rating.matches_played = new.played
        rating.provisional = new.provisional
    Rating.objects.bulk_update(
        ratings, ["elo", "mu", "sigma", "ordinal", "matches_played", "provisional", "updated_at"]
    )
    # Unique per (match, seat): a second rating of the same match fails instead of counting twice.
    RatingChange.objects.bulk_create(changes)
    # The counters that explain the rating, under the same locks (ratings.stats).
    stats.count_rated(match, seats, changes)
    return True


def recalculate(
    game_id: int | None = None, *, batch: int = BATCH, progress: Progress | None = None
) -> int:
    """Rebuild ratings from the match history, in the order the live path rated the matches,
    while recording goes on (``ratings.recalculation``). Returns how many matches moved
    ratings."""
    games = [game_id] if game_id is not None else list(Game.objects.values_list("pk", flat=True))
    return sum(recalculate_game(g, batch=batch, progress=progress) for g in games)
