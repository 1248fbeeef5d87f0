"""Elo for one match (every pair of seats a virtual game) and over a rating period."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from arena.ratings.checks import RatingError, check_ranks

#: Elo of a bot that has never played, and the default K factor (FIDE's for new players).
DEFAULT_ELO = 1500.0
DEFAULT_K = 32.0


def expected_score(rating: float, opponent: float) -> float:
    """Elo's expected score of ``rating`` against ``opponent`` (0..1, 0.5 when equal)."""
    return 1.0 / (1.0 + 10.0 ** ((opponent - rating) / 400.0))


def elo_period(rating: float, games: Iterable[tuple[float, float]], k: float = DEFAULT_K) -> float:
    """The rating after several games rated at once: ``games`` holds (opponent rating, score)
    with score 1 for a win, 0.5 a draw, 0 a loss; expected scores use the ratings before."""
    delta = 0.0
    for opponent, score in games:
        if score not in (0, 0.5, 1):
            raise RatingError(f"a game's score must be 0, 0.5 or 1, got {score!r}")
        delta += score - expected_score(rating, opponent)
    return rating + k * delta


def _pair_score(rank: int, other: int) -> float:
    return 1.0 if rank < other else 0.5 if rank == other else 0.0


def elo_match(ratings: Sequence[float], ranks: Sequence[int], k: float = DEFAULT_K) -> list[float]:
    """New Elo ratings of the seats of one match (ranks: 1 is first, equal ranks tied).

    Each pair of seats is one virtual game with K / (seats - 1), all computed from the ratings
    before the match: zero-sum, and with two seats exactly classic Elo.
    """
    check_ranks(ranks, len(ratings))
    n = len(ratings)
    if n < 2:
        return [float(r) for r in ratings]
    k_pair = k / (n - 1)
    new = [float(r) for r in ratings]
    for i in range(n):
        for j in range(i + 1, n):
            # One delta applied with opposite signs keeps the sum exactly zero in theory.
            d = k_pair * (_pair_score(ranks[i], ranks[j]) - expected_score(ratings[i], ratings[j]))
            new[i] += d
            new[j] -= d
    return new
