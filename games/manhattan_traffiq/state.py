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

from games.base import JSON, GameError, IllegalAction
from games.manhattan_traffiq import compete as cmp
from games.manhattan_traffiq.board import (
    has_empty_neighbour,
    roads_through,
    taxi_targets,
    truck_targets,
)
from games.manhattan_traffiq.components import (
    ACTIONS_PER_TURN,
    KINDS,
    MAX_DRAWS,
    MAX_PLACEMENTS,
)
from games.manhattan_traffiq.position import PHASES, Event, xy
from games.manhattan_traffiq.turns import TurnMoves
from games.rng import Rng

__all__ = ["PHASES", "Event", "TraffiqState"]


class TraffiqState(TurnMoves):
    """A Manhattan TraffIQ position with the game interface: the fields, JSON and result in
    ``position.py``, the turn's moves in ``turns.py``."""

    game: ClassVar[Any]

    def current_seat(self) -> int | None:
        return None if self.phase == "over" else self.current

    def is_over(self) -> bool:
        return self.phase == "over"

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
            node = xy(self.queue[0])
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
                    if k == "taxi" and has_empty_neighbour(tiles, self.vehicles, spots, n)
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

    def apply(self, action: JSON) -> list[Event]:
        if self.phase == "over":
            raise IllegalAction("manhattan-traffiq: the game is over; no action is legal")
        legal = self._legal if self._legal is not None else self.legal_actions()
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

    def observation(self, seat: int) -> dict[str, JSON]:
        if not 0 <= seat < self._players:
            raise GameError(f"manhattan-traffiq: no seat {seat} in a {self._players}-player game")
        pending: dict[str, JSON] = {}
        if self.phase == "place_where":
            pending = {"tile": self.tile}
        elif self.phase == "taxi_to":
            pending = {"taxi": xy(self.taxi_from)}
        elif self.phase == "vehicle":
            pending = {"node": xy(self.queue[0]), "queue": [xy(n) for n in self.queue[1:]]}
        elif self.phase == "compete":
            assert self.compete_node is not None
            pending = {
                "node": xy(self.compete_node),
                "roads": {
                    k: [xy(n) for n in v]
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
            # Fresh lists from the board's kept rows: a bot may change what it is given.
            "tiles": list(map(list, self.board.shown)),
            "spots": list(map(list, self.board.sorted_spots())),
            "vehicles": [[n[0], n[1], s, k] for n, (s, k) in sorted(self.vehicles.items())],
            "supply": [{"taxi": t, "truck": k} for t, k in self.supply],
            "points": self.all_points(),
            "hand": list(self.hands[seat]),
            "hand_sizes": [len(h) for h in self.hands],
            "stack": len(self.stack),
            "final_round": self.final_left is not None,
            "final_turns_left": self.final_left,
            "options": dict(self.options),
        }

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
