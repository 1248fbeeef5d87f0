"""The turn machine: rounds, rolls, landing effects, event choices, and the solo AI.

Everything works on the plain state dict ``s`` (see ``state.py``) and an ``Rng`` whose state the
caller stores back. Each step appends public events (dicts with ``"type"``) to ``ev``.
Trishaws are indexed 0..T-1; trishaw ``t`` is seat ``t``, except the solo AI, trishaw 1.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.base import GameError
from games.rng import Rng
from games.trishaw_frenzy import board, scoring
from games.trishaw_frenzy.components import (
    EVENT_BOTTOM,
    EVENT_IDS,
    EVENT_SOLO,
    EVENT_TILES,
    ROUTE_CELLS,
    ROUTE_IDS,
    ROUTE_INDEX,
    TILE_IDS,
)
from games.trishaw_frenzy.geometry import card_tile_to_board, rc

State = dict[str, Any]
Events = list[dict[str, Any]]

LAST = 80  # progress of a route's final square
#: safety cap: a round that lasts this many turns ends as it stands (never seen in play)
MAX_TURNS_PER_ROUND = 600
ROLL: dict[str, Any] = {"type": "roll"}


# ---------------------------------------------------------------- who sits where
def ai_trishaw(s: State) -> int | None:
    return 1 if s["solo"] else None


def view_of(s: State, t: int) -> int:
    """The side of the table a trishaw's rider sits on (0 S, 1 W, 2 N, 3 E); cards drawn by
    that rider are read from there. In solo every card faces the solo rider."""
    if s["solo"]:
        return 0
    if s["players"] == 2:
        return (0, 2)[t]
    return t


def route_tables(s: State) -> tuple[tuple[int, ...], tuple[int, ...]]:
    r, v = s["route"]
    return ROUTE_CELLS[r][v], ROUTE_INDEX[r][v]


def progress(s: State) -> list[int]:
    index = route_tables(s)[1]
    return [index[c] for c in s["pos"]]


def _check_finish(s: State) -> None:
    """A round ends as soon as any trishaw stands on the route's last square."""
    if s["ending"] is None:
        last = route_tables(s)[0][LAST]
        if last in s["pos"]:
            s["ending"] = "finish"


def _move(s: State, t: int, cell: int, how: str, ev: Events) -> None:
    old = s["pos"][t]
    s["pos"][t] = cell
    index = route_tables(s)[1]
    ev.append(
        {
            "type": "move",
            "trishaw": t,
            "by": how,
            "from": rc(old),
            "to": rc(cell),
            "progress": index[cell],
        }
    )


# ---------------------------------------------------------------- rounds
def start_round(s: State, rng: Rng, ev: Events) -> None:
    """A new map in random order and orientation, fresh decks, the first rider draws a route,
    and every trishaw waits on the route's first square."""
    order = list(range(9))
    rng.shuffle(order)
    s["tiles"] = [[t, rng.below(4)] for t in order]
    routes = list(range(len(ROUTE_IDS)))
    rng.shuffle(routes)
    events = list(range(len(EVENT_IDS)))
    rng.shuffle(events)
    s["route_deck"], s["route_discard"] = routes, []
    s["event_deck"], s["event_discard"] = events, []
    s["event"] = None
    s["ending"] = None
    s["turns"] = 0
    first = s["first"]
    s["route"] = [s["route_deck"].pop(), view_of(s, first)]
    s["pos"] = [route_tables(s)[0][0]] * len(s["pos"])
    s["turn"] = first
    s["phase"] = "roll"
    ev.append(
        {
            "type": "round_start",
            "round": s["round"],
            "first": first,
            "map": [[TILE_IDS[t], o] for t, o in s["tiles"]],
        }
    )
    ev.append(_route_event(s, first))


def _route_event(s: State, by: int) -> dict[str, Any]:
    r, v = s["route"]
    return {"type": "route", "card": ROUTE_IDS[r], "view": v, "by": by, "progress": progress(s)}


def _end_round(
    s: State, rng: Rng, ev: Events, before_deal: Callable[[], None] | None = None
) -> None:
    prog = progress(s)
    places = scoring.round_places(prog)
    vps = [scoring.PLACE_VP[p - 1] for p in places]
    for t, vp in enumerate(vps):
        s["tokens"][t].append(vp)
    ev.append(
        {
            "type": "round_end",
            "round": s["round"],
            "reason": s["ending"],
            "progress": prog,
            "places": places,
            "vp": vps,
            "totals": scoring.totals(s["tokens"], s["bonus"]),
        }
    )
    if s["ending"] == "turn_limit":
        s["capped"] = True
    if s["round"] >= s["rounds"]:
        s["phase"] = "over"
        s["event"] = None
        ranks = scoring.final_ranks(s["tokens"], s["bonus"])
        ev.append(
            {"type": "game_end", "totals": scoring.totals(s["tokens"], s["bonus"]), "ranks": ranks}
        )
        return
    if before_deal is not None:
        before_deal()
    s["round"] += 1
    s["first"] = scoring.next_first_rider(s["tokens"], s["bonus"], s["first"])
    start_round(s, rng, ev)


def end_turn(s: State, rng: Rng, ev: Events, before_deal: Callable[[], None] | None = None) -> None:
    """Close the current turn and run the game on (rounds ending, the solo AI's turns) until a
    real rider owes a roll, or the game is over. ``before_deal`` runs just before a new round
    is dealt (a viewer keeps the round's last position)."""
    while True:
        s["turns"] += 1
        if s["ending"] is None and s["turns"] >= MAX_TURNS_PER_ROUND:
            s["ending"] = "turn_limit"
        if s["ending"] is not None:
            _end_round(s, rng, ev, before_deal)
            if s["phase"] == "over":
                return
        else:
            s["turn"] = (s["turn"] + 1) % len(s["pos"])
        s["phase"] = "roll"
        if s["turn"] != ai_trishaw(s):
            return
        _ai_turn(s, rng, ev)


# ---------------------------------------------------------------- a turn
def roll(s: State, rng: Rng, ev: Events) -> bool:
    """Roll the D6 for the trishaw whose turn it is, ride forwards, resolve the landing square.
    Returns True when the turn is over (False: the rider now owes an event choice)."""
    t = s["turn"]
    value = rng.randint(1, 6)
    ev.append({"type": "roll", "trishaw": t, "die": 6, "value": value})
    cells, index = route_tables(s)
    target = min(LAST, index[s["pos"][t]] + value)
    _move(s, t, cells[target], "dice", ev)
    if target == LAST:
        s["ending"] = "finish"  # riding over the last square; it is never resolved
        return True
    return _land(s, t, rng, ev)


def _land(s: State, t: int, rng: Rng, ev: Events) -> bool:
    cell = s["pos"][t]
    sq = board.face(s["tiles"], cell)
    if sq == ".":
        return True
    if sq == "P":
        cells, index = route_tables(s)
        dest = board.portal_destination(s["tiles"], cell, cells, index)
        if dest != cell:
            _move(s, t, dest, "portal", ev)
            _check_finish(s)
        return True
    if sq == "E":
        return _draw_event(s, t, rng, ev)
    arrow = board.arrow_destination(s["tiles"], cell)
    assert arrow is not None
    _move(s, t, arrow, "arrow", ev)  # the square reached is not resolved: no chains
    _check_finish(s)
    return True


def _draw_event(s: State, t: int, rng: Rng, ev: Events) -> bool:
    if not s["event_deck"]:  # cannot happen: the round ends with the 12th card
        return True
    card = s["event_deck"].pop()
    v = view_of(s, t)
    s["event"] = [card, v]
    ev.append(
        {
            "type": "event_card",
            "trishaw": t,
            "card": EVENT_IDS[card],
            "view": v,
            "highlight": sorted(EVENT_TILES[card][v]),
            "bottom": EVENT_BOTTOM[card],
        }
    )
    if t == ai_trishaw(s):
        tile, turns = EVENT_SOLO[card]
        _rotate(s, card_tile_to_board(tile, v), turns, t, ev)
        _discard_event(s)
        return True
    s["phase"] = "event"
    return False


def _ai_turn(s: State, rng: Rng, ev: Events) -> None:
    ev.append({"type": "ai_turn", "trishaw": s["turn"]})
    done = roll(s, rng, ev)
    assert done, "the solo AI never owes a decision"


def _discard_event(s: State) -> None:
    s["event_discard"].append(s["event"][0])
    s["event"] = None
    if not s["event_deck"] and s["ending"] is None:
        s["ending"] = "events_exhausted"


def _rotate(s: State, tile: int, turns: int, by: int, ev: Events) -> None:
    moved = board.rotate_tile(s["tiles"], s["pos"], tile, turns, s["carry"])
    index = route_tables(s)[1]
    ev.append(
        {
            "type": "rotate",
            "trishaw": by,
            "tile": tile,
            "turns": turns,
            "moved": [
                {"trishaw": m, "to": rc(s["pos"][m]), "progress": index[s["pos"][m]]} for m in moved
            ],
        }
    )
    _check_finish(s)


# ---------------------------------------------------------------- the event decision
def closest_targets(s: State, t: int) -> list[int]:
    """The other trishaws nearest along the route, skipping any on ``t``'s own square."""
    prog = progress(s)
    here = s["pos"][t]
    gaps = {o: abs(prog[o] - prog[t]) for o in range(len(prog)) if o != t and s["pos"][o] != here}
    if not gaps:
        return []
    best = min(gaps.values())
    return [o for o, g in gaps.items() if g == best]


def event_actions(s: State) -> list[dict[str, Any]]:
    card, v = s["event"]
    t = s["turn"]
    acts: list[dict[str, Any]] = [
        {"type": "rotate", "tile": p, "turns": q}
        for p in sorted(EVENT_TILES[card][v])
        for q in (1, 2, 3)
    ]
    effect = EVENT_BOTTOM[card]
    base = {"type": "bottom", "effect": effect}
    if effect in ("gain_1vp", "forward_d4"):
        acts.append(base)
    elif effect == "change_route":
        if s["route_deck"]:
            acts.append(base)
    elif effect == "swap_tiles":
        free = board.free_tiles(s["pos"])
        acts.extend({**base, "tiles": [a, b]} for i, a in enumerate(free) for b in free[i + 1 :])
    elif effect == "push_back_d4":
        acts.extend({**base, "target": o} for o in range(len(s["pos"])))
    elif effect == "swap_with_closest":
        acts.extend({**base, "target": o} for o in closest_targets(s, t))
    return acts


def legal_actions(s: State) -> list[dict[str, Any]]:
    phase = s["phase"]
    if phase == "roll":
        return [dict(ROLL)]
    if phase == "event":
        return event_actions(s)
    return []


def resolve_event(s: State, action: dict[str, Any], rng: Rng, ev: Events) -> None:
    """Apply a legal event choice for the rider whose turn it is (already checked legal)."""
    t = s["turn"]
    if action["type"] == "rotate":
        _rotate(s, action["tile"], action["turns"], t, ev)
    else:
        _bottom(s, t, action, rng, ev)
    _discard_event(s)


def _bottom(s: State, t: int, action: dict[str, Any], rng: Rng, ev: Events) -> None:
    effect = action["effect"]
    cells, index = route_tables(s)
    if effect == "change_route":
        s["route_discard"].append(s["route"][0])
        s["route"] = [s["route_deck"].pop(), view_of(s, t)]
        ev.append(_route_event(s, t))
        _check_finish(s)
    elif effect == "swap_tiles":
        a, b = action["tiles"]
        board.swap_tiles(s["tiles"], a, b)
        ev.append({"type": "swap_tiles", "trishaw": t, "tiles": [a, b]})
    elif effect == "push_back_d4":
        target = action["target"]
        value = rng.randint(1, 4)
        ev.append({"type": "roll", "trishaw": t, "die": 4, "value": value})
        _move(s, target, cells[max(0, index[s["pos"][target]] - value)], "d4_back", ev)
    elif effect == "gain_1vp":
        s["bonus"][t] += 1
        ev.append({"type": "vp", "trishaw": t, "amount": 1, "reason": "event"})
    elif effect == "swap_with_closest":
        o = action["target"]
        mine, theirs = s["pos"][t], s["pos"][o]
        _move(s, t, theirs, "swap", ev)
        _move(s, o, mine, "swap", ev)
    elif effect == "forward_d4":
        value = rng.randint(1, 4)
        ev.append({"type": "roll", "trishaw": t, "die": 4, "value": value})
        _move(s, t, cells[min(LAST, index[s["pos"][t]] + value)], "d4_forward", ev)
        _check_finish(s)
    else:  # pragma: no cover - the data is validated
        raise GameError(f"unknown bottom effect {effect!r}")
