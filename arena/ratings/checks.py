"""What the rating functions refuse, and how they say so."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


class RatingError(ValueError):
    """Bad input to a rating function; the message says which value and why."""


def as_tuple(where: str, name: str, value: Any) -> tuple[Any, ...]:
    """A JSON list as a tuple; anything else is refused, naming the match and the field."""
    if not isinstance(value, list | tuple):
        raise RatingError(f"{where}: {name} must be a list, got {value!r}")
    return tuple(value)


def check_ranks(ranks: Sequence[int], seats: int) -> None:
    """One rank per seat, each from 1 to ``seats``, with a first place."""
    if len(ranks) != seats:
        raise RatingError(f"{len(ranks)} ranks for {seats} seats")
    for r in ranks:
        if isinstance(r, bool) or not isinstance(r, int) or not 1 <= r <= seats:
            raise RatingError(f"ranks must be integers from 1 to {seats} (1 is first), got {r!r}")
    if seats and min(ranks) != 1:
        raise RatingError(f"ranks must include a first place (1), got {list(ranks)}")
