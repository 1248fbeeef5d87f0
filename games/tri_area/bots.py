"""Built-in heuristic bot for Tri*Area.

``builder``: values each board by the settlement points it would give now (area exclusivity and
tallest building) plus printed bonuses, builds greedily, and in meetings plays the card whose
expected value of the rights it wins is highest, estimated by sampling the unseen cards of the
seats still to play. It sees only the observation and the legal actions.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.base import JSON, Action, Bot
from games.tri_area.board import ADJACENT, AREAS, BONUS, SUITS
from games.tri_area.cards import rank, round_deck, suit
from games.tri_area.meeting import adopt
from games.tri_area.rounds import SEATS, TRICKS
from games.tri_area.scoring import area_awards, tallest_awards

SAMPLES = 16
LEAD_BONUS = 0.3  # being Rightholder 1 also leads the next meeting
SELL = 3  # blocks sold before round 3


def board_value(board: Sequence[Sequence[int]], seat: int) -> int:
    """The settlement points ``seat`` would collect if the round ended now."""
    total = sum(area_awards(board, s).get(seat, 0) for s in SUITS)
    return total + tallest_awards(board)[1].get(seat, 0)


def place_gain(board: list[list[int]], seat: int, square: int, count: int, base: int) -> int:
    """Points gained by stacking ``count`` blocks of ``seat`` on ``square``."""
    stack = board[square]
    bonus = BONUS[square] if not stack else 0
    stack.extend([seat] * count)
    value = board_value(board, seat)
    del stack[len(stack) - count :]
    return bonus + value - base


def _earns_extra(board: Sequence[Sequence[int]], seat: int, square: int) -> bool:
    return any(seat in board[n] for n in ADJACENT[square])


class BuilderBot(Bot):
    """Greedy builder with a sampled estimate of the meeting's outcome."""

    def act(self, observation: dict[str, JSON], legal_actions: list[Action]) -> int:
        phase = observation["phase"]
        if len(legal_actions) == 1:
            return 0
        if phase == "meeting":
            return self._meeting(observation, legal_actions)
        if phase in ("build", "extra"):
            return self._build(observation, legal_actions)
        if phase == "five":
            return self._five(observation, legal_actions)
        if phase == "lead_declaration":
            return self._declare(observation, legal_actions)
        if phase == "sell":
            want = min(SELL, observation["supply"][self.seat])
            return next(i for i, a in enumerate(legal_actions) if a["n"] == want)
        return 0

    # -- construction

    def _block_cost(self, obs: dict[str, JSON]) -> float:
        """What a block kept for later is worth: nothing in round 3 (unplaced blocks cost) or
        when there are plenty left, else about a point."""
        if obs["round"] == 3:
            return 0.0
        tricks_left = TRICKS - obs["trick"] + 1
        return 0.0 if obs["supply"][self.seat] > 0.8 * tricks_left + 1 else 1.0

    def _build(self, obs: dict[str, JSON], legal: list[Action]) -> int:
        board = [list(s) for s in obs["board"]]
        me = self.seat
        base = board_value(board, me)
        cost = self._block_cost(obs)
        best_i, best_v = len(legal) - 1, 0.0  # decline / skip
        if obs["phase"] == "build":
            value = obs["values"][me]
            best_v = -(1 if value == 5 else value)
        for i, a in enumerate(legal):
            if a["type"] not in ("build", "extra"):
                continue
            count = a.get("count", 1)
            v = place_gain(board, me, a["square"], count, base) - cost * count
            if (
                a["type"] == "build"
                and obs["supply"][me] > count
                and _earns_extra(board, me, a["square"])
            ):
                v += 1.5
            v += 0.01 * len(board[a["square"]])  # prefer growing towers on ties
            if v > best_v:
                best_i, best_v = i, v
        return best_i

    def _right_values(self, obs: dict[str, JSON]) -> dict[str, tuple[float, float]]:
        """Per suit: the value of being Rightholder 1 and Rightholder 2 there now."""
        board = [list(s) for s in obs["board"]]
        me = self.seat
        base = board_value(board, me)
        supply = obs["supply"][me]
        cost = self._block_cost(obs)
        out: dict[str, tuple[float, float]] = {}
        for s in SUITS:
            if supply == 0:
                out[s] = (-1.0, -1.0)  # a default; the card's rank is the real loss
                continue
            best1 = max(place_gain(board, me, sq, 1, base) for sq in AREAS[s]) - cost
            best2 = best1
            if supply >= 2:
                best2 = max(
                    best1, max(place_gain(board, me, sq, 2, base) for sq in AREAS[s]) - 2 * cost
                )
            out[s] = (best1 + LEAD_BONUS + 0.5, best2 + 0.5)
        return out

    # -- meetings

    def _unseen(self, obs: dict[str, JSON]) -> list[str]:
        seen = set(obs["hand"])
        for t in obs["tricks"]:
            seen.update(t["cards"])
        seen.update(c for c in obs["table"] if c is not None)
        if obs["lead_declarations"]:
            seen.update(c for c in obs["lead_declarations"] if c is not None)
        if obs["my_lead_declaration"]:
            seen.add(obs["my_lead_declaration"])
        return [c for c in round_deck(obs["round"]) if c not in seen]

    def _meeting(self, obs: dict[str, JSON], legal: list[Action]) -> int:
        me = self.seat
        leader = obs["leader"]
        table = list(obs["table"])
        later = [(leader + k) % SEATS for k in range(SEATS)]
        later = later[later.index(me) + 1 :]
        pool = self._unseen(obs)
        rights = self._right_values(obs)
        rng = self.rng
        samples = []
        for _ in range(SAMPLES if later else 1):
            picks = list(pool)
            drawn = []
            for _seat in later:
                j = rng.below(len(picks))
                drawn.append(picks[j])
                picks[j] = picks[-1]
                picks.pop()
            samples.append(drawn)
        best_i, best_v = 0, float("-inf")
        for i, a in enumerate(legal):
            card = a["card"]
            total = 0.0
            for drawn in samples:
                cards = list(table)
                cards[me] = card
                for seat, c in zip(later, drawn, strict=True):
                    cards[seat] = c
                s, rh1, rh2 = adopt(cards, [rank(c) for c in cards], leader)
                if rh1 == me:
                    total += rights[s][0]
                elif rh2 == me:
                    total += rights[s][1]
            v = total / len(samples) - self._keep_value(obs, card)
            if v > best_v:
                best_i, best_v = i, v
        return best_i

    def _keep_value(self, obs: dict[str, JSON], card: str) -> float:
        """In round 2 the last card scores its rank if we lead its area: keep a high card of
        the area we top most."""
        if obs["round"] != 2:
            return 0.0
        board = obs["board"]
        mine = sum(1 for sq in AREAS[suit(card)] if board[sq] and board[sq][-1] == self.seat)
        return 0.15 * rank(card) * mine

    def _five(self, obs: dict[str, JSON], legal: list[Action]) -> int:
        me = self.seat
        cards = list(obs["table"])
        values = [5 if v is None else v for v in obs["values"]]
        rights = self._right_values(obs)
        best_i, best_v = 0, float("-inf")
        for i, a in enumerate(legal):
            vals = list(values)
            vals[me] = a["as"]
            s, rh1, rh2 = adopt(cards, vals, obs["leader"])
            v = rights[s][0] if rh1 == me else rights[s][1] if rh2 == me else 0.0
            v -= {5: 0, 0: 1, 10: 2}[a["as"]]
            if v > best_v:
                best_i, best_v = i, v
        return best_i

    def _declare(self, obs: dict[str, JSON], legal: list[Action]) -> int:
        """The lowest card of the suit we hold most of: we will build there most often."""
        hand = obs["hand"]
        counts = {s: sum(1 for c in hand if suit(c) == s) for s in SUITS}
        return min(
            range(len(legal)),
            key=lambda i: (-counts[suit(legal[i]["card"])], rank(legal[i]["card"])),
        )
