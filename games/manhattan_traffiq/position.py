"""The fields of a Manhattan TraffIQ position, the opening deal, its JSON form and the result.

:class:`TraffiqPosition` is the bottom of the state's layers: the turn's moves (``turns.py``)
build on it, and ``state.py`` puts the interface on top.
"""

from __future__ import annotations

from typing import Any, Self

from games.base import JSON, GameError, GameState, Result, competition_ranks
from games.manhattan_traffiq.board import Board, Node
from games.manhattan_traffiq.components import (
    ALL_PATTERNS,
    KINDS,
    OPENING_HAND,
    POINTS,
    START_TILES,
    VEHICLES,
    city_stack,
)
from games.rng import Rng

PHASES = ("action", "place_where", "taxi_to", "vehicle", "compete", "over")
Event = dict[str, JSON]


def fresh_used() -> dict[str, Any]:
    return {"actions": 0, "placed": 0, "drawn": 0, "taxi": False, "truck": False}


def xy(node: Node | None) -> list[int] | None:
    return None if node is None else [node[0], node[1]]


def _node(value: JSON) -> Node | None:
    return None if value is None else (int(value[0]), int(value[1]))


class TraffiqPosition(GameState):
    """Mutable match state; plain ints, strings, lists and dicts plus the :class:`Board`."""

    def __init__(self) -> None:
        self._players = 0
        self.options: dict[str, JSON] = {}
        self.rng = 0
        self.stack: list[str] = []  # face down; the next draw is the last element
        self.hands: list[list[str]] = []  # each kept sorted
        self.board = Board()
        self.vehicles: dict[Node, tuple[int, str]] = {}
        self.supply: list[list[int]] = []  # per seat [taxis, trucks] not on the map
        self.current = 0
        self.phase = "action"
        self.turn = 1
        self.used: dict[str, Any] = fresh_used()
        self.tile: str | None = None  # chosen tile while placing it
        self.taxi_from: Node | None = None  # chosen taxi while riding
        self.queue: list[Node] = []  # completed spots still waiting for a vehicle decision
        self.compete_node: Node | None = None
        self.final_left: int | None = None  # turns left once the stack is empty
        self.winner: int | None = None  # seat that placed all its vehicles
        self.end_reason: str | None = None
        self._legal: list[JSON] | None = None

    @classmethod
    def new(cls, players: int, seed: int, options: dict[str, JSON]) -> Self:
        s = cls()
        s._players = players
        s.options = dict(options)
        rng = Rng(seed)
        s.stack = city_stack()
        rng.shuffle(s.stack)
        s.hands = [sorted(s.stack.pop() for _ in range(OPENING_HAND)) for _ in range(players)]
        s.rng = rng.state
        s.board = Board.from_placed(list(START_TILES))
        taxis, trucks = VEHICLES[players]
        s.supply = [[taxis, trucks] for _ in range(players)]
        return s

    @property
    def players(self) -> int:
        return self._players

    def points(self, seat: int) -> int:
        return sum(POINTS[k] for s, k in self.vehicles.values() if s == seat)

    def all_points(self) -> list[int]:
        """``points`` of every seat, in one pass over the vehicles."""
        pts = [0] * self._players
        for s, k in self.vehicles.values():
            pts[s] += POINTS[k]
        return pts

    def on_map(self, seat: int) -> int:
        return sum(1 for s, _ in self.vehicles.values() if s == seat)

    def result(self) -> Result:
        if self.phase != "over":
            raise GameError("manhattan-traffiq: the game is not over yet, there is no result")
        pts = [self.points(s) for s in range(self._players)]
        cnt = [self.on_map(s) for s in range(self._players)]
        by_count = self.options.get("scoring", "vehicles") == "vehicles"
        scores: list[int | float] = list(cnt if by_count else pts)
        keys = [(c, p) if by_count else (p, c) for p, c in zip(pts, cnt, strict=True)]
        if self.winner is None:
            ranks = competition_ranks(keys)
        else:
            w = self.winner
            ranks = [
                1
                if s == w
                else 2 + sum(1 for o in range(self._players) if o != w and keys[o] > keys[s])
                for s in range(self._players)
            ]
        return Result(
            scores=scores,
            ranks=ranks,
            reason=self.end_reason or "normal",
            details={
                "points": pts,
                "vehicles_on_map": cnt,
                "winner": self.winner,
                "turns": self.turn,
            },
        )

    def to_json(self) -> dict[str, JSON]:
        return {
            "players": self._players,
            "options": dict(self.options),
            "rng": self.rng,
            "stack": list(self.stack),
            "hands": [list(h) for h in self.hands],
            "tiles": [[x, y, p, r] for x, y, p, r in self.board.placed],
            "vehicles": [[n[0], n[1], s, k] for n, (s, k) in self.vehicles.items()],
            "supply": [list(p) for p in self.supply],
            "current": self.current,
            "phase": self.phase,
            "turn": self.turn,
            "used": dict(self.used),
            "tile": self.tile,
            "taxi_from": xy(self.taxi_from),
            "queue": [xy(n) for n in self.queue],
            "compete_node": xy(self.compete_node),
            "final_left": self.final_left,
            "winner": self.winner,
            "end_reason": self.end_reason,
        }

    @classmethod
    def from_json(cls, data: dict[str, JSON]) -> Self:
        try:
            s = cls()
            s._players = int(data["players"])
            if s._players not in VEHICLES:
                raise GameError(f"manhattan-traffiq: bad player count {s._players}")
            s.options = dict(data["options"])
            s.rng = int(data["rng"])
            s.stack = [str(p) for p in data["stack"]]
            s.hands = [[str(p) for p in h] for h in data["hands"]]
            placed = [(int(x), int(y), str(p), int(r)) for x, y, p, r in data["tiles"]]
            for p in [*s.stack, *(p for h in s.hands for p in h), *(t[2] for t in placed)]:
                if p not in ALL_PATTERNS:
                    raise GameError(f"manhattan-traffiq: unknown tile {p!r} in state")
            s.board = Board.from_placed(placed)
            s.vehicles = {
                (int(x), int(y)): (int(seat), str(k)) for x, y, seat, k in data["vehicles"]
            }
            s.supply = [[int(t), int(k)] for t, k in data["supply"]]
            s.current = int(data["current"])
            s.phase = str(data["phase"])
            if s.phase not in PHASES:
                raise GameError(f"manhattan-traffiq: unknown phase {s.phase!r} in state")
            s.turn = int(data["turn"])
            s.used = dict(data["used"])
            s.tile = data["tile"]
            s.taxi_from = _node(data["taxi_from"])
            s.queue = [(int(n[0]), int(n[1])) for n in data["queue"]]
            s.compete_node = _node(data["compete_node"])
            s.final_left = data["final_left"]
            s.winner = data["winner"]
            s.end_reason = data["end_reason"]
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            if isinstance(exc, GameError):
                raise
            raise GameError(f"manhattan-traffiq: malformed state JSON ({exc!r})") from None
        s._check(data)
        return s

    def _check(self, data: dict[str, JSON]) -> None:
        """Consistency checks with clear messages, so a bad saved state fails at load time
        rather than at a later move (as TRND's state validation does). The tile mix is not
        checked: hand-built test positions lay out any map."""
        n = self._players
        problems: list[str] = []
        cells = [(x, y) for x, y, _, _ in self.board.placed]
        owned = VEHICLES[n]
        if len(self.hands) != n or len(self.supply) != n:
            problems.append(f"hands and supply must have one entry per player ({n})")
        elif not 0 <= self.current < n:
            problems.append(f"current seat {self.current} is not a seat of {n}")
        elif len(set(cells)) != len(cells):
            problems.append("two tiles on the same square")
        elif len(self.vehicles) != len(data["vehicles"]):
            problems.append("two vehicles on the same crossing")
        elif self.tile is not None and self.tile not in ALL_PATTERNS:
            problems.append(f"unknown chosen tile {self.tile!r}")
        else:
            on_map = [[0, 0] for _ in range(n)]
            for node, (seat, kind) in self.vehicles.items():
                if not 0 <= seat < n or kind not in KINDS:
                    problems.append(f"vehicle {kind!r} of seat {seat} at {list(node)} is invalid")
                elif node not in self.board.spots:
                    problems.append(f"the {kind} of seat {seat} at {list(node)} is off the map")
                else:
                    on_map[seat][KINDS.index(kind)] += 1
            for seat in range(n):
                for i, kind in enumerate(KINDS):
                    if on_map[seat][i] > owned[i] or not 0 <= self.supply[seat][i] <= owned[i]:
                        problems.append(
                            f"seat {seat} has {on_map[seat][i]} {kind}s on the map and "
                            f"{self.supply[seat][i]} in supply; it owns {owned[i]}"
                        )
        if problems:
            raise GameError(f"manhattan-traffiq: malformed state JSON ({'; '.join(problems)})")

    def clone(self) -> Self:
        s = type(self)()
        s._players, s.options, s.rng = self._players, dict(self.options), self.rng
        s.stack = list(self.stack)
        s.hands = [list(h) for h in self.hands]
        s.board = self.board.copy()
        s.vehicles = dict(self.vehicles)
        s.supply = [list(p) for p in self.supply]
        s.current, s.phase, s.turn = self.current, self.phase, self.turn
        s.used = dict(self.used)
        s.tile, s.taxi_from, s.queue = self.tile, self.taxi_from, list(self.queue)
        s.compete_node, s.final_left = self.compete_node, self.final_left
        s.winner, s.end_reason = self.winner, self.end_reason
        return s
