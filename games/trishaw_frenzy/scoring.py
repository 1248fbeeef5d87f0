"""Round and game scoring: finishing-position VP, the next first rider, the final ranking."""

from __future__ import annotations

from collections.abc import Sequence

from games.base import competition_ranks

#: VP for 1st, 2nd, 3rd, 4th place at the end of a round
PLACE_VP = (6, 4, 2, 1)


def round_places(progress: Sequence[int]) -> list[int]:
    """Finishing places by progress along the route; trishaws on the same square share a place
    and the next place skips (three on one square are all 1st, the next is 4th)."""
    return competition_ranks(list(progress))


def round_vp(progress: Sequence[int]) -> list[int]:
    return [PLACE_VP[p - 1] for p in round_places(progress)]


def totals(round_tokens: Sequence[Sequence[int]], bonus: Sequence[int]) -> list[int]:
    return [sum(tokens) + b for tokens, b in zip(round_tokens, bonus, strict=True)]


def next_first_rider(
    round_tokens: Sequence[Sequence[int]], bonus: Sequence[int], previous_first: int
) -> int:
    """The rider with the lowest total VP; among tied riders, the first one clockwise
    starting from the seat after the previous first rider."""
    tot = totals(round_tokens, bonus)
    n = len(tot)
    low = min(tot)
    for k in range(1, n + 1):
        t = (previous_first + k) % n
        if tot[t] == low:
            return t
    raise AssertionError("unreachable")


def final_keys(
    round_tokens: Sequence[Sequence[int]], bonus: Sequence[int]
) -> list[tuple[int, int, int]]:
    """Sort keys (larger is better): total VP, then the number of 6-VP round tokens, then
    whether the rider took a 6-VP token in the first round."""
    tot = totals(round_tokens, bonus)
    return [
        (tot[t], sum(1 for v in tokens if v == 6), int(bool(tokens) and tokens[0] == 6))
        for t, tokens in enumerate(round_tokens)
    ]


def final_ranks(round_tokens: Sequence[Sequence[int]], bonus: Sequence[int]) -> list[int]:
    """Competition ranks with both tie-breaks; riders equal on all three share the rank."""
    return competition_ranks(final_keys(round_tokens, bonus))
