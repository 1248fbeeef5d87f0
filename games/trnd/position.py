"""The zones and counters of a TRND position, the deal of each round, its JSON form (checked
on load) and the result.

:class:`TrndPosition` is the bottom of the state's layers: the moves (``turns.py``) build on
it, and ``state.py`` puts the interface on top.
"""

from __future__ import annotations

from typing import Self

from games.base import JSON, GameError, GameState, Result, competition_ranks
from games.rng import Rng
from games.trnd import cards as C

CHOOSE = "choose_action"
DISCARD = "discard"
OVER = "over"
DRAW: dict[str, str] = {"type": "draw"}


class TrndPosition(GameState):
    """Every zone as plain lists and counts (see ``to_json`` for the fields)."""

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

    @classmethod
    def new(cls, players: int, seed: int, target: int, max_rounds: int, square: bool) -> Self:
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

    @property
    def players(self) -> int:
        return self.n

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
    def from_json(cls, data: dict[str, JSON]) -> Self:
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
