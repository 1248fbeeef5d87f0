"""Plan cards: 4 suits x ranks 1..9, written as short strings such as ``"I7"`` or ``"H5"``."""

from __future__ import annotations

from games.tri_area.board import SUITS

ALL_CARDS: tuple[str, ...] = tuple(f"{s}{r}" for s in SUITS for r in range(1, 10))
#: Round 1 is played without the four 5s.
NO_FIVES: tuple[str, ...] = tuple(c for c in ALL_CARDS if c[1] != "5")
_ORDER = {c: i for i, c in enumerate(ALL_CARDS)}


def suit(card: str) -> str:
    return card[0]


def rank(card: str) -> int:
    return ord(card[1]) - 48


def sort_hand(hand: list[str]) -> None:
    """Sort in place by suit (I, M, E, H) then rank, so legal lists have a stable order."""
    hand.sort(key=_ORDER.__getitem__)


def round_deck(round_no: int) -> list[str]:
    return list(NO_FIVES if round_no == 1 else ALL_CARDS)
