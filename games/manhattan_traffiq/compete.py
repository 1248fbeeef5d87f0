"""Competing along the roads through a vehicle that was just placed or moved.

Each rival is compared on their own with the active player: strength on a road is the sum of
a player's vehicles on its nodes (truck 2, taxi 1). A rival with some strength but less than
the active player's loses every vehicle they have on that road; a tie removes nothing.
"""

from __future__ import annotations

from games.manhattan_traffiq.board import Node
from games.manhattan_traffiq.components import POINTS

Vehicles = dict[Node, tuple[int, str]]  # node -> (seat, "taxi" | "truck")


def strengths(vehicles: Vehicles, road: list[Node], players: int) -> list[int]:
    out = [0] * players
    for node in road:
        v = vehicles.get(node)
        if v is not None:
            out[v[0]] += POINTS[v[1]]
    return out


def losers(vehicles: Vehicles, road: list[Node], players: int, seat: int) -> list[int]:
    """Rivals who would lose their vehicles on ``road`` if ``seat`` competes there."""
    power = strengths(vehicles, road, players)
    return [s for s in range(players) if s != seat and 0 < power[s] < power[seat]]


def effective_roads(
    vehicles: Vehicles, roads: dict[str, list[Node]], players: int, seat: int
) -> list[str]:
    """The road names ("h", "v") where competing would remove at least one rival vehicle."""
    return [name for name, road in roads.items() if losers(vehicles, road, players, seat)]


def resolve(
    vehicles: Vehicles, road: list[Node], players: int, seat: int
) -> tuple[list[int], dict[int, list[tuple[Node, str]]]]:
    """Compete on one road: removes the losers' vehicles from ``vehicles`` (in place) and
    returns the strengths before removal and, per losing seat, what it lost."""
    power = strengths(vehicles, road, players)
    lost: dict[int, list[tuple[Node, str]]] = {}
    for s in range(players):
        if s != seat and 0 < power[s] < power[seat]:
            lost[s] = [(n, vehicles[n][1]) for n in road if n in vehicles and vehicles[n][0] == s]
            for n, _ in lost[s]:
                del vehicles[n]
    return power, lost
