"""Determination of building rights: which concept (suit) is adopted and who holds the rights."""

from __future__ import annotations

from collections.abc import Sequence

from games.tri_area.cards import suit as card_suit


def adopt(cards: Sequence[str], values: Sequence[int], leader: int) -> tuple[str, int, int | None]:
    """The adopted suit, Rightholder 1 and Rightholder 2 (or ``None``) of one meeting.

    ``cards[seat]`` is the card each seat played and ``values[seat]`` its effective rank (a 5
    may count as 0 or 10). The suit with the most cards wins; a 2-2 tie goes to the suit whose
    two values are further apart, then to the leader's suit; when every suit differs the leader
    is Rightholder 1 alone. Otherwise the lowest value of the adopted suit is Rightholder 1 and
    the highest is Rightholder 2.
    """
    by_suit: dict[str, list[int]] = {}
    for seat, card in enumerate(cards):
        by_suit.setdefault(card_suit(card), []).append(seat)
    lead_suit = card_suit(cards[leader])
    most = max(len(v) for v in by_suit.values())
    if most == 1:
        return lead_suit, leader, None
    tied = [s for s, seats in by_suit.items() if len(seats) == most]
    if len(tied) == 1:
        chosen = tied[0]
    else:
        # Only 2-2 with four seats: the larger rank difference, then the leader's suit.
        def spread(s: str) -> int:
            vals = [values[seat] for seat in by_suit[s]]
            return max(vals) - min(vals)

        best = max(spread(s) for s in tied)
        widest = [s for s in tied if spread(s) == best]
        chosen = widest[0] if len(widest) == 1 else lead_suit
    seats = by_suit[chosen]
    rh1 = min(seats, key=lambda seat: values[seat])
    rh2 = max(seats, key=lambda seat: values[seat])
    return chosen, rh1, rh2
