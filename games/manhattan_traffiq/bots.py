"""Built-in bots. They see only the observation and the legal actions, like protocol bots.

``greedy`` rebuilds the map from the observation and scores each option one move deep:
points for a vehicle it can put down now, rival points it would knock off the roads, a small
bonus for setting up a square it can finish with its second placement this turn, and a small
penalty for leaving a nearly complete square to the next player. It always contests, puts
trucks before taxis, and draws when nothing scores.
"""

from __future__ import annotations

from games.base import JSON, Action, Bot
from games.manhattan_traffiq import compete as cmp
from games.manhattan_traffiq.board import (
    Board,
    Cell,
    Node,
    cell_nodes,
    is_spot,
    node_cells,
    roads_through,
    taxi_targets,
)
from games.manhattan_traffiq.components import (
    ACTIONS_PER_TURN,
    MAX_PLACEMENTS,
    POINTS,
    distinct_rotations,
    rotate,
)

SETUP_BONUS = 0.6  # a square this turn's second placement can finish
GIFT_PENALTY = 0.35  # a 3-of-4 square left for the next player
RIVAL_WEIGHT = 1.0  # a rival point removed, relative to one point of our own


class _View:
    """The public map of an observation, rebuilt for look-ahead."""

    def __init__(self, obs: dict[str, JSON]) -> None:
        self.seat: int = obs["seat"]
        self.players: int = obs["players"]
        self.board = Board()
        for x, y, pattern, rot, _ in obs["tiles"]:
            self.board.place(x, y, pattern, rot)
        self.vehicles: dict[Node, tuple[int, str]] = {
            (x, y): (s, k) for x, y, s, k in obs["vehicles"]
        }
        sup = obs["supply"][self.seat]
        self.supply = [sup["taxi"], sup["truck"]]
        self.hand: list[str] = list(obs["hand"])
        self.used: dict[str, JSON] = obs["used"]
        weight = RIVAL_WEIGHT if self.players == 2 else RIVAL_WEIGHT * 0.8
        self.rival_weight = weight

    def removal_gain(self, node: Node, tiles: dict[Cell, str] | None = None) -> float:
        """Rival points knocked off by contesting every road through our vehicle on node."""
        gain = 0
        for road in roads_through(tiles or self.board.tiles, node).values():
            for s in cmp.losers(self.vehicles, road, self.players, self.seat):
                gain += sum(
                    POINTS[k]
                    for n in road
                    if (v := self.vehicles.get(n)) and v[0] == s
                    for k in (v[1],)
                )
        return gain * self.rival_weight

    def vehicle_value(self, node: Node, kind: str, tiles: dict[Cell, str] | None = None) -> float:
        self.vehicles[node] = (self.seat, kind)
        try:
            return POINTS[kind] + self.removal_gain(node, tiles)
        finally:
            del self.vehicles[node]

    def best_kind(
        self, node: Node, supply: list[int], tiles: dict[Cell, str] | None = None
    ) -> tuple[float, int]:
        """(value, kind index) of the best vehicle for node; (0, -1) with an empty supply."""
        best = (0.0, -1)
        for idx, kind in ((1, "truck"), (0, "taxi")):
            if supply[idx] > 0:
                v = self.vehicle_value(node, kind, tiles)
                if v > best[0]:
                    best = (v, idx)
        return best

    def placement_value(
        self, x: int, y: int, edges: str, second_left: bool, rest: list[str]
    ) -> float:
        tiles = self.board.tiles
        cell = (x, y)
        tiles[cell] = edges
        try:
            value = 0.0
            supply = list(self.supply)
            new = [n for n in cell_nodes(cell) if is_spot(tiles, n)]
            for node in new:
                v, idx = self.best_kind(node, supply, tiles)
                if idx >= 0:
                    supply[idx] -= 1
                    value += v
            if new and supply == [0, 0]:
                value += 100  # all vehicles on the map: we win at once
            gifts = _three_of_four(tiles, cell)
            if second_left and gifts and rest:
                setups = [c for c in gifts if _finishable(self.board, c, rest)]
                value += SETUP_BONUS * len(setups)
                gifts = [c for c in gifts if c not in setups]
            value -= GIFT_PENALTY * len(gifts)
            return value
        finally:
            del tiles[cell]

    def best_placement(self, pattern: str) -> float:
        rest = list(self.hand)
        if pattern in rest:
            rest.remove(pattern)
        second = (
            self.used["placed"] + 1 < MAX_PLACEMENTS and self.used["actions"] + 1 < ACTIONS_PER_TURN
        )
        best = -1e9
        rots = distinct_rotations(pattern)
        for cell in self.board.sorted_frontier():
            for _, edges in rots:
                if self.board.fits(cell, edges):
                    best = max(best, self.placement_value(cell[0], cell[1], edges, second, rest))
        return best

    def ride_value(self, start: Node, to: Node) -> float:
        v = self.vehicles.pop(start)
        self.vehicles[to] = v
        try:
            return self.removal_gain(to)
        finally:
            del self.vehicles[to]
            self.vehicles[start] = v


def _three_of_four(tiles: dict[Cell, str], cell: Cell) -> list[Cell]:
    """Empty cells that would complete a square around one of ``cell``'s corners."""
    out = []
    for node in cell_nodes(cell):
        missing = [c for c in node_cells(node) if c not in tiles]
        if len(missing) == 1 and missing[0] not in out:
            out.append(missing[0])
    return out


def _finishable(board: Board, cell: Cell, hand: list[str]) -> bool:
    return any(board.fits(cell, edges) for p in set(hand) for _, edges in distinct_rotations(p))


class GreedyBot(Bot):
    """One-move-deep greedy player (see the module docstring)."""

    def act(self, observation: dict[str, JSON], legal_actions: list[Action]) -> int:
        if len(legal_actions) == 1:
            return 0
        phase = observation["phase"]
        view = _View(observation)
        if phase == "compete":
            return max(range(len(legal_actions)), key=lambda i: len(legal_actions[i]["roads"]))
        if phase == "vehicle":
            node = tuple(observation["pending"]["node"])
            _, idx = view.best_kind(node, view.supply)
            want = {1: "truck", 0: "taxi"}.get(idx, "none")
            return _index(legal_actions, lambda a: a["kind"] == want)
        if phase == "place_where":
            tile = observation["pending"]["tile"]
            second = (
                view.used["placed"] < MAX_PLACEMENTS and view.used["actions"] < ACTIONS_PER_TURN
            )
            scores = []
            for a in legal_actions:
                scores.append(
                    view.placement_value(a["x"], a["y"], rotate(tile, a["rot"]), second, view.hand)
                )
            return _argmax(scores, self)
        if phase == "taxi_to":
            start = tuple(observation["pending"]["taxi"])
            return _argmax(
                [view.ride_value(start, tuple(a["to"])) for a in legal_actions],
                self,
            )
        return self._top_level(view, legal_actions)

    def _top_level(self, view: _View, legal: list[Action]) -> int:
        scores: list[float] = []
        for a in legal:
            t = a["type"]
            if t == "place":
                scores.append(view.best_placement(a["tile"]))
            elif t == "truck":
                scores.append(view.ride_value(tuple(a["from"]), tuple(a["to"])))
            elif t == "taxi":
                start = tuple(a["from"])
                targets = taxi_targets(view.board.tiles, view.vehicles, view.board.spots, start)
                scores.append(max(view.ride_value(start, n) for n in targets))
            elif t == "draw":
                scores.append(0.05)  # better than a move that gains nothing
            else:  # end_turn
                scores.append(0.0)
        # Rides that gain nothing are worth nothing.
        scores = [
            s if (legal[i]["type"] != "taxi" and legal[i]["type"] != "truck") or s > 0 else -0.01
            for i, s in enumerate(scores)
        ]
        return _argmax(scores, self)


def _argmax(scores: list[float], bot: Bot) -> int:
    best = max(scores)
    ties = [i for i, s in enumerate(scores) if s == best]
    return ties[bot.rng.below(len(ties))]


def _index(legal: list[Action], pred: object) -> int:
    for i, a in enumerate(legal):
        if pred(a):  # type: ignore[operator]
            return i
    return 0
