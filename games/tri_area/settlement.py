"""The settlement at the end of each Tri*Area round (areas, tallest buildings, declarations,
unplaced blocks), and the result."""

from __future__ import annotations

from games.base import JSON, GameError, Result, competition_ranks
from games.tri_area.board import SUITS
from games.tri_area.cards import rank
from games.tri_area.position import Event, TriAreaPosition
from games.tri_area.rounds import ROUNDS, SEATS, TRICKS, UNPLACED_COST
from games.tri_area.scoring import area_awards, area_places, best_five_outcome, tallest_awards


class Settlement(TriAreaPosition):
    """Scores a round once its last trick is built, then deals the next or ends the game."""

    def _gain(self, seat: int, points: int) -> None:
        self.scores[seat] = max(0, self.scores[seat] + points)

    def _settle(self) -> list[Event]:
        events: list[Event] = []
        summary: dict[str, JSON] = {"round": self.round}
        area_pts: dict[str, dict[str, int]] = {}
        for suit in SUITS:
            awards = area_awards(self.board, suit)
            for seat, pts in awards.items():
                self._gain(seat, pts)
            area_pts[suit] = {str(s): p for s, p in sorted(awards.items())}
            events.append(
                {"type": "area", "suit": suit, "awards": [awards.get(s, 0) for s in range(SEATS)]}
            )
        summary["areas"] = area_pts
        squares, tall = tallest_awards(self.board)
        for seat, pts in tall.items():
            self._gain(seat, pts)
        events.append(
            {
                "type": "tallest",
                "squares": squares,
                "awards": [tall.get(s, 0) for s in range(SEATS)],
            }
        )
        summary["tallest"] = [tall.get(s, 0) for s in range(SEATS)]
        if self.round == 2:
            intents = [hand[0] if hand else None for hand in self.hands]
            gains = []
            for seat, card in enumerate(intents):
                gains.append(self._declaration(seat, card, lead=False))
            events.append({"type": "intent", "cards": intents, "points": gains})
            summary["intent"] = {"cards": intents, "points": gains}
        if self.round == 3:
            gains = [self._declaration(s, self.lead_decl[s], lead=True) for s in range(SEATS)]
            events.append({"type": "lead_result", "cards": list(self.lead_decl), "points": gains})
            unplaced = list(self.supply)
            if self.options.get("sold_blocks_penalised", False):
                unplaced = [u + s for u, s in zip(unplaced, self.sold, strict=True)]
            costs = []
            for seat in range(SEATS):
                before = self.scores[seat]
                self._gain(seat, -UNPLACED_COST * unplaced[seat])
                costs.append(self.scores[seat] - before)
            events.append({"type": "unplaced", "blocks": unplaced, "points": costs})
            summary["lead"] = gains
            summary["unplaced"] = costs
        summary["scores"] = list(self.scores)
        self.history.append(summary)
        events.append({"type": "round_end", "round": self.round, "scores": list(self.scores)})
        if self.round == ROUNDS:
            self.phase = "over"
            self.turn = None
            res = self.result()
            events.append({"type": "game_end", "scores": res.scores, "ranks": res.ranks})
            return events
        # Between the settlement and the deal nobody owes a decision: a viewer's picture of this
        # moment says so (the deal resets all three).
        self.phase, self.turn, self.trick = "round_end", None, TRICKS
        self.keep_round_end_position()
        return events + self._start_round(self.round + 1)

    def _declaration(self, seat: int, card: str | None, lead: bool) -> int:
        """Settle one declaration; returns the score change (a 5 is resolved to its best value)."""
        if card is None:
            return 0
        place = area_places(self.board, card[0]).get(seat)
        r = rank(card)

        def outcome(value: int) -> int:
            if place == 1:
                return value
            if lead and place != 2:  # third or lower, or no top block at all
                return -value
            return 0

        before = self.scores[seat]
        if r == 5:
            _, after = best_five_outcome(before, {v: outcome(v) for v in (5, 0, 10)})
            self.scores[seat] = after
        else:
            self._gain(seat, outcome(r))
        return self.scores[seat] - before

    def result(self) -> Result:
        if self.phase != "over":
            raise GameError("tri-area: the game is not over yet, there is no result")
        scores = self.scores[: self.players]
        return Result(
            scores=list(scores),
            ranks=competition_ranks(list(scores)),
            reason="normal",
            details={
                "seat_scores": list(self.scores),
                "npc_seats": list(range(self.players, SEATS)),
                "ranks_with_npcs": competition_ranks(list(self.scores)),
            },
        )
