"""The decisions of a Tri*Area trick, one method per action: play a card, count a 5, build,
decline, build extra, declare the lead card and sell blocks."""

from __future__ import annotations

from typing import Any

from games.tri_area.board import ADJACENT, BONUS
from games.tri_area.cards import rank
from games.tri_area.meeting import adopt
from games.tri_area.position import Event
from games.tri_area.rounds import FIVE_COST, SEATS, SELL_PRICE, TRICKS
from games.tri_area.settlement import Settlement


class Turns(Settlement):
    """Applies one legal action of the seat to act and moves the phase on."""

    def _do(self, action: dict[str, Any]) -> list[Event]:
        kind = action["type"]
        seat = self.turn
        assert seat is not None
        if kind == "play":
            return self._play(seat, action["card"])
        if kind == "five":
            return self._five(seat, action["as"])
        if kind == "build":
            return self._build(seat, action["square"], action["count"])
        if kind == "decline":
            return self._decline(seat)
        if kind == "extra":
            ev = self._place(seat, action["square"], 1, "extra")
            return ev + self._next_builder()
        if kind == "skip":
            return self._next_builder()
        if kind == "declare":
            return self._declare(seat, action["card"])
        if kind == "sell":
            return self._sell(seat, action["n"])
        raise AssertionError(kind)

    def _play(self, seat: int, card: str) -> list[Event]:
        self.hands[seat].remove(card)
        self.table[seat] = card
        events: list[Event] = [{"type": "play", "seat": seat, "card": card}]
        self.pos += 1
        if self.pos < SEATS:
            self.turn = (self.leader + self.pos) % SEATS
            return events
        for s, c in enumerate(self.table):
            assert c is not None
            r = rank(c)
            # A played 5 waits for its owner's choice (rounds 2-3; round 1 has no 5s).
            self.values[s] = None if r == 5 else r
        nxt = self._next_five()
        if nxt is None:
            return events + self._resolve()
        self.phase = "five"
        self.turn = nxt
        return events

    def _next_five(self) -> int | None:
        for k in range(SEATS):
            s = (self.leader + k) % SEATS
            if self.values[s] is None:
                return s
        return None

    def _five(self, seat: int, value: int) -> list[Event]:
        cost = FIVE_COST[value]
        self.scores[seat] -= cost  # only offered when affordable
        self.values[seat] = value
        events: list[Event] = [
            {"type": "five", "seat": seat, "as": value, "paid": cost, "score": self.scores[seat]}
        ]
        nxt = self._next_five()
        if nxt is None:
            return events + self._resolve()
        self.turn = nxt
        return events

    def _resolve(self) -> list[Event]:
        cards = [c for c in self.table if c is not None]
        values = [v if v is not None else 0 for v in self.values]
        suit, rh1, rh2 = adopt(cards, values, self.leader)
        self.adopted = suit
        self.rh = [rh1, rh2]
        self.tricks.append(
            {
                "leader": self.leader,
                "cards": list(cards),
                "values": list(values),
                "suit": suit,
                "rightholders": [rh1, rh2],
            }
        )
        self.phase = "build"
        self.builder = 0
        self.turn = rh1
        return [
            {
                "type": "adopt",
                "trick": self.trick,
                "suit": suit,
                "values": list(values),
                "rightholders": [rh1, rh2],
            }
        ]

    def _place(self, seat: int, square: int, count: int, how: str) -> list[Event]:
        stack = self.board[square]
        bonus = BONUS[square] if not stack else 0
        stack.extend([seat] * count)
        self.supply[seat] -= count
        self.scores[seat] += bonus
        return [
            {
                "type": how,
                "seat": seat,
                "square": square,
                "count": count,
                "points": bonus,
                "score": self.scores[seat],
                "height": len(stack),
            }
        ]

    def _build(self, seat: int, square: int, count: int) -> list[Event]:
        # The right to additional construction: an own block in a neighbouring building
        # (at any height unless the ``extra_needs_top`` option asks for the top block).
        needs_top = self.options.get("extra_needs_top", False)
        earned = any(
            (self.board[n] and self.board[n][-1] == seat) if needs_top else seat in self.board[n]
            for n in ADJACENT[square]
        )
        events = self._place(seat, square, count, "build")
        if earned and self.supply[seat] > 0:
            self.phase = "extra"
            self.built = square
            return events
        return events + self._next_builder()

    def _decline(self, seat: int) -> list[Event]:
        value = self.values[seat]
        assert value is not None
        # An unconverted 5 may still pay 1 to count as 0, so a default costs at most 1.
        penalty = 1 if value == 5 else value
        before = self.scores[seat]
        self.scores[seat] = max(0, before - penalty)
        events: list[Event] = [
            {
                "type": "default",
                "seat": seat,
                "penalty": penalty,
                "lost": before - self.scores[seat],
                "score": self.scores[seat],
            }
        ]
        return events + self._next_builder()

    def _next_builder(self) -> list[Event]:
        self.built = None
        if self.builder == 0 and self.rh[1] is not None:
            self.builder = 1
            self.phase = "build"
            self.turn = self.rh[1]
            return []
        # Rightholder 1 leads the next trick.
        rh1 = self.rh[0]
        assert rh1 is not None
        self.leader = rh1
        self.trick += 1
        if self.trick <= TRICKS:
            self._begin_trick()
            return []
        return self._settle()

    def _declare(self, seat: int, card: str) -> list[Event]:
        self.hands[seat].remove(card)
        self.lead_decl[seat] = card
        events: list[Event] = [{"type": "declared", "seat": seat}]
        self.pos += 1
        if self.pos < SEATS:
            self.turn = (self.start + self.pos) % SEATS
            return events
        self.revealed = True
        events.append({"type": "lead_reveal", "cards": list(self.lead_decl)})
        # Selling: from the start player's right, counterclockwise.
        self.phase = "sell"
        self.pos = 0
        self.turn = (self.start - 1) % SEATS
        return events

    def _sell(self, seat: int, n: int) -> list[Event]:
        self.supply[seat] -= n
        self.sold[seat] = n
        self.scores[seat] += SELL_PRICE * n
        events: list[Event] = [
            {
                "type": "sell",
                "seat": seat,
                "n": n,
                "points": SELL_PRICE * n,
                "score": self.scores[seat],
            }
        ]
        self.pos += 1
        if self.pos < SEATS:
            self.turn = (self.start - 1 - self.pos) % SEATS
        else:
            self._begin_trick()
        return events
