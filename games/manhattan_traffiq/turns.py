"""The moves of a Manhattan TraffIQ turn, one method per kind of decision: choose and place a
tile, ride a taxi or a truck, draw, put a vehicle on a completed spot, contest roads, and end
the turn or the game."""

from __future__ import annotations

from games.manhattan_traffiq import compete as cmp
from games.manhattan_traffiq.board import Node, roads_through
from games.manhattan_traffiq.components import ACTIONS_PER_TURN, KINDS, rotate
from games.manhattan_traffiq.position import Event, TraffiqPosition, fresh_used, xy


class TurnMoves(TraffiqPosition):
    """Applies one legal action of the seat to act and moves the phase on."""

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
                "completed": [xy(n) for n in new],
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
                "from": xy(start),
                "to": xy(to),
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
            events.append({"type": "vehicle_declined", "seat": self.current, "node": xy(node)})
            self._continue(events)
            return
        self.supply[self.current][KINDS.index(kind)] -= 1
        self.vehicles[node] = (self.current, kind)
        events.append(
            {"type": "vehicle_placed", "seat": self.current, "node": xy(node), "kind": kind}
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
                    "node": xy(node),
                    "road": name,
                    "nodes": [xy(n) for n in roads[name]],
                    "strengths": power,
                    "removed": [
                        {"seat": s, "vehicles": [[n[0], n[1], k] for n, k in gone]}
                        for s, gone in sorted(lost.items())
                    ],
                }
            )
        if not names:
            events.append({"type": "compete_declined", "seat": self.current, "node": xy(node)})
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
        self.used = fresh_used()
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
