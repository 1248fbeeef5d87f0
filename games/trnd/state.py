"""One position of a TRND match: rounds of take-and-discard until someone reaches the target.

Zones (all card types, see ``cards``): each seat's hand (a 9-slot count vector), the draw pile
(a list, top = last), the 8-slot market (-1 marks the slot emptied by a take until its refill),
the discard pile (a list, top = last) and each seat's cleared-out set. The 90 cards are always
spread over exactly these zones.
"""

from __future__ import annotations

from games.base import JSON, Action, GameError, IllegalAction
from games.rng import Rng
from games.trnd import cards as C
from games.trnd.position import CHOOSE, DISCARD, DRAW, OVER
from games.trnd.rules import can_discard, is_legal_discard
from games.trnd.turns import TrndTurns

__all__ = ["CHOOSE", "DISCARD", "DRAW", "OVER", "TrndState"]

_SLOTS = range(C.MARKET_SLOTS)


class TrndState(TrndTurns):
    """A TRND position with the game interface: the zones, deal, JSON and result in
    ``position.py``, the moves in ``turns.py``."""

    __slots__ = ()

    def current_seat(self) -> int | None:
        return None if self.phase == OVER else self.seat

    def is_over(self) -> bool:
        return self.phase == OVER

    def between_rounds(self) -> bool:
        """True for the position a viewer keeps just before a deal (``keep_round_end_position``):
        this round's points are settled (its history row is written) and nobody acts in it."""
        return not self.is_over() and len(self.history) >= self.round

    def legal_actions(self) -> list[Action]:
        if self.phase == CHOOSE:
            if can_discard(self.hands[self.seat], self.pile[-1]):
                # fresh dicts: callers may keep or change what they get
                return [{"type": "draw"}] + [{"type": "take", "slot": i} for i in _SLOTS]
            return [{"type": "draw"}]
        if self.phase == DISCARD:
            hand = self.hands[self.seat]
            return [
                {"type": "discard", "card": C.NAMES[t], "count": k}
                for t in C.MATCHES[self.pile[-1]]
                for k in range(1, hand[t] + 1)
            ]
        return []

    def apply(self, action: Action) -> list[dict[str, JSON]]:
        # Validate fully before touching anything, so a refused action leaves no trace.
        kind = action.get("type") if isinstance(action, dict) else None
        if self.phase == CHOOSE:
            if action == DRAW:
                return self._draw()
            if kind == "take" and len(action) == 2 and type(action.get("slot")) is int:
                slot = action["slot"]
                if 0 <= slot < C.MARKET_SLOTS and can_discard(self.hands[self.seat], self.pile[-1]):
                    return self._take(slot)
        elif self.phase == DISCARD and kind == "discard" and len(action) == 3:
            card, count = action.get("card"), action.get("count")
            t = C.BY_NAME.get(card) if isinstance(card, str) else None
            if (
                t is not None
                and type(count) is int
                and is_legal_discard(self.hands[self.seat], self.pile[-1], t, count)
            ):
                return self._discard(t, count)
        raise IllegalAction(self._illegal_message(action))

    def _illegal_message(self, action: Action) -> str:
        if self.phase == OVER:
            return f"trnd: the game is over, no action is legal (got {action!r})"
        if (
            self.phase == CHOOSE
            and isinstance(action, dict)
            and action.get("type") == "take"
            and not can_discard(self.hands[self.seat], self.pile[-1])
        ):
            return (
                "trnd: Action A (take) needs a card in hand that matches the discard top "
                f"{C.NAMES[self.pile[-1]]} in colour or style; only draw is legal"
            )
        legal = self.legal_actions()
        shown = ", ".join(map(str, legal[:10])) + (" ..." if len(legal) > 10 else "")
        return (
            f"trnd: illegal action {action!r} in phase {self.phase!r} for seat {self.seat}; "
            f"legal: {shown}"
        )

    def observation(self, seat: int) -> dict[str, JSON]:
        if not 0 <= seat < self.n:
            raise GameError(f"trnd: no seat {seat} in a {self.n}-player game")
        names = C.NAMES
        hand = self.hands[seat]
        return {
            "phase": self.phase,
            "seat": seat,
            "players": self.n,
            "round": self.round,
            "max_rounds": self.max_rounds,
            "target": self.target,
            "scoring": "square" if self.square else "linear",
            "start_seat": self.start_seat,
            "turn_seat": self.current_seat(),
            "turn": self.turn,
            "hand": {names[t]: k for t, k in enumerate(hand) if k},
            "hand_sizes": [sum(h) for h in self.hands],
            "known_in_hands": [{names[t]: k for t, k in enumerate(kn) if k} for kn in self.known],
            "market": [names[t] if t >= 0 else None for t in self.market],
            "taken_slot": self.taken_slot if self.phase == DISCARD else None,
            "discard_top": names[self.pile[-1]],
            "discard_pile": [names[t] for t in self.pile],
            "draw_pile": len(self.deck),
            "cleared": [
                None if o is None else {"card": names[o[0]], "count": o[1]} for o in self.out
            ],
            "round_points": list(self.round_points),
            "scores": list(self.totals),
            "past_rounds": [list(r) for r in self.history],
        }

    def resample_hidden(self, seat: int, seed: int) -> TrndState:
        """Redraw what ``seat`` cannot see: the unknown part of the other active hands (cards a
        seat publicly took from the market stay with it) and the draw-pile order, plus the RNG."""
        s = self.clone()
        assert isinstance(s, TrndState)
        r = Rng(seed)
        pool = list(s.deck)
        sizes: dict[int, int] = {}
        for other in range(s.n):
            if other == seat or s.out[other] is not None:
                continue
            hand, known = s.hands[other], s.known[other]
            for t in C.TYPES:
                pool.extend([t] * (hand[t] - known[t]))
                hand[t] = known[t]
            sizes[other] = sum(self.hands[other]) - sum(known)
        r.shuffle(pool)
        for other, size in sizes.items():
            hand = s.hands[other]
            for _ in range(size):
                hand[pool.pop()] += 1
        s.deck = pool
        s.rng = Rng(r.next64())
        return s
