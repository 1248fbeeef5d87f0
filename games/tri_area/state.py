"""One position of a Tri*Area match and its phase machine.

Phases (``phase`` in the state and the observation), each owing one decision of one seat:
``lead_declaration`` and ``sell`` (before round 3), then per trick ``meeting`` (play a card),
``five`` (rounds 2-3: a played 5 may count as 0 or 10), ``build`` (each rightholder) and
``extra`` (additional construction); ``over`` at the end. Seats ``players..3`` are NPCs whose
decisions the engine makes itself inside ``apply``, so ``current_seat()`` is always a real seat.
"""

from __future__ import annotations

from games.base import JSON, Action, IllegalAction
from games.rng import Rng
from games.tri_area import npc
from games.tri_area.board import ADJACENT, AREAS
from games.tri_area.cards import sort_hand
from games.tri_area.position import Event
from games.tri_area.rounds import FIVE_COST, SEATS
from games.tri_area.turns import Turns


class TriAreaState(Turns):
    """A Tri*Area position with the game interface: the fields and the deal in
    ``position.py``, the settlement in ``settlement.py``, the decisions in ``turns.py``."""

    @classmethod
    def new(cls, players: int, seed: int, options: dict[str, JSON]) -> TriAreaState:
        st = cls()
        st.players = players
        st.options = dict(options)
        rng = Rng(seed)
        # "Determine the start player in any appropriate manner": a seeded draw.
        st.start = rng.below(SEATS)
        st.rng = rng.state
        st._start_round(1)
        st._run_npcs([])
        return st

    def current_seat(self) -> int | None:
        return None if self.phase == "over" else self.turn

    def is_over(self) -> bool:
        return self.phase == "over"

    def legal_actions(self) -> list[Action]:
        phase = self.phase
        seat = self.turn
        if seat is None:
            return []
        if phase == "meeting":
            return [{"type": "play", "card": c} for c in self.hands[seat]]
        if phase == "build":
            acts: list[Action] = []
            left = self.supply[seat]
            if left:
                assert self.adopted is not None
                squares = AREAS[self.adopted]
                acts = [{"type": "build", "square": s, "count": 1} for s in squares]
                if self.builder == 1 and left >= 2:
                    acts += [{"type": "build", "square": s, "count": 2} for s in squares]
            acts.append({"type": "decline"})
            return acts
        if phase == "extra":
            assert self.built is not None
            acts = [{"type": "extra", "square": s} for s in ADJACENT[self.built]]
            acts.append({"type": "skip"})
            return acts
        if phase == "five":
            score = self.scores[seat]
            return [{"type": "five", "as": v} for v in (5, 0, 10) if score >= FIVE_COST[v]]
        if phase == "lead_declaration":
            return [{"type": "declare", "card": c} for c in self.hands[seat]]
        if phase == "sell":
            return [{"type": "sell", "n": n} for n in range(self.supply[seat] + 1)]
        return []

    def apply(self, action: Action) -> list[Event]:
        if self.phase == "over":
            raise IllegalAction("tri-area: the game is over; no action is legal")
        legal = self.legal_actions()
        for canonical in legal:
            if canonical == action and _same_types(canonical, action):
                break
        else:
            raise IllegalAction(
                f"tri-area: {action!r} is not legal for seat {self.turn} in phase "
                f"{self.phase!r} (legal: {legal})"
            )
        events = self._do(canonical)
        self._run_npcs(events)
        return events

    def _run_npcs(self, events: list[Event]) -> None:
        """Play NPC seats until a real seat owes a decision or the game ends."""
        while self.turn is not None and self.turn >= self.players:
            seat = self.turn
            action = npc.choose(
                self.phase,
                self.hands[seat],
                self.board,
                self.legal_actions(),
                self.adopted,
                self.built,
                ADJACENT[self.built] if self.built is not None else (),
            )
            events.extend(self._do(action))

    def observation(self, seat: int) -> dict[str, JSON]:
        in_lead = self.phase == "lead_declaration"
        return {
            "seat": seat,
            "players": self.players,
            "npc_seats": list(range(self.players, SEATS)),
            "round": self.round,
            "trick": self.trick,
            "phase": self.phase,
            "to_act": self.current_seat(),
            "start_player": self.start,
            "leader": self.leader,
            "hand": list(self.hands[seat]),
            "hand_sizes": [len(h) for h in self.hands],
            "scores": list(self.scores),
            "supply": list(self.supply),
            "sold": list(self.sold),
            "board": [list(s) for s in self.board],
            "table": list(self.table),
            "values": list(self.values),
            "adopted": self.adopted,
            "rightholders": list(self.rh),
            "builder": self.builder if self.phase in ("build", "extra") else None,
            "built_square": self.built,
            "my_lead_declaration": self.lead_decl[seat],
            "lead_declarations": list(self.lead_decl) if self.revealed else None,
            "declared": [c is not None for c in self.lead_decl] if in_lead else None,
            "tricks": [dict(t) for t in self.tricks],
            "history": list(self.history),
            "options": dict(self.options),
        }

    def clone(self) -> TriAreaState:
        return TriAreaState.from_json(self.to_json())

    def resample_hidden(self, seat: int, seed: int) -> TriAreaState:
        """Redeal the cards ``seat`` cannot see (others' hands and, before the reveal, others'
        lead declarations) keeping every count, and reseed the RNG (future deals)."""
        other = self.clone()
        rng = Rng(seed)
        others = [s for s in range(SEATS) if s != seat]
        hidden_decl = not other.revealed
        pool: list[str] = []
        for s in others:
            pool.extend(other.hands[s])
            pending = other.lead_decl[s]
            if hidden_decl and pending is not None:
                pool.append(pending)
        rng.shuffle(pool)
        for s in others:
            n = len(other.hands[s])
            other.hands[s] = pool[:n]
            del pool[:n]
            sort_hand(other.hands[s])
            if hidden_decl and other.lead_decl[s] is not None:
                other.lead_decl[s] = pool.pop()
        other.rng = rng.next64()
        return other


def _same_types(a: JSON, b: JSON) -> bool:
    """``True == 1`` and ``1.0 == 1`` in Python; actions must match as JSON values."""
    if isinstance(a, dict):
        return isinstance(b, dict) and all(_same_types(a[k], b[k]) for k in a)
    return type(a) is type(b)
