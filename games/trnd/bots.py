"""TRND's heuristic bot: one-ply look-ahead over a static estimate of the round's score.

The estimate rests on one fact of the rules: a discard can shed *every* copy of one type, so
what stands between a hand and a clear out is the number of *other types* it holds (junk
groups), not the number of junk cards. A hand is valued as "keep the best type, shed the
others one group per turn": the chance to finish before the draw pile runs out, times the
points of the expected final hand.
"""

from __future__ import annotations

import math

from games.base import JSON, Action, Bot
from games.trnd import cards as C

#: P(a given junk type matches a random discard top) = 5/9, so with g groups left a turn sheds
#: one with probability 1 - (4/9)^g; expected turns to shed g groups is the sum of the inverses.
_MISS = 4 / 9
_TURNS_TO_SHED = [0.0]
for _g in range(1, 10):
    _TURNS_TO_SHED.append(_TURNS_TO_SHED[-1] + 1 / (1 - _MISS**_g))


class GreedyBot(Bot):
    """Plays the take/discard (or draw) whose resulting hand has the best estimated value."""

    #: change of the final hand per turn still needed; tuned in self-play (0.5, 0, -0.3): a
    #: small *penalty* wins, since every extra turn also gives the others time to clear out
    gain_per_turn = -0.3
    #: how sharply the chance to finish falls as turns run short (tuned: 1.5, 0.7, 0.4)
    sharpness = 0.7

    def act(self, observation: dict[str, JSON], legal_actions: list[Action]) -> int:
        if len(legal_actions) == 1:
            return 0
        obs = observation
        hand = [0] * 9
        for name, k in obs["hand"].items():
            hand[C.BY_NAME[name]] = k
        active = sum(1 for c in obs["cleared"] if c is None)
        square = obs["scoring"] == "square"
        # my turns after this one: every turn of every active seat uses one draw-pile card
        later = max(0.0, (obs["draw_pile"] - 1) / active)
        if obs["phase"] == "discard":
            best, best_v = 0, -math.inf
            for i, a in enumerate(legal_actions):
                t, k = C.BY_NAME[a["card"]], a["count"]
                hand[t] -= k
                v = self.value(hand, later, square)
                hand[t] += k
                if v > best_v:
                    best, best_v = i, v
            return best
        top = C.BY_NAME[obs["discard_top"]]
        market = [C.BY_NAME[m] for m in obs["market"]]
        best, best_v = 0, self.draw_value(obs, hand, market, later, square)
        for i, a in enumerate(legal_actions):
            if a["type"] != "take":
                continue
            t = market[a["slot"]]
            hand[t] += 1
            v = max(
                (self._after_discard(hand, d, later, square) for d in C.MATCHES[top] if hand[d]),
                default=-math.inf,
            )
            hand[t] -= 1
            if v > best_v:
                best, best_v = i, v
        return best

    def _after_discard(self, hand: list[int], t: int, later: float, square: bool) -> float:
        """The best value over discarding 1..all copies of type ``t``."""
        best = -math.inf
        held = hand[t]
        for k in range(1, held + 1):
            hand[t] = held - k
            best = max(best, self.value(hand, later, square))
        hand[t] = held
        return best

    def draw_value(
        self, obs: dict[str, JSON], hand: list[int], market: list[int], later: float, square: bool
    ) -> float:
        """Expected value of Action B over the cards this seat has not seen."""
        unseen = [C.COPIES - h for h in hand]
        for t in market:
            unseen[t] -= 1
        for name in obs["discard_pile"]:
            unseen[C.BY_NAME[name]] -= 1
        for c in obs["cleared"]:
            if c is not None:
                unseen[C.BY_NAME[c["card"]]] -= c["count"]
        total = sum(unseen)
        if total <= 0:
            return -math.inf
        ev = 0.0
        for t, w in enumerate(unseen):
            if w > 0:
                hand[t] += 1
                ev += w * self.value(hand, later, square)
                hand[t] -= 1
        return ev / total

    def value(self, hand: list[int], later: float, square: bool) -> float:
        """Estimated points this round for ``hand`` at the end of this turn."""
        kinds = sum(1 for k in hand if k)
        if kinds == 0:
            return -1.0  # an empty hand cannot clear out and must draw
        m = max(hand)
        if kinds == 1:
            return float(m * m if square else m)  # clears out now
        need = _TURNS_TO_SHED[kinds - 1]
        chance = 1 / (1 + math.exp(-self.sharpness * (later - need)))
        final = max(0.0, m + self.gain_per_turn * need)
        return chance * (final * final if square else final)
