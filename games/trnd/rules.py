"""Pure rule functions over hands (9-slot count vectors) and the top of the discard pile."""

from __future__ import annotations

from games.trnd.cards import MATCHES


def can_discard(hand: list[int], top: int) -> bool:
    """Action A's pre-check: the hand (before taking a market card) holds a card that shares a
    colour or a style with the top of the discard pile."""
    return any(hand[t] for t in MATCHES[top])


def discard_choices(hand: list[int], top: int) -> list[tuple[int, int]]:
    """Every legal discard as (type, count): one type at a time, matching the top card, any
    count from 1 to all copies held (identical cards only, never a mix)."""
    return [(t, k) for t in MATCHES[top] for k in range(1, hand[t] + 1)]


def is_legal_discard(hand: list[int], top: int, t: int, count: int) -> bool:
    return t in MATCHES[top] and 1 <= count <= hand[t]


def cleared_type(hand: list[int]) -> int | None:
    """The single type a hand holds, or None when it holds two or more types or is empty
    (an empty hand is not a clear out)."""
    found = None
    for t, n in enumerate(hand):
        if n:
            if found is not None:
                return None
            found = t
    return found


def clear_out_points(cards: int, square: bool) -> int:
    """Points for clearing out with ``cards`` cards: the square (default reading) or the count."""
    return cards * cards if square else cards
