"""What every fault-injection test checks afterwards: each match recorded exactly once, and
the ratings a serial replay of the recorded matches gives."""

from __future__ import annotations

from typing import Any

import pytest


def assert_recorded_once(ids: list[int]) -> None:
    """Every match is finished or error; a finished rated match has exactly one rating change
    per seat, an error match none; nothing is queued/running/recording."""
    from matches.models import Match, MatchStatus
    from ratings.models import RatingChange

    for match in Match.objects.filter(pk__in=ids).prefetch_related("seats"):
        assert match.status in (MatchStatus.FINISHED, MatchStatus.ERROR), (match.pk, match.status)
        changes = RatingChange.objects.filter(match=match).count()
        if match.status == MatchStatus.FINISHED:
            seats = list(match.seats.all())
            assert all(s.rank is not None for s in seats), match.pk
            assert changes == len(seats), (match.pk, changes)
            assert match.deadline_at is None
        else:
            assert changes == 0, (match.pk, changes)
    assert not Match.objects.filter(
        status__in=[MatchStatus.QUEUED, MatchStatus.RUNNING, MatchStatus.RECORDING]
    ).exists()


def assert_ratings_serial(game: Any) -> int:
    """The stored ratings equal a serial replay of the finished rated matches with the arena's
    own maths, in the order their rating changes were written; every bot's count of rated
    matches equals the matches it played. Returns how many matches moved ratings."""
    from matches.models import Match, MatchStatus
    from ratings.models import Rating, RatingChange

    from arena.ratings import DEFAULT_ELO, Skill, elo_match, openskill_match

    order = list(
        RatingChange.objects.filter(game=game).order_by("id").values_list("match_id", flat=True)
    )
    match_ids = list(dict.fromkeys(order))
    finished = set(
        Match.objects.filter(game=game, status=MatchStatus.FINISHED, rated=True).values_list(
            "pk", flat=True
        )
    )
    assert set(match_ids) <= finished, "a rating change of a match that is not finished"
    elo: dict[int, float] = {}
    skill: dict[int, Skill] = {}
    played: dict[int, int] = {}
    for mid in match_ids:
        seats = list(Match.objects.get(pk=mid).seats.select_related("bot_version").order_by("seat"))
        bots = [s.bot_version.bot_id for s in seats]
        ranks = [int(s.rank or 0) for s in seats]
        new_elo = elo_match([elo.get(b, DEFAULT_ELO) for b in bots], ranks)
        new_skill = openskill_match([skill.get(b, Skill()) for b in bots], ranks)
        for b, e, s in zip(bots, new_elo, new_skill, strict=True):
            elo[b], skill[b] = e, s
            played[b] = played.get(b, 0) + 1
    stored = {r.bot_id: r for r in Rating.objects.filter(game=game)}
    for bot, count in played.items():
        r = stored[bot]
        assert r.matches_played == count, (bot, r.matches_played, count)
        assert r.elo == pytest.approx(elo[bot], abs=1e-9)
        assert r.mu == pytest.approx(skill[bot].mu, abs=1e-9)
        assert r.sigma == pytest.approx(skill[bot].sigma, abs=1e-9)
    for bot, r in stored.items():
        assert bot in played or r.matches_played == 0, (bot, r.matches_played)
    return len(match_ids)
