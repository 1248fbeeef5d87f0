"""TRND's components: 9 card types (3 colours x 3 chair styles), 10 copies each, and the
per-player-count deal sizes and targets.

A card type is an int ``colour * 3 + style`` (0..8); the state stores types, never names, so
hands are 9-slot count vectors. Bots see names such as ``"black-sling"``.
"""

from __future__ import annotations

from games.base import GameError

COLOURS: tuple[str, ...] = ("white", "red", "black")
STYLES: tuple[str, ...] = ("shell", "ant", "sling")
TYPES: range = range(9)
COPIES = 10
DECK_SIZE = COPIES * len(TYPES)
MARKET_SLOTS = 8

#: players -> (cards dealt to each player, target score from the reference card)
DEAL: dict[int, tuple[int, int]] = {3: (10, 100), 4: (9, 81), 5: (8, 64)}

NAMES: tuple[str, ...] = tuple(f"{c}-{s}" for c in COLOURS for s in STYLES)
BY_NAME: dict[str, int] = {name: t for t, name in enumerate(NAMES)}


def colour(t: int) -> int:
    return t // 3


def style(t: int) -> int:
    return t % 3


def name(t: int) -> str:
    return NAMES[t]


def parse(card: str) -> int:
    """The type of a card name like ``"black-sling"``; a clear error for anything else."""
    t = BY_NAME.get(card) if isinstance(card, str) else None
    if t is None:
        raise GameError(f"trnd: unknown card {card!r} (cards are colour-style, e.g. 'black-sling')")
    return t


#: MATCHES[top] = the types that share a colour or a style with ``top`` (5 of the 9, top included)
MATCHES: tuple[tuple[int, ...], ...] = tuple(
    tuple(t for t in TYPES if colour(t) == colour(top) or style(t) == style(top)) for top in TYPES
)
