"""What one rated match does to its bots' ratings, as pure values: the one computation that
the live path (``services.rate_match``) and the recalculation (``recalculation``) share, so
that a replay of the history gives the live path's numbers to the last bit."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from arena.ratings import (
    DEFAULT_ELO,
    DEFAULT_MU,
    DEFAULT_SIGMA,
    PROVISIONAL_MATCHES,
    MatchRecord,
    Skill,
    elo_match,
    openskill_match,
)
from ratings.models import RatingChange


class Standing(NamedTuple):
    """A bot's rating between two matches."""

    elo: float = DEFAULT_ELO
    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA
    played: int = 0

    @property
    def ordinal(self) -> float:
        return Skill(self.mu, self.sigma).ordinal

    @property
    def provisional(self) -> bool:
        return self.played < PROVISIONAL_MATCHES


#: A bot's rating before its first rated match.
FRESH = Standing()


def rated_by_rule(
    rated: bool, finished: bool, bot_ids: Sequence[int], ranks: Sequence[int]
) -> bool:
    """The one rule of what moves ratings: a finished match that its creator meant to be rated,
    with two or more seats held by different bots (``arena.ratings.MatchRecord.rated``)."""
    if not rated or not finished or len(bot_ids) < 2:
        return False
    record = MatchRecord(bots=tuple(str(b) for b in bot_ids), ranks=tuple(ranks), status="finished")
    return record.rated


def moved(before: Sequence[Standing], ranks: Sequence[int]) -> list[Standing]:
    """The seats' ratings after a rated match, given them before it (seat order)."""
    elos = elo_match([s.elo for s in before], list(ranks))
    skills = openskill_match([Skill(s.mu, s.sigma) for s in before], list(ranks))
    return [
        Standing(elo, skill.mu, skill.sigma, s.played + 1)
        for s, elo, skill in zip(before, elos, skills, strict=True)
    ]


def change_row(
    match_id: int, game_id: int, seat: int, bot_id: int, old: Standing, new: Standing
) -> RatingChange:
    """The per-seat record of one rated match (unsaved): the live path and the
    recalculation store the same row."""
    return RatingChange(
        match_id=match_id,
        seat=seat,
        bot_id=bot_id,
        game_id=game_id,
        elo_before=old.elo,
        elo_after=new.elo,
        mu_before=old.mu,
        mu_after=new.mu,
        sigma_before=old.sigma,
        sigma_after=new.sigma,
    )
