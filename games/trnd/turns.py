"""The moves of a TRND turn (take and discard, or draw), the clear-out that may end it, and
the end of a round."""

from __future__ import annotations

from games.base import JSON
from games.trnd import cards as C
from games.trnd.position import CHOOSE, DISCARD, OVER, TrndPosition
from games.trnd.rules import clear_out_points, cleared_type


class TrndTurns(TrndPosition):
    """Plays one checked action of the seat to act and moves the turn on."""

    __slots__ = ()

    def _take(self, slot: int) -> list[dict[str, JSON]]:
        t = self.market[slot]
        self.hands[self.seat][t] += 1
        self.known[self.seat][t] += 1
        self.market[slot] = -1
        self.taken_slot = slot
        self.phase = DISCARD
        return [{"type": "take", "seat": self.seat, "slot": slot, "card": C.NAMES[t]}]

    def _discard(self, t: int, count: int) -> list[dict[str, JSON]]:
        seat = self.seat
        self.hands[seat][t] -= count
        known = self.known[seat]
        known[t] = max(0, known[t] - count)
        self.pile.extend([t] * count)
        new = self.deck.pop()
        self.market[self.taken_slot] = new
        events: list[dict[str, JSON]] = [
            {"type": "discard", "seat": seat, "card": C.NAMES[t], "count": count},
            {
                "type": "refill",
                "slot": self.taken_slot,
                "card": C.NAMES[new],
                "draw_pile": len(self.deck),
            },
        ]
        self.taken_slot = -1
        return self._end_turn(events)

    def _draw(self) -> list[dict[str, JSON]]:
        self.hands[self.seat][self.deck.pop()] += 1
        # The drawn card stays secret: the event names only who drew.
        return self._end_turn([{"type": "draw", "seat": self.seat, "draw_pile": len(self.deck)}])

    def _end_turn(self, events: list[dict[str, JSON]]) -> list[dict[str, JSON]]:
        seat, n = self.seat, self.n
        self.turn += 1
        hand = self.hands[seat]
        t = cleared_type(hand)
        if t is not None:
            count = hand[t]
            points = clear_out_points(count, self.square)
            hand[t] = 0
            self.known[seat] = [0] * 9
            self.out[seat] = [t, count]
            self.round_points[seat] += points
            self.totals[seat] += points
            events.append(
                {
                    "type": "clear_out",
                    "seat": seat,
                    "card": C.NAMES[t],
                    "count": count,
                    "points": points,
                    "total": self.totals[seat],
                }
            )
        active = sum(1 for o in self.out if o is None)
        if not self.deck or active <= 1:
            return self._end_round(
                events, "draw_pile_empty" if not self.deck else "one_player_left"
            )
        seat = (seat + 1) % n
        while self.out[seat] is not None:
            seat = (seat + 1) % n
        self.seat = seat
        self.phase = CHOOSE
        return events

    def _end_round(self, events: list[dict[str, JSON]], why: str) -> list[dict[str, JSON]]:
        self.history.append(self.round_points)
        events.append(
            {
                "type": "round_end",
                "round": self.round,
                "reason": why,
                "points": list(self.round_points),
                "totals": list(self.totals),
            }
        )
        if max(self.totals) >= self.target:
            self.reason = "normal"
        elif self.round >= self.max_rounds:
            self.reason = "round_limit"
        else:
            self.phase = CHOOSE  # the turn is over (the deal resets it anyway)
            self.keep_round_end_position()
            return events + self._start_round()
        self.phase = OVER
        res = self.result()
        events.append(
            {"type": "game_end", "reason": self.reason, "scores": res.scores, "ranks": res.ranks}
        )
        return events
