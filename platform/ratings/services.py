"""Moving ratings: one finished match at a time (live), or the whole history again."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.db.models import Min
from matches.models import Match, MatchSeat

from arena.contract import MatchStatus
from arena.ratings import PROVISIONAL_MATCHES, MatchRecord, Skill, elo_match, openskill_match
from ratings import stats
from ratings.models import Rating, RatingChange


def match_record(match: Match, seats: Sequence[MatchSeat]) -> MatchRecord:
    """The arena's view of a recorded match, bots named by bot id (ratings are per bot)."""
    return MatchRecord(
        bots=tuple(str(s.bot_version.bot_id) for s in seats),
        ranks=tuple(int(s.rank or 0) for s in seats),
        status="finished" if match.status == MatchStatus.FINISHED else "error",
        id=str(match.pk),
    )


def is_rated(match: Match, seats: Sequence[MatchSeat]) -> bool:
    """The one rule of what moves ratings: a finished match that its creator meant to be rated
    (ladder, tournament, league; not challenges or games with people), with two or more seats
    held by different bots (``arena.ratings.MatchRecord.rated``)."""
    if not match.rated or match.status != MatchStatus.FINISHED or len(seats) < 2:
        return False
    return match_record(match, seats).rated


def rate_match(match: Match, seats: Sequence[MatchSeat]) -> bool:
    """Move the Elo and OpenSkill ratings of the bots of a finished match and keep what changed
    per seat. Call inside the transaction that records the match. Returns False, changing
    nothing, when the match is not rated."""
    if not is_rated(match, seats):
        return False
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
    ranks = [int(s.rank or 0) for s in seats]
    elos = elo_match([r.elo for r in ratings], ranks)
    skills = openskill_match([Skill(r.mu, r.sigma) for r in ratings], ranks)
    changes = []
    for seat, rating, elo, skill in zip(seats, ratings, elos, skills, strict=True):
        changes.append(
            RatingChange(
                match=match,
                seat=seat.seat,
                bot_id=rating.bot_id,
                game_id=match.game_id,
                elo_before=rating.elo,
                elo_after=elo,
                mu_before=rating.mu,
                mu_after=skill.mu,
                sigma_before=rating.sigma,
                sigma_after=skill.sigma,
            )
        )
        rating.elo, rating.mu, rating.sigma = elo, skill.mu, skill.sigma
        rating.ordinal = skill.ordinal
        rating.matches_played += 1
        rating.provisional = rating.matches_played < PROVISIONAL_MATCHES
    Rating.objects.bulk_update(
        ratings, ["elo", "mu", "sigma", "ordinal", "matches_played", "provisional", "updated_at"]
    )
    # Unique per (match, seat): a second rating of the same match fails instead of counting twice.
    RatingChange.objects.bulk_create(changes)
    # The counters that explain the rating, under the same locks (ratings.stats).
    stats.count_rated(match, seats, changes)
    return True


def recalculate(game_id: int | None = None) -> int:
    """Rebuild ratings from the match history, in the order the live path rated the matches
    (the order of their rating changes, then finishing order for matches never rated live).
    Returns how many matches moved ratings."""
    matches = Match.objects.filter(status=MatchStatus.FINISHED, rated=True)
    if game_id is not None:
        matches = matches.filter(game_id=game_id)
    first_change = {
        row["match_id"]: row["first"]
        for row in RatingChange.objects.filter(match__in=matches)
        .values("match_id")
        .annotate(first=Min("id"))
    }
    ordered = sorted(
        matches.only("pk", "finished_at").iterator(),
        key=lambda m: (
            first_change.get(m.pk, float("inf")),
            m.finished_at.timestamp() if m.finished_at else 0.0,
            m.pk,
        ),
    )
    rated = 0
    with transaction.atomic():
        scope = Rating.objects.all() if game_id is None else Rating.objects.filter(game_id=game_id)
        changes = (
            RatingChange.objects.all()
            if game_id is None
            else RatingChange.objects.filter(game_id=game_id)
        )
        changes.delete()
        scope.delete()
        stats.clear(game_id)
        for stub in ordered:
            match = Match.objects.select_related("game").get(pk=stub.pk)
            seats = list(match.seats.select_related("bot_version").order_by("seat"))
            rated += rate_match(match, seats)
    return rated
