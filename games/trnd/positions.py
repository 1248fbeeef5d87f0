"""Hand-made TRND positions, for tests, puzzles and bot authors' experiments.

``build`` lays out given hands, discard top, market and draw pile and fills in the remaining
cards so that all 90 are present; ``card_census`` counts the cards of each type over all zones.
"""

from __future__ import annotations

from games.base import GameError
from games.trnd import cards as C
from games.trnd.state import TrndState


def counts(spec: dict[str, int]) -> list[int]:
    hand = [0] * 9
    for name, k in spec.items():
        hand[C.parse(name)] += k
    return hand


def build(
    hands: list[dict[str, int]],
    top: str = "black-sling",
    market: list[str] | None = None,
    deck: list[str] | None = None,
    seat: int = 0,
    start_seat: int = 0,
    out: list[tuple[str, int] | None] | None = None,
    totals: list[int] | None = None,
    round_: int = 1,
    target: int | None = None,
    max_rounds: int = 60,
    square: bool = True,
) -> TrndState:
    """A position with the given hands, discard top, market and draw pile (top = last). Cards
    not placed anywhere go under the discard top (or, when ``deck`` is None, into the deck), so
    the 90 cards are always all there."""
    players = len(hands)
    hand_counts = [counts(h) for h in hands]
    out_json: list[list[int] | None] = [
        None if o is None else [C.parse(o[0]), o[1]] for o in out or [None] * players
    ]
    placed_deck, placed_market, pile = _lay_out(hand_counts, out_json, top, market, deck)
    data = {
        "game": "trnd",
        "players": players,
        "target": target or C.DEAL[players][1],
        "max_rounds": max_rounds,
        "square": square,
        "rng": 12345,
        "round": round_,
        "start_seat": start_seat,
        "seat": seat,
        "phase": "choose_action",
        "taken_slot": -1,
        "turn": 0,
        "reason": "",
        "deck": placed_deck,
        "market": placed_market,
        "pile": pile,
        "hands": hand_counts,
        "known": [[0] * 9 for _ in range(players)],
        "out": out_json,
        "totals": totals or [0] * players,
        "round_points": [0] * players,
        "history": [[0] * players for _ in range(round_ - 1)],
    }
    return TrndState.from_json(data)


def _lay_out(
    hand_counts: list[list[int]],
    out: list[list[int] | None],
    top: str,
    market: list[str] | None,
    deck: list[str] | None,
) -> tuple[list[int], list[int], list[int]]:
    """The draw pile, the market and the discard pile: the cards given, and every card placed
    nowhere else under the discard top (or, when ``deck`` is None, in the draw pile)."""
    left = [C.COPIES] * 9
    for h in hand_counts:
        for t in C.TYPES:
            left[t] -= h[t]
    for o in out:
        if o is not None:
            left[o[0]] -= o[1]
    left[C.parse(top)] -= 1
    placed_market = [C.parse(m) for m in market] if market is not None else []
    for t in placed_market:
        left[t] -= 1
    placed_deck = [C.parse(d) for d in deck] if deck is not None else []
    for t in placed_deck:
        left[t] -= 1
    if min(left) < 0:
        raise GameError(f"trnd: more than 10 copies of a type placed: {left}")
    rest = [t for t in C.TYPES for _ in range(left[t])]
    while len(placed_market) < C.MARKET_SLOTS:
        placed_market.append(rest.pop())
    if deck is None:
        placed_deck, under = rest, []
    else:
        under = rest
    return placed_deck, placed_market, [*under, C.parse(top)]


def card_census(state: TrndState) -> list[int]:
    """How many cards of each type the state holds over all zones (must be 10 each)."""
    return state.card_census()
