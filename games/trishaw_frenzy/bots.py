"""Built-in bots. ``RacerBot`` reads only its observation and the legal actions (like a protocol
bot) and picks the event choice that maximises its expected round VP after one look ahead.

How it values a position: each trishaw's *effective progress* is its progress plus the mean
gain of its next D6 roll on the current map (arrows and portals resolved, event squares worth a
little). The chance that another trishaw finishes ahead is a logistic function of the gap,
sharper as the round nears its end; expected place -> expected round VP (6/4/2/1, interpolated),
plus any 1-VP token. Dice and route draws in an option are averaged over their outcomes.

``rebuild_state`` turns an observation back into a full engine state (only the deck orders are
hidden), for search bots. Rollout search built on it did not beat the racer (RULES.md, section 9).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from games.base import JSON, Action, Bot
from games.rng import Rng
from games.trishaw_frenzy import board
from games.trishaw_frenzy.components import (
    EVENT_IDS,
    ROUTE_CELLS,
    ROUTE_IDS,
    ROUTE_INDEX,
    TILE_IDS,
)
from games.trishaw_frenzy.geometry import ARROWS, N, arrow_target
from games.trishaw_frenzy.scoring import PLACE_VP

LAST = 80
EVENT_SQUARE_BONUS = 1.0  # an event square is a chance to act: worth about one square
MEAN_ROLL = 3.5
ROLL_VARIANCE = 35 / 12


class _View:
    """The public position rebuilt from an observation, in engine terms."""

    def __init__(self, obs: dict[str, Any]) -> None:
        self.tiles = [[TILE_IDS.index(t["tile"]), t["turns"]] for t in obs["map"]["tiles"]]
        self.route = ROUTE_IDS.index(obs["route"]["card"])
        self.view = obs["route"]["view"]
        self.pos = [r * N + c for r, c in (t["cell"] for t in obs["trishaws"])]
        self.me = obs["you"]
        self.carry = obs["rotate_carries_trishaws"]
        self.last_event = obs["decks"]["events_left"] == 0
        used = {ROUTE_IDS.index(x) for x in obs["decks"]["route_discard"]} | {self.route}
        self.unseen_routes = [r for r in range(len(ROUTE_IDS)) if r not in used]
        self.my_view = obs["trishaws"][self.me]["view"]


def rebuild_state(obs: dict[str, Any], rng: Rng) -> dict[str, Any]:
    """An engine state dict (``TrishawState(...)``) that the observing seat cannot tell from the
    real one: everything is public but the order of both decks, so the unseen event and route
    cards are shuffled with ``rng``. The turn counter (used only by the 600-turn cap) restarts
    at 0, and the dice state is ``rng``'s next number. This is what a search bot needs to play a
    position out with the engine; the racer itself does not use it."""
    trishaws = obs["trishaws"]
    event = obs["event"]
    current_event = EVENT_IDS.index(event["card"]) if event else None
    event_discard = [EVENT_IDS.index(c) for c in obs["decks"]["event_discard"]]
    seen_events = set(event_discard) | ({current_event} if event else set())
    event_deck = [c for c in range(len(EVENT_IDS)) if c not in seen_events]
    route = ROUTE_IDS.index(obs["route"]["card"])
    route_discard = [ROUTE_IDS.index(c) for c in obs["decks"]["route_discard"]]
    seen_routes = set(route_discard) | {route}
    route_deck = [r for r in range(len(ROUTE_IDS)) if r not in seen_routes]
    rng.shuffle(event_deck)
    rng.shuffle(route_deck)
    return {
        "players": obs["players"],
        "solo": obs["solo"],
        "rounds": obs["rounds"],
        "carry": obs["rotate_carries_trishaws"],
        "round": obs["round"],
        "first": obs["first_rider"],
        "turn": obs["turn"],
        "phase": obs["phase"],
        "tiles": [[TILE_IDS.index(t["tile"]), t["turns"]] for t in obs["map"]["tiles"]],
        "route": [route, obs["route"]["view"]],
        "route_deck": route_deck,
        "route_discard": route_discard,
        "event_deck": event_deck,
        "event_discard": event_discard,
        "event": [current_event, event["view"]] if event else None,
        "pos": [r * N + c for r, c in (t["cell"] for t in trishaws)],
        "tokens": [list(v["rounds"]) for v in obs["vp"]],
        "bonus": [v["bonus"] for v in obs["vp"]],
        "turns": 0,
        "ending": None,
        "capped": False,
        "rng": rng.next64(),
    }


def _next_roll_mean(
    tiles: Sequence[Sequence[int]],
    cells: Sequence[int],
    index: Sequence[int],
    portals: list[int],
    cell: int,
) -> float:
    """Mean progress after one D6 roll from ``cell`` with the landing square resolved."""
    here = index[cell]
    total = 0.0
    for d in range(1, 7):
        q = here + d
        if q >= LAST:
            total += LAST
            continue
        c = cells[q]
        sq = board.face(tiles, c)
        if sq == ".":
            total += q
        elif sq == "E":
            total += q + EVENT_SQUARE_BONUS
        elif sq == "P":
            nxt = next((p for p in portals if p > q), portals[0])
            total += nxt
        else:
            total += index[arrow_target(c, ARROWS.index(sq))]
    return total / 6


def _vp_at_place(place: float) -> float:
    """Round VP at a (fractional) expected place, interpolating 6/4/2/1."""
    place = min(max(place, 1.0), 4.0)
    lo = math.floor(place)
    if lo >= 4:
        return PLACE_VP[3]
    frac = place - lo
    return PLACE_VP[lo - 1] * (1 - frac) + PLACE_VP[lo] * frac


def expected_round_vps(
    tiles: Sequence[Sequence[int]], route: int, view: int, pos: Sequence[int], round_over: bool
) -> list[float]:
    """Every trishaw's expected VP from this round, from the public position."""
    cells, index = ROUTE_CELLS[route][view], ROUTE_INDEX[route][view]
    prog = [index[c] for c in pos]
    if round_over or LAST in prog:
        return [float(PLACE_VP[sum(1 for q in prog if q > p)]) for p in prog]
    portals = sorted(index[c] for c in board.portal_cells(tiles))
    eff = [_next_roll_mean(tiles, cells, index, portals, c) for c in pos]
    remaining = max(1.0, (LAST - max(eff)) / MEAN_ROLL)
    scale = max(0.8, 0.6 * math.sqrt(2 * remaining * ROLL_VARIANCE))
    out = []
    for t, mine in enumerate(eff):
        place = 1.0
        for o, e in enumerate(eff):
            if o != t:
                place += 1 / (1 + math.exp((mine - e) / scale))
        out.append(_vp_at_place(place))
    return out


def expected_round_vp(
    tiles: Sequence[Sequence[int]],
    route: int,
    view: int,
    pos: Sequence[int],
    me: int,
    round_over: bool,
) -> float:
    """The value of a position for trishaw ``me``: its expected VP from this round."""
    return expected_round_vps(tiles, route, view, pos, round_over)[me]


def _outcomes(v: _View, action: dict[str, Any]) -> list[tuple[float, list, int, int, list, float]]:
    """(probability, tiles, route, view, positions, bonus VP) after ``action``."""
    tiles = [list(t) for t in v.tiles]
    pos = list(v.pos)
    if action["type"] == "rotate":
        board.rotate_tile(tiles, pos, action["tile"], action["turns"], v.carry)
        return [(1.0, tiles, v.route, v.view, pos, 0.0)]
    effect = action["effect"]
    cells, index = ROUTE_CELLS[v.route][v.view], ROUTE_INDEX[v.route][v.view]
    if effect == "gain_1vp":
        return [(1.0, tiles, v.route, v.view, pos, 1.0)]
    if effect == "swap_tiles":
        board.swap_tiles(tiles, *action["tiles"])
        return [(1.0, tiles, v.route, v.view, pos, 0.0)]
    if effect == "swap_with_closest":
        o = action["target"]
        pos[v.me], pos[o] = pos[o], pos[v.me]
        return [(1.0, tiles, v.route, v.view, pos, 0.0)]
    if effect == "change_route":
        n = len(v.unseen_routes)
        return [(1 / n, tiles, r, v.my_view, pos, 0.0) for r in v.unseen_routes]
    out = []
    for d in range(1, 5):
        moved = list(pos)
        if effect == "forward_d4":
            moved[v.me] = cells[min(LAST, index[pos[v.me]] + d)]
        else:  # push_back_d4
            t = action["target"]
            moved[t] = cells[max(0, index[pos[t]] - d)]
        out.append((0.25, tiles, v.route, v.view, moved, 0.0))
    return out


class RacerBot(Bot):
    """Greedy one-step evaluator of event choices (rolls have a single option). Maximising
    its own expected round VP did as well as subtracting the rivals' (mean or best) expected
    VP in our trials, so it stays the simple way."""

    def act(self, observation: dict[str, JSON], legal_actions: list[Action]) -> int:
        if len(legal_actions) == 1:
            return 0
        v = _View(observation)
        best, best_value = 0, -math.inf
        for i, action in enumerate(legal_actions):
            value = 0.0
            for prob, tiles, route, view, pos, bonus in _outcomes(v, action):
                vps = expected_round_vps(tiles, route, view, pos, v.last_event)
                value += prob * (vps[v.me] + bonus)
            if value > best_value + 1e-9:
                best, best_value = i, value
        return best
