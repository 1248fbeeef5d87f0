"""``TrishawState``: one position of a match as a plain dict, with observation and JSON.

State keys (all JSON): ``players`` (real seats), ``solo``, ``rounds``, ``carry`` (trishaws ride
rotated tiles), ``round`` (1-based), ``first`` and ``turn`` (trishaw indices), ``phase``
(``roll``/``event``/``over``), ``tiles`` (9 ``[tile, quarter_turns]`` by tile position),
``route`` (``[card, view]``), ``route_deck``/``route_discard``, ``event_deck``/``event_discard``
(card indices; a deck's top is its last element), ``event`` (``[card, view]`` being resolved, or
null), ``pos`` (board cell per trishaw), ``tokens`` (round VP tokens per trishaw, in round
order), ``bonus`` (1-VP event tokens per trishaw), ``turns`` (turns taken this round),
``ending`` (why the current round is ending, or null), ``capped`` and ``rng``.
"""

from __future__ import annotations

from typing import Any

from games.base import JSON, Action, GameError, GameState, IllegalAction, Result
from games.rng import Rng
from games.trishaw_frenzy import board, moves, scoring
from games.trishaw_frenzy.components import (
    EVENT_BOTTOM,
    EVENT_IDS,
    EVENT_TILES,
    ROUTE_CELLS,
    ROUTE_IDS,
    ROUTE_INDEX,
    TILE_IDS,
)
from games.trishaw_frenzy.geometry import N

SLUG = "trishaw-frenzy"
_KEYS = frozenset(
    {
        "players",
        "solo",
        "rounds",
        "carry",
        "round",
        "first",
        "turn",
        "phase",
        "tiles",
        "route",
        "route_deck",
        "route_discard",
        "event_deck",
        "event_discard",
        "event",
        "pos",
        "tokens",
        "bonus",
        "turns",
        "ending",
        "capped",
        "rng",
    }
)
#: route cells as [row, col] pairs, per route and view (copied into observations)
_ROUTE_RC = [[[divmod(c, N) for c in cells] for cells in by_view] for by_view in ROUTE_CELLS]


def new_state_dict(players: int, seed: int, options: dict[str, JSON]) -> dict[str, Any]:
    solo = players == 1
    count = 2 if solo else players
    s: dict[str, Any] = {
        "players": players,
        "solo": solo,
        "rounds": options["rounds"],
        "carry": options["rotate_carries_trishaws"],
        "round": 1,
        # the first rider is seat 0 (the seating is ours); in solo the AI rolls first
        "first": 1 if solo else 0,
        "turn": 0,
        "phase": "roll",
        "tiles": [],
        "route": [0, 0],
        "route_deck": [],
        "route_discard": [],
        "event_deck": [],
        "event_discard": [],
        "event": None,
        "pos": [0] * count,
        "tokens": [[] for _ in range(count)],
        "bonus": [0] * count,
        "turns": 0,
        "ending": None,
        "capped": False,
        "rng": 0,
    }
    rng = Rng(seed)
    ev: list[dict[str, Any]] = []
    moves.start_round(s, rng, ev)
    if s["turn"] == moves.ai_trishaw(s):
        moves._ai_turn(s, rng, ev)
        moves.end_turn(s, rng, ev)
    s["rng"] = rng.state
    return s


def _copy(s: dict[str, Any]) -> dict[str, Any]:
    """A deep copy of the state dict (only lists of ints and lists of those nest)."""
    out = dict(s)
    out["tiles"] = [list(t) for t in s["tiles"]]
    out["tokens"] = [list(t) for t in s["tokens"]]
    for k in (
        "route",
        "route_deck",
        "route_discard",
        "event_deck",
        "event_discard",
        "pos",
        "bonus",
    ):
        out[k] = list(s[k])
    if s["event"] is not None:
        out["event"] = list(s["event"])
    return out


class TrishawState(GameState):
    __slots__ = ("_rows", "s")

    def __init__(self, s: dict[str, Any]) -> None:
        self.s = s
        self._rows: tuple[tuple[int, ...], list[str]] | None = None

    # ------------------------------------------------------------ the GameState interface
    @property
    def players(self) -> int:
        return int(self.s["players"])

    def current_seat(self) -> int | None:
        s = self.s
        return None if s["phase"] == "over" else s["turn"]

    def is_over(self) -> bool:
        return bool(self.s["phase"] == "over")

    def legal_actions(self) -> list[Action]:
        return moves.legal_actions(self.s)

    def apply(self, action: Action) -> list[dict[str, JSON]]:
        s = self.s
        if s["phase"] == "over":
            raise IllegalAction("trishaw-frenzy: the game is over")
        legal = moves.legal_actions(s)
        try:
            chosen = legal[legal.index(action)]
        except ValueError:
            raise IllegalAction(
                f"trishaw-frenzy: {action!r} is not legal in phase {s['phase']!r} "
                f"(legal: {_summary(legal)})"
            ) from None
        # use the engine's own copy of the action so that e.g. 1.0 or True never gets stored
        if type(action) is not type(chosen) or _types(action) != _types(chosen):
            raise IllegalAction(f"trishaw-frenzy: {action!r} has wrong value types")
        rng = Rng(s["rng"])
        ev: list[dict[str, JSON]] = []

        def before_deal() -> None:
            s["rng"] = rng.state
            self.keep_round_end_position()

        if s["phase"] == "roll":
            if moves.roll(s, rng, ev):
                moves.end_turn(s, rng, ev, before_deal)
        else:
            moves.resolve_event(s, chosen, rng, ev)
            moves.end_turn(s, rng, ev, before_deal)
        s["rng"] = rng.state
        return ev

    def observation(self, seat: int) -> dict[str, JSON]:
        s = self.s
        if not 0 <= seat < s["players"]:
            raise GameError(f"trishaw-frenzy: no seat {seat} in a {s['players']}-seat game")
        r, v = s["route"]
        ai = moves.ai_trishaw(s)
        trishaws = _trishaws(s, ROUTE_INDEX[r][v], ai)
        tot = scoring.totals(s["tokens"], s["bonus"])
        return {
            "game": SLUG,
            "seat": seat,
            "you": seat,
            "players": s["players"],
            "solo": s["solo"],
            "ai_trishaw": ai,
            "round": s["round"],
            "rounds": s["rounds"],
            "first_rider": s["first"],
            "turn": s["turn"],
            "phase": s["phase"],
            "rotate_carries_trishaws": s["carry"],
            "map": {
                "tiles": [{"tile": TILE_IDS[t], "turns": o} for t, o in s["tiles"]],
                "squares": list(self._board_rows()),
            },
            "route": {
                "card": ROUTE_IDS[r],
                "view": v,
                "cells": [[a, b] for a, b in _ROUTE_RC[r][v]],
            },
            "trishaws": trishaws,
            "vp": [
                {"rounds": list(s["tokens"][t]), "bonus": s["bonus"][t], "total": tot[t]}
                for t in range(len(s["pos"]))
            ],
            "event": _event(s),
            "decks": {
                "events_left": len(s["event_deck"]),
                "routes_left": len(s["route_deck"]),
                "event_discard": [EVENT_IDS[c] for c in s["event_discard"]],
                "route_discard": [ROUTE_IDS[c] for c in s["route_discard"]],
            },
        }

    def result(self) -> Result:
        s = self.s
        if s["phase"] != "over":
            raise GameError("trishaw-frenzy: the game is not over yet")
        tot = scoring.totals(s["tokens"], s["bonus"])
        keys = scoring.final_keys(s["tokens"], s["bonus"])
        reason = "turn_limit" if s["capped"] else "normal"
        details: dict[str, JSON] = {
            "round_vp": [list(t) for t in s["tokens"]],
            "bonus_vp": list(s["bonus"]),
            "sixes": [k[1] for k in keys],
        }
        if s["solo"]:
            win = keys[0] > keys[1]
            details.update(
                {
                    "solo_outcome": "win" if win else "loss",
                    "ai_score": tot[1],
                    "ai_round_vp": list(s["tokens"][1]),
                }
            )
            return Result([tot[0]], [1], reason, details)
        scores: list[int | float] = list(tot)
        return Result(scores, scoring.final_ranks(s["tokens"], s["bonus"]), reason, details)

    def to_json(self) -> dict[str, JSON]:
        return _copy(self.s)

    @classmethod
    def from_json(cls, data: dict[str, JSON]) -> TrishawState:
        if not isinstance(data, dict) or set(data) != _KEYS:
            missing = sorted(_KEYS - set(data)) if isinstance(data, dict) else []
            raise GameError(f"trishaw-frenzy: malformed state (missing or extra keys {missing})")
        try:
            s = _copy(data)
            if len(s["tiles"]) != 9 or len(s["pos"]) not in (2, 3, 4):
                raise ValueError("bad sizes")
        except (TypeError, ValueError, KeyError) as exc:
            raise GameError(f"trishaw-frenzy: malformed state ({exc})") from None
        problems = _problems(s)
        if problems:
            raise GameError(f"trishaw-frenzy: malformed state ({'; '.join(problems)})")
        return cls(s)

    def resample_hidden(self, seat: int, seed: int) -> TrishawState:
        """Everything is public except the order of both decks and the future dice."""
        s = _copy(self.s)
        rng = Rng(seed)
        rng.shuffle(s["event_deck"])
        rng.shuffle(s["route_deck"])
        s["rng"] = rng.next64()
        return TrishawState(s)

    def clone(self) -> TrishawState:
        return TrishawState(_copy(self.s))

    # ------------------------------------------------------------ helpers
    def _board_rows(self) -> list[str]:
        key = tuple(t * 4 + o for t, o in self.s["tiles"])
        if self._rows is None or self._rows[0] != key:
            self._rows = (key, board.board_rows(self.s["tiles"]))
        return self._rows[1]


def _problems(s: dict[str, Any]) -> list[str]:
    """What makes a loaded state inconsistent (empty when it is fine): checked on load, as
    TRND does, so that a bad saved state fails with a clear message instead of later moves."""
    count = len(s["pos"])
    ints = all(
        isinstance(x, int) and not isinstance(x, bool)
        for x in [*s["pos"], *s["route"], *s["route_deck"], *s["route_discard"], *s["bonus"]]
        + [*s["event_deck"], *s["event_discard"], *(s["event"] or []), s["turn"], s["first"]]
        + [v for pair in s["tiles"] for v in pair]
        + [v for tokens in s["tokens"] for v in tokens]
    )
    if not ints:
        return ["positions, cards, tiles and tokens must be integers"]
    problems = []
    if s["solo"] != (s["players"] == 1) or count != (2 if s["solo"] else s["players"]):
        problems.append(f"{s['players']} players need {max(2, s['players'])} trishaws")
    if s["phase"] not in ("roll", "event", "over") or (s["event"] is None) == (
        s["phase"] == "event"
    ):
        problems.append(f"phase {s['phase']!r} does not match the event card {s['event']}")
    if not 0 <= s["turn"] < count or not 0 <= s["first"] < count:
        problems.append("the rider to move and the first rider must be trishaws of the match")
    if not 1 <= s["round"] <= s["rounds"]:
        problems.append(f"round {s['round']} is outside 1..{s['rounds']}")
    bad = [c for c in s["pos"] if not 0 <= c < N * N]
    if bad:
        problems.append(f"trishaw positions {bad} are off the {N}x{N} board")
    if sorted(t for t, _ in s["tiles"]) != list(range(9)) or any(
        not 0 <= o < 4 for _, o in s["tiles"]
    ):
        problems.append("the map must hold the 9 tiles once each, turned 0 to 3 times")
    routes = [*s["route_deck"], *s["route_discard"], s["route"][0]]
    if sorted(routes) != list(range(len(ROUTE_IDS))) or not 0 <= s["route"][1] < 4:
        problems.append("route cards must be the deck's, each once (deck, discard, current)")
    events = [*s["event_deck"], *s["event_discard"], *(s["event"] or [])[:1]]
    if sorted(events) != list(range(len(EVENT_IDS))) or (s["event"] and not 0 <= s["event"][1] < 4):
        problems.append("event cards must be the deck's, each once (deck, discard, in play)")
    if len(s["tokens"]) != count or len(s["bonus"]) != count:
        problems.append("tokens and bonus need one entry per trishaw")
    return problems


def _types(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _types(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_types(v) for v in value]
    return type(value)


def _summary(legal: list[Any]) -> str:
    text = ", ".join(repr(a) for a in legal[:4])
    return text + (f", ... {len(legal)} in all" if len(legal) > 4 else "")


def _trishaws(s: dict[str, Any], index: tuple[int, ...], ai: int | None) -> list[JSON]:
    """Each trishaw as the observation shows it: cell, progress on the route, rider, view."""
    return [
        {
            "cell": list(divmod(c, N)),
            "progress": index[c],
            "seat": None if t == ai else t,
            "ai": t == ai,
            "view": moves.view_of(s, t),
        }
        for t, c in enumerate(s["pos"])
    ]


def _event(s: dict[str, Any]) -> JSON:
    """The event card in play (its view, the tiles it marks, its bottom line), or None."""
    if s["event"] is None:
        return None
    card, ev_view = s["event"]
    return {
        "card": EVENT_IDS[card],
        "view": ev_view,
        "highlight": sorted(EVENT_TILES[card][ev_view]),
        "bottom": EVENT_BOTTOM[card],
    }
