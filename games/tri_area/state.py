"""One position of a Tri*Area match and its phase machine.

Phases (``phase`` in the state and the observation), each owing one decision of one seat:
``lead_declaration`` and ``sell`` (before round 3), then per trick ``meeting`` (play a card),
``five`` (rounds 2-3: a played 5 may count as 0 or 10), ``build`` (each rightholder) and
``extra`` (additional construction); ``over`` at the end. Seats ``players..3`` are NPCs whose
decisions the engine makes itself inside ``apply``, so ``current_seat()`` is always a real seat.
"""

from __future__ import annotations

from typing import Any

from games.base import JSON, Action, GameError, GameState, IllegalAction, Result, competition_ranks
from games.rng import Rng
from games.tri_area import npc
from games.tri_area.board import ADJACENT, AREAS, BONUS, SUITS
from games.tri_area.cards import rank, round_deck, sort_hand
from games.tri_area.meeting import adopt
from games.tri_area.rounds import (
    BLOCKS,
    FIVE_COST,
    HAND_SIZE,
    ROUNDS,
    SEATS,
    SELL_PRICE,
    TRICKS,
    UNPLACED_COST,
)
from games.tri_area.scoring import area_awards, area_places, best_five_outcome, tallest_awards

Event = dict[str, JSON]

_FIELDS = (
    "players",
    "options",
    "rng",
    "round",
    "trick",
    "phase",
    "start",
    "leader",
    "turn",
    "pos",
    "hands",
    "supply",
    "sold",
    "scores",
    "board",
    "table",
    "values",
    "adopted",
    "rh",
    "builder",
    "built",
    "lead_decl",
    "revealed",
    "tricks",
    "history",
)


class TriAreaState(GameState):
    """The whole match as plain ints, strings and lists (see ``to_json`` for the fields)."""

    def __init__(self) -> None:
        self.players = 4
        self.options: dict[str, JSON] = {}
        self.rng = 0
        self.round = 1
        self.trick = 1
        self.phase = "meeting"
        self.start = 0  # the round's start player
        self.leader = 0  # the current trick's leader
        self.turn: int | None = 0  # the seat owing the next decision (NPCs included)
        self.pos = 0  # how many seats have acted in the current ordered phase
        self.hands: list[list[str]] = [[] for _ in range(SEATS)]
        self.supply = [0] * SEATS  # blocks in front of each seat
        self.sold = [0] * SEATS
        self.scores = [0] * SEATS
        self.board: list[list[int]] = [[] for _ in range(16)]
        self.table: list[str | None] = [None] * SEATS  # cards played this trick
        self.values: list[int | None] = [None] * SEATS  # their effective ranks
        self.adopted: str | None = None
        self.rh: list[int | None] = [None, None]
        self.builder = 0  # 0: Rightholder 1 builds, 1: Rightholder 2
        self.built: int | None = None  # square of the basic construction (for ``extra``)
        self.lead_decl: list[str | None] = [None] * SEATS
        self.revealed = False
        self.tricks: list[dict[str, JSON]] = []  # this round's meetings, public
        self.history: list[dict[str, JSON]] = []  # per-round settlement summaries, public

    # ------------------------------------------------------------------ setup

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

    def _start_round(self, round_no: int) -> list[Event]:
        self.round = round_no
        rng = Rng(self.rng)
        if round_no > 1:
            # Highest score starts; a tie goes to the first tied seat clockwise from the
            # previous start player [INTERP].
            best = max(self.scores)
            self.start = next(
                (self.start + k) % SEATS
                for k in range(SEATS)
                if self.scores[(self.start + k) % SEATS] == best
            )
        deck = round_deck(round_no)
        rng.shuffle(deck)
        self.rng = rng.state
        size = HAND_SIZE[round_no]
        self.hands = [deck[i * size : (i + 1) * size] for i in range(SEATS)]
        for hand in self.hands:
            sort_hand(hand)
        self.supply = [BLOCKS[round_no]] * SEATS
        self.sold = [0] * SEATS
        self.board = [[] for _ in range(16)]
        self.lead_decl = [None] * SEATS
        self.revealed = False
        self.tricks = []
        self.trick = 1
        self.leader = self.start
        # The last meeting belongs to the last round: round 3 opens with declarations and
        # sales, and its observation must not show the old table as current.
        self._clear_meeting()
        events: list[Event] = [
            {
                "type": "round_start",
                "round": round_no,
                "start_player": self.start,
                "hand_size": size,
                "blocks": BLOCKS[round_no],
            }
        ]
        if round_no == 3:
            self.phase = "lead_declaration"
            self.pos = 0
            self.turn = self.start
        else:
            self._begin_trick()
        return events

    def _begin_trick(self) -> None:
        self.phase = "meeting"
        self.pos = 0
        self.turn = self.leader
        self._clear_meeting()

    def _clear_meeting(self) -> None:
        self.table = [None] * SEATS
        self.values = [None] * SEATS
        self.adopted = None
        self.rh = [None, None]
        self.builder = 0
        self.built = None

    # ------------------------------------------------------------------ interface

    @property
    def players(self) -> int:  # type: ignore[override]
        return self._players

    @players.setter
    def players(self, n: int) -> None:
        self._players = n

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

    # ------------------------------------------------------------------ transitions

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

    # ------------------------------------------------------------------ settlement

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

    # ------------------------------------------------------------------ views

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

    def to_json(self) -> dict[str, JSON]:
        return {
            "players": self.players,
            "options": dict(self.options),
            "rng": self.rng,
            "round": self.round,
            "trick": self.trick,
            "phase": self.phase,
            "start": self.start,
            "leader": self.leader,
            "turn": self.turn,
            "pos": self.pos,
            "hands": [list(h) for h in self.hands],
            "supply": list(self.supply),
            "sold": list(self.sold),
            "scores": list(self.scores),
            "board": [list(s) for s in self.board],
            "table": list(self.table),
            "values": list(self.values),
            "adopted": self.adopted,
            "rh": list(self.rh),
            "builder": self.builder,
            "built": self.built,
            "lead_decl": list(self.lead_decl),
            "revealed": self.revealed,
            "tricks": [_copy_trick(t) for t in self.tricks],
            "history": [dict(h) for h in self.history],
        }

    @classmethod
    def from_json(cls, data: dict[str, JSON]) -> TriAreaState:
        if not isinstance(data, dict):
            raise GameError("tri-area: a state must be a JSON object")
        missing = [f for f in _FIELDS if f not in data]
        if missing:
            raise GameError(f"tri-area: state is missing field(s) {', '.join(missing)}")
        st = cls()
        try:
            st.players = int(data["players"])
            st.options = dict(data["options"])
            st.rng = int(data["rng"])
            st.round = int(data["round"])
            st.trick = int(data["trick"])
            st.phase = str(data["phase"])
            st.start = int(data["start"])
            st.leader = int(data["leader"])
            st.turn = None if data["turn"] is None else int(data["turn"])
            st.pos = int(data["pos"])
            st.hands = [list(h) for h in data["hands"]]
            st.supply = list(data["supply"])
            st.sold = list(data["sold"])
            st.scores = list(data["scores"])
            st.board = [list(s) for s in data["board"]]
            st.table = list(data["table"])
            st.values = list(data["values"])
            st.adopted = data["adopted"]
            st.rh = list(data["rh"])
            st.builder = int(data["builder"])
            st.built = data["built"]
            st.lead_decl = list(data["lead_decl"])
            st.revealed = bool(data["revealed"])
            st.tricks = [_copy_trick(t) for t in data["tricks"]]
            st.history = [dict(h) for h in data["history"]]
        except (TypeError, ValueError) as exc:
            raise GameError(f"tri-area: malformed state ({exc})") from None
        if len(st.hands) != SEATS or len(st.board) != 16 or not 1 <= st.players <= SEATS:
            raise GameError("tri-area: malformed state (wrong number of seats or squares)")
        return st

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


def _copy_trick(t: dict[str, JSON]) -> dict[str, JSON]:
    return {
        "leader": t["leader"],
        "cards": list(t["cards"]),
        "values": list(t["values"]),
        "suit": t["suit"],
        "rightholders": list(t["rightholders"]),
    }


def _same_types(a: JSON, b: JSON) -> bool:
    """``True == 1`` and ``1.0 == 1`` in Python; actions must match as JSON values."""
    if isinstance(a, dict):
        return isinstance(b, dict) and all(_same_types(a[k], b[k]) for k in a)
    return type(a) is type(b)
