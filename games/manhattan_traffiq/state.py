"""One position of a Manhattan TraffIQ match and the turn's state machine.

A turn is up to two actions (place a tile, one taxi ride, one truck delivery, draw), each one
decision, with short chains of sub-decisions (``phase``):

* ``action``: choose what to do: ``place`` (which tile), ``taxi`` (which taxi), ``truck``
  (a full delivery), ``draw`` or ``end_turn``;
* ``place_where``: where and how turned the chosen tile goes;
* ``taxi_to``: where the chosen taxi rides;
* ``vehicle``: for each spot the tile completed, put a taxi, a truck or nothing on it;
* ``compete``: after a vehicle was placed or moved, which of the roads through it to contest
  (only asked when contesting would remove a rival vehicle).
"""

from __future__ import annotations

from typing import Any, ClassVar

from games.base import JSON, GameError, GameState, IllegalAction, Result, competition_ranks
from games.manhattan_traffiq import compete as cmp
from games.manhattan_traffiq.board import Board, Node, roads_through, taxi_targets, truck_targets
from games.manhattan_traffiq.components import (
    ACTIONS_PER_TURN,
    ALL_PATTERNS,
    KINDS,
    MAX_DRAWS,
    MAX_PLACEMENTS,
    OPENING_HAND,
    POINTS,
    START_TILES,
    VEHICLES,
    city_stack,
    rotate,
)
from games.rng import Rng

PHASES = ("action", "place_where", "taxi_to", "vehicle", "compete", "over")
Event = dict[str, JSON]


def _fresh_used() -> dict[str, Any]:
    return {"actions": 0, "placed": 0, "drawn": 0, "taxi": False, "truck": False}


def _xy(node: Node | None) -> list[int] | None:
    return None if node is None else [node[0], node[1]]


class TraffiqState(GameState):
    """Mutable match state; plain ints, strings, lists and dicts plus the :class:`Board`."""

    game: ClassVar[Any]

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
        self.used: dict[str, Any] = _fresh_used()
        self.tile: str | None = None  # chosen tile while placing it
        self.taxi_from: Node | None = None  # chosen taxi while riding
        self.queue: list[Node] = []  # completed spots still waiting for a vehicle decision
        self.compete_node: Node | None = None
        self.final_left: int | None = None  # turns left once the stack is empty
        self.winner: int | None = None  # seat that placed all its vehicles
        self.end_reason: str | None = None
        self._legal: list[JSON] | None = None

    # ----------------------------------------------------------------- setup
    @classmethod
    def new(cls, players: int, seed: int, options: dict[str, JSON]) -> TraffiqState:
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

    # ------------------------------------------------------------- queries
    def current_seat(self) -> int | None:
        return None if self.phase == "over" else self.current

    def is_over(self) -> bool:
        return self.phase == "over"

    def points(self, seat: int) -> int:
        return sum(POINTS[k] for s, k in self.vehicles.values() if s == seat)

    def on_map(self, seat: int) -> int:
        return sum(1 for s, _ in self.vehicles.values() if s == seat)

    def legal_actions(self) -> list[JSON]:
        if self._legal is None:
            self._legal = self._generate()
        return list(self._legal)

    def _generate(self) -> list[JSON]:
        phase = self.phase
        if phase == "action":
            return self._top_level()
        if phase == "place_where":
            assert self.tile is not None
            return [
                {"type": "place_at", "x": x, "y": y, "rot": r}
                for x, y, r in self.board.placements(self.tile)
            ]
        if phase == "taxi_to":
            assert self.taxi_from is not None
            return [
                {"type": "taxi_to", "to": [i, j]}
                for i, j in taxi_targets(
                    self.board.tiles, self.vehicles, self.board.spots, self.taxi_from
                )
            ]
        if phase == "vehicle":
            node = _xy(self.queue[0])
            opts: list[JSON] = [
                {"type": "vehicle", "node": node, "kind": k}
                for k, left in zip(KINDS, self.supply[self.current], strict=True)
                if left > 0
            ]
            return [*opts, {"type": "vehicle", "node": node, "kind": "none"}]
        if phase == "compete":
            assert self.compete_node is not None
            roads = cmp.effective_roads(
                self.vehicles,
                roads_through(self.board.tiles, self.compete_node),
                self._players,
                self.current,
            )
            subsets: list[list[str]] = [[], *([r] for r in roads)]
            if len(roads) == 2:
                subsets.append(roads)
            return [{"type": "compete", "roads": sub} for sub in subsets]
        return []

    def _top_level(self) -> list[JSON]:
        used, seat = self.used, self.current
        out: list[JSON] = []
        if used["actions"] < ACTIONS_PER_TURN:
            riding = used["drawn"] == 0  # drawing is always the turn's last action
            if riding and used["placed"] < MAX_PLACEMENTS:
                out += [
                    {"type": "place", "tile": p}
                    for p in sorted(set(self.hands[seat]))
                    if self.board.can_place(p)
                ]
            tiles, spots = self.board.tiles, self.board.spots
            mine = sorted((n, k) for n, (s, k) in self.vehicles.items() if s == seat)
            if riding and not used["taxi"]:
                out += [
                    {"type": "taxi", "from": [n[0], n[1]]}
                    for n, k in mine
                    if k == "taxi" and taxi_targets(tiles, self.vehicles, spots, n)
                ]
            if riding and not used["truck"]:
                out += [
                    {"type": "truck", "from": [n[0], n[1]], "to": [t[0], t[1]]}
                    for n, k in mine
                    if k == "truck"
                    for t in truck_targets(tiles, self.vehicles, spots, n)
                ]
            if self.stack and used["drawn"] < MAX_DRAWS:
                out.append({"type": "draw"})
        if used["actions"] > 0 or not out:
            out.append({"type": "end_turn"})
        return out

    # --------------------------------------------------------------- apply
    def apply(self, action: JSON) -> list[Event]:
        if self.phase == "over":
            raise IllegalAction("manhattan-traffiq: the game is over; no action is legal")
        legal = self.legal_actions()
        try:
            index = legal.index(action)
        except ValueError:
            raise IllegalAction(
                f"manhattan-traffiq: {action!r} is not legal in phase {self.phase!r} "
                f"(seat {self.current}); {len(legal)} legal action(s), e.g. {legal[0]!r}"
            ) from None
        act = legal[index]  # the canonical copy (so 1.0 or True never slip into the state)
        self._legal = None
        kind = act["type"]
        events: list[Event] = []
        if kind == "place":
            self._choose_tile(act["tile"], events)
        elif kind == "place_at":
            self._place_tile(act["x"], act["y"], act["rot"], events)
        elif kind == "taxi":
            self.taxi_from = (act["from"][0], act["from"][1])
            self.phase = "taxi_to"
        elif kind == "taxi_to":
            assert self.taxi_from is not None
            self._ride("taxi", self.taxi_from, (act["to"][0], act["to"][1]), events)
        elif kind == "truck":
            self._ride(
                "truck", (act["from"][0], act["from"][1]), (act["to"][0], act["to"][1]), events
            )
        elif kind == "draw":
            self._draw(events)
        elif kind == "vehicle":
            self._put_vehicle(act["kind"], events)
        elif kind == "compete":
            self._compete(act["roads"], events)
        elif kind == "end_turn":
            self._end_turn(events)
        return events

    def _count_action(self) -> None:
        self.used["actions"] += 1

    def _choose_tile(self, pattern: str, events: list[Event]) -> None:
        # Choosing commits the action: the tile leaves the hand and is shown to all.
        self.hands[self.current].remove(pattern)
        self.tile = pattern
        self.used["placed"] += 1
        self._count_action()
        self.phase = "place_where"
        events.append({"type": "tile_chosen", "seat": self.current, "tile": pattern})

    def _place_tile(self, x: int, y: int, rot: int, events: list[Event]) -> None:
        assert self.tile is not None
        pattern, self.tile = self.tile, None
        new = self.board.place(x, y, pattern, rot)
        events.append(
            {
                "type": "tile_placed",
                "seat": self.current,
                "x": x,
                "y": y,
                "tile": pattern,
                "rot": rot,
                "edges": rotate(pattern, rot),
                "completed": [_xy(n) for n in new],
            }
        )
        self.queue = new
        self._continue(events)

    def _ride(self, kind: str, start: Node, to: Node, events: list[Event]) -> None:
        self.vehicles[to] = self.vehicles.pop(start)
        self.used[kind] = True
        self.taxi_from = None
        self._count_action()
        events.append(
            {
                "type": "taxi_ride" if kind == "taxi" else "truck_delivery",
                "seat": self.current,
                "from": _xy(start),
                "to": _xy(to),
            }
        )
        self._after_vehicle(to, events)

    def _draw(self, events: list[Event]) -> None:
        hand = self.hands[self.current]
        hand.append(self.stack.pop())
        hand.sort()
        self.used["drawn"] += 1
        self._count_action()
        events.append({"type": "tile_drawn", "seat": self.current, "stack_left": len(self.stack)})
        self._continue(events)

    def _put_vehicle(self, kind: str, events: list[Event]) -> None:
        node = self.queue.pop(0)
        if kind == "none":
            events.append({"type": "vehicle_declined", "seat": self.current, "node": _xy(node)})
            self._continue(events)
            return
        self.supply[self.current][KINDS.index(kind)] -= 1
        self.vehicles[node] = (self.current, kind)
        events.append(
            {"type": "vehicle_placed", "seat": self.current, "node": _xy(node), "kind": kind}
        )
        self._after_vehicle(node, events)

    def _after_vehicle(self, node: Node, events: list[Event]) -> None:
        roads = roads_through(self.board.tiles, node)
        if cmp.effective_roads(self.vehicles, roads, self._players, self.current):
            self.compete_node = node
            self.phase = "compete"
            return
        self._check_all_placed(events)
        self._continue(events)

    def _compete(self, names: list[str], events: list[Event]) -> None:
        node, self.compete_node = self.compete_node, None
        assert node is not None
        roads = roads_through(self.board.tiles, node)
        for name in names:
            power, lost = cmp.resolve(self.vehicles, roads[name], self._players, self.current)
            for s, gone in lost.items():
                self.supply[s][0] += sum(1 for _, k in gone if k == "taxi")
                self.supply[s][1] += sum(1 for _, k in gone if k == "truck")
            events.append(
                {
                    "type": "compete",
                    "seat": self.current,
                    "node": _xy(node),
                    "road": name,
                    "nodes": [_xy(n) for n in roads[name]],
                    "strengths": power,
                    "removed": [
                        {"seat": s, "vehicles": [[n[0], n[1], k] for n, k in gone]}
                        for s, gone in sorted(lost.items())
                    ],
                }
            )
        if not names:
            events.append({"type": "compete_declined", "seat": self.current, "node": _xy(node)})
        self._check_all_placed(events)
        self._continue(events)

    def _check_all_placed(self, events: list[Event]) -> None:
        if self.options.get("immediate_win", True) and self.supply[self.current] == [0, 0]:
            self.winner = self.current
            self._finish("all_vehicles_placed", events)

    def _continue(self, events: list[Event]) -> None:
        """Back from a sub-decision: next pending vehicle, else the turn's next action."""
        if self.phase == "over":
            return
        if self.queue and self.supply[self.current] == [0, 0]:
            self.queue = []  # nothing left to put there (only without the immediate win)
        if self.queue:
            self.phase = "vehicle"
            return
        self.phase = "action"
        if self.used["actions"] >= ACTIONS_PER_TURN:
            self._end_turn(events)

    def _end_turn(self, events: list[Event]) -> None:
        events.append({"type": "turn_end", "seat": self.current, "turn": self.turn})
        if self.final_left is not None:
            self.final_left -= 1
        elif not self.stack:
            # The last tile was drawn this turn: everyone, this player included, plays once more.
            self.final_left = self._players
            events.append(
                {"type": "final_round", "seat": self.current, "turns_left": self.final_left}
            )
        if self.final_left == 0:
            self._finish("normal", events)
            return
        if self.turn >= self.options.get("max_turns", 300):
            self._finish("turn_limit", events)
            return
        self.turn += 1
        self.current = (self.current + 1) % self._players
        self.used = _fresh_used()
        self.phase = "action"

    def _finish(self, reason: str, events: list[Event]) -> None:
        self.phase = "over"
        self.end_reason = reason
        self.queue = []
        self.tile = self.taxi_from = self.compete_node = None
        res = self.result()
        events.append(
            {
                "type": "game_end",
                "reason": reason,
                "scores": res.scores,
                "ranks": res.ranks,
                "winner": self.winner,
            }
        )

    # -------------------------------------------------------------- result
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

    # ----------------------------------------------------------- observation
    def observation(self, seat: int) -> dict[str, JSON]:
        if not 0 <= seat < self._players:
            raise GameError(f"manhattan-traffiq: no seat {seat} in a {self._players}-player game")
        pending: dict[str, JSON] = {}
        if self.phase == "place_where":
            pending = {"tile": self.tile}
        elif self.phase == "taxi_to":
            pending = {"taxi": _xy(self.taxi_from)}
        elif self.phase == "vehicle":
            pending = {"node": _xy(self.queue[0]), "queue": [_xy(n) for n in self.queue[1:]]}
        elif self.phase == "compete":
            assert self.compete_node is not None
            pending = {
                "node": _xy(self.compete_node),
                "roads": {
                    k: [_xy(n) for n in v]
                    for k, v in roads_through(self.board.tiles, self.compete_node).items()
                },
            }
        return {
            "seat": seat,
            "players": self._players,
            "turn": self.turn,
            "current": self.current_seat(),
            "phase": self.phase,
            "pending": pending,
            "used": dict(self.used),
            "tiles": [[x, y, p, r, rotate(p, r)] for x, y, p, r in self.board.placed],
            "spots": [_xy(n) for n in sorted(self.board.spots)],
            "vehicles": [[n[0], n[1], s, k] for n, (s, k) in sorted(self.vehicles.items())],
            "supply": [{"taxi": t, "truck": k} for t, k in self.supply],
            "points": [self.points(s) for s in range(self._players)],
            "hand": list(self.hands[seat]),
            "hand_sizes": [len(h) for h in self.hands],
            "stack": len(self.stack),
            "final_round": self.final_left is not None,
            "final_turns_left": self.final_left,
            "options": dict(self.options),
        }

    # ------------------------------------------------------------------ json
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
            "taxi_from": _xy(self.taxi_from),
            "queue": [_xy(n) for n in self.queue],
            "compete_node": _xy(self.compete_node),
            "final_left": self.final_left,
            "winner": self.winner,
            "end_reason": self.end_reason,
        }

    @classmethod
    def from_json(cls, data: dict[str, JSON]) -> TraffiqState:
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

    def clone(self) -> TraffiqState:
        s = TraffiqState()
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

    def resample_hidden(self, seat: int, seed: int) -> TraffiqState:
        """Redeal the stack and the other seats' hands (same sizes) and reseed the RNG."""
        s = self.clone()
        rng = Rng(seed)
        pool = list(s.stack)
        for other in range(self._players):
            if other != seat:
                pool += s.hands[other]
        rng.shuffle(pool)
        for other in range(self._players):
            if other != seat:
                size = len(s.hands[other])
                s.hands[other] = sorted(pool[:size])
                pool = pool[size:]
        s.stack = pool
        s.rng = rng.next64()
        s._legal = None
        return s


def _node(value: JSON) -> Node | None:
    return None if value is None else (int(value[0]), int(value[1]))
