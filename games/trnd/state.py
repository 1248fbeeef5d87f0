"""One position of a TRND match: rounds of take-and-discard until someone reaches the target.

Zones (all card types, see ``cards``): each seat's hand (a 9-slot count vector), the draw pile
(a list, top = last), the 8-slot market (-1 marks the slot emptied by a take until its refill),
the discard pile (a list, top = last) and each seat's cleared-out set. The 90 cards are always
spread over exactly these zones.
"""

from __future__ import annotations

from games.base import JSON, Action, GameError, GameState, IllegalAction, Result, competition_ranks
from games.rng import Rng
from games.trnd import cards as C
from games.trnd.rules import can_discard, clear_out_points, cleared_type, is_legal_discard

CHOOSE = "choose_action"
DISCARD = "discard"
OVER = "over"
DRAW: dict[str, str] = {"type": "draw"}
_SLOTS = range(C.MARKET_SLOTS)


class TrndState(GameState):
    __slots__ = (
        "deck",
        "hands",
        "history",
        "known",
        "market",
        "max_rounds",
        "n",
        "out",
        "phase",
        "pile",
        "reason",
        "rng",
        "round",
        "round_points",
        "seat",
        "square",
        "start_seat",
        "taken_slot",
        "target",
        "totals",
        "turn",
    )

    n: int
    target: int
    max_rounds: int
    square: bool
    rng: Rng
    round: int
    start_seat: int
    seat: int
    phase: str
    taken_slot: int
    turn: int
    reason: str
    deck: list[int]
    market: list[int]
    pile: list[int]
    hands: list[list[int]]
    known: list[list[int]]
    out: list[list[int] | None]
    totals: list[int]
    round_points: list[int]
    history: list[list[int]]

    def __init__(self) -> None:  # filled by ``new`` or ``from_json``
        self.n = 0

    # ----------------------------------------------------------------- setup

    @classmethod
    def new(cls, players: int, seed: int, target: int, max_rounds: int, square: bool) -> TrndState:
        s = cls()
        s.n = players
        s.target = target
        s.max_rounds = max_rounds
        s.square = square
        s.rng = Rng(seed)
        s.totals = [0] * players
        s.history = []
        s.turn = 0
        s.reason = ""
        s.round = 0
        s.start_seat = players - 1  # the first deal passes the marker to seat 0
        s._start_round()
        return s

    def _start_round(self) -> list[dict[str, JSON]]:
        """Shuffle all 90 cards, deal, lay out the market and the first discard."""
        n = self.n
        self.round += 1
        self.start_seat = (self.start_seat + 1) % n
        deck = [t for t in C.TYPES for _ in range(C.COPIES)]
        self.rng.shuffle(deck)
        size = C.DEAL[n][0]
        self.hands = []
        for _ in range(n):
            hand = [0] * 9
            for _ in range(size):
                hand[deck.pop()] += 1
            self.hands.append(hand)
        self.market = [deck.pop() for _ in range(C.MARKET_SLOTS)]
        self.pile = [deck.pop()]
        self.deck = deck
        self.known = [[0] * 9 for _ in range(n)]
        self.out = [None] * n
        self.round_points = [0] * n
        self.seat = self.start_seat
        self.phase = CHOOSE
        self.taken_slot = -1
        return [
            {
                "type": "round_start",
                "round": self.round,
                "start_seat": self.start_seat,
                "market": [C.NAMES[t] for t in self.market],
                "discard_top": C.NAMES[self.pile[-1]],
                "draw_pile": len(deck),
                "hand_size": size,
            }
        ]

    # ------------------------------------------------------------- interface

    @property
    def players(self) -> int:
        return self.n

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

    # --------------------------------------------------------------- moves

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

    # -------------------------------------------------------------- results

    def result(self) -> Result:
        if self.phase != OVER:
            raise GameError("trnd: the game is not over yet, there is no result")
        n, first = self.n, self.start_seat
        # Tie-break: later in the final round's turn order (counted from its start player)
        # ranks higher, so ranks are strict.
        keys = [(self.totals[s], (s - first) % n) for s in range(n)]
        return Result(
            list(self.totals), competition_ranks(keys), self.reason, {"rounds": self.round}
        )

    # ---------------------------------------------------------- observation

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

    # --------------------------------------------------------- serialisation

    def to_json(self) -> dict[str, JSON]:
        return {
            "game": "trnd",
            "players": self.n,
            "target": self.target,
            "max_rounds": self.max_rounds,
            "square": self.square,
            "rng": self.rng.state,
            "round": self.round,
            "start_seat": self.start_seat,
            "seat": self.seat,
            "phase": self.phase,
            "taken_slot": self.taken_slot,
            "turn": self.turn,
            "reason": self.reason,
            "deck": list(self.deck),
            "market": list(self.market),
            "pile": list(self.pile),
            "hands": [list(h) for h in self.hands],
            "known": [list(k) for k in self.known],
            "out": [None if o is None else list(o) for o in self.out],
            "totals": list(self.totals),
            "round_points": list(self.round_points),
            "history": [list(r) for r in self.history],
        }

    @classmethod
    def from_json(cls, data: dict[str, JSON]) -> TrndState:
        try:
            s = cls()
            s.n = int(data["players"])
            s.target = int(data["target"])
            s.max_rounds = int(data["max_rounds"])
            s.square = bool(data["square"])
            s.rng = Rng(int(data["rng"]))
            s.round = int(data["round"])
            s.start_seat = int(data["start_seat"])
            s.seat = int(data["seat"])
            s.phase = str(data["phase"])
            s.taken_slot = int(data["taken_slot"])
            s.turn = int(data["turn"])
            s.reason = str(data["reason"])
            s.deck = [int(t) for t in data["deck"]]
            s.market = [int(t) for t in data["market"]]
            s.pile = [int(t) for t in data["pile"]]
            s.hands = [[int(k) for k in h] for h in data["hands"]]
            s.known = [[int(k) for k in h] for h in data["known"]]
            s.out = [None if o is None else [int(o[0]), int(o[1])] for o in data["out"]]
            s.totals = [int(x) for x in data["totals"]]
            s.round_points = [int(x) for x in data["round_points"]]
            s.history = [[int(x) for x in r] for r in data["history"]]
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise GameError(f"trnd: malformed state JSON ({type(exc).__name__}: {exc})") from None
        s._check()
        return s

    def card_census(self) -> list[int]:
        """Cards of each type over all zones: deck, pile, market, hands, cleared-out sets."""
        counts = [0] * 9
        for t in self.deck + self.pile + [t for t in self.market if t >= 0]:
            counts[t] += 1
        for h in self.hands:
            for t in C.TYPES:
                counts[t] += h[t]
        for o in self.out:
            if o is not None:
                counts[o[0]] += o[1]
        return counts

    def _check(self) -> None:
        """Structural checks with clear messages, so a bad saved state fails at load time."""
        n = self.n
        problems = []
        if n not in C.DEAL:
            problems.append(f"players must be 3 to 5, got {n}")
        elif not (
            len(self.hands)
            == len(self.known)
            == len(self.out)
            == len(self.totals)
            == len(self.round_points)
            == n
        ):
            problems.append("per-seat lists must have one entry per player")
        elif any(len(h) != 9 for h in self.hands + self.known):
            problems.append("hands must be 9-slot count vectors")
        elif len(self.market) != C.MARKET_SLOTS:
            problems.append("the market must have 8 slots")
        elif self.phase not in (CHOOSE, DISCARD, OVER):
            problems.append(f"unknown phase {self.phase!r}")
        elif not self.pile or not 0 <= self.seat < n:
            problems.append("empty discard pile or bad seat")
        elif not all(0 <= t < 9 for t in self.deck + self.pile) or not all(
            -1 <= t < 9 for t in self.market
        ):
            problems.append("card types must be 0 to 8 (market slots may be -1)")
        elif any(k < 0 for h in self.hands + self.known for k in h) or any(
            o is not None and not (0 <= o[0] < 9 and o[1] > 0) for o in self.out
        ):
            problems.append("negative card counts or a bad cleared-out set")
        elif self.market.count(-1) != (self.phase == DISCARD) or (
            self.phase == DISCARD
            and not (0 <= self.taken_slot < C.MARKET_SLOTS and self.market[self.taken_slot] == -1)
        ):
            problems.append("exactly the taken slot is empty, and only in the discard phase")
        else:
            counts = self.card_census()
            if counts != [C.COPIES] * 9:
                problems.append(f"cards per type must be 10 each, got {counts}")
        if problems:
            raise GameError(f"trnd: malformed state JSON ({'; '.join(problems)})")

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
