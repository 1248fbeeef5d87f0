"""Stepping through a replay for the viewer: one decision at a time, with the state pictures
re-simulated by the game engine: a text picture when the game ships ``render.render_text``
and an SVG one when it ships ``render_svg.render_svg``. The site serves one step per request
(:func:`step`); the offline file embeds them all (:func:`all_steps`, one pass).

The replay document is the referee's (``arena/replay.py``): ``game``, ``seed``, ``options``,
``seats`` and ``decisions`` (``turn``, ``seat``, ``index``, ``action``, ``ms``, ``events``,
optional ``fault``, ``default``, ``log``). Step 0 is the position before any decision; step
``n`` is the position after decision ``n - 1``.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

from games import registry
from games.base import GameError, GameState
from games.registry import Renderer, get_game

#: The form of a rendered step (its JSON and pictures). Raise it when either changes: a cache
#: of rendered steps keys them by it, so a step of the old form is never served again.
STEP_FORM = 2

log = logging.getLogger(__name__)


class ReplayUnavailable(ValueError):
    """The match has no replay, or one this viewer cannot read; the message says why."""


def renderer_for(slug: str) -> Renderer | None:
    """The text picture the game declares (its registration's ``render_text``), if any."""
    try:
        return registry.text_renderer(slug)
    except GameError:
        return None


def svg_renderer_for(slug: str) -> Renderer | None:
    """The SVG picture the game declares (``render_svg``): a pure function from a state's JSON
    to one ``<svg>`` element."""
    try:
        return registry.svg_renderer(slug)
    except GameError:
        return None


def decisions(replay: dict[str, Any] | None) -> list[dict[str, Any]]:
    if not isinstance(replay, dict) or not isinstance(replay.get("decisions"), list):
        raise ReplayUnavailable("This match has no replay.")
    return replay["decisions"]


def step(replay: dict[str, Any] | None, n: int, seat: int | None = None) -> dict[str, Any]:
    """Step ``n`` (0..len(decisions)): the decision that led here, its events as readable
    lines, and the state pictures ``state_text`` and ``svg`` (each None when the game has no
    such renderer; ``svg`` is also None, and the failure logged, when the SVG renderer fails,
    so the page still works).

    ``round_end``: when decision ``n - 1`` ended a round and a new one was dealt, the pictures
    of the position just before the deal (``{"round", "svg", "state_text"}``), else None.

    ``seat_view`` (when ``seat`` is given): what that seat knew at this step, exactly as a bot
    in that seat was told: its ``observation`` and, when it owed the next decision, the
    ``legal_actions``. Nothing else of the state is in it. With a seat, the pictures are drawn
    for that seat too (``viewer=seat``): what it could not know as card backs and counts."""
    moves = decisions(replay)
    assert replay is not None
    if not 0 <= n <= len(moves):
        raise ReplayUnavailable(f"Step {n} is outside 0..{len(moves)}.")
    players = len(replay.get("seats") or [])
    if seat is not None and not 0 <= seat < players:
        raise ReplayUnavailable(f"Seat {seat} is not a seat of this match (0..{players - 1}).")
    slug = str(replay.get("game"))
    if renderer_for(slug) is None and svg_renderer_for(slug) is None and seat is None:
        return _step_json(replay, n, None, None)  # nothing to draw: no re-simulation
    state, before_deal = _state_after(replay, moves, n)
    out = _step_json(replay, n, state, before_deal, viewer=seat)
    if seat is not None:
        out["seat_view"] = seat_view(state, seat)
    return out


def all_steps(replay: dict[str, Any] | None) -> Iterator[tuple[dict[str, Any], list[Any]]]:
    """Every step, in order, from one pass of the engine (not one re-simulation per step):
    ``(step(replay, n), [step(replay, n, k)["seat_view"] for every seat k])`` for each ``n``."""
    moves = decisions(replay)
    assert replay is not None
    players = len(replay.get("seats") or [])
    state, before_deal = _state_after(replay, moves, 0)
    for n in range(len(moves) + 1):
        if n:
            try:
                _, before_deal = state.apply_keeping_round_end(moves[n - 1]["action"])
            except (GameError, KeyError, TypeError) as exc:
                raise ReplayUnavailable(f"The replay cannot be re-simulated: {exc}") from exc
        yield (
            _step_json(replay, n, state, before_deal),
            [seat_view(state, k) for k in range(players)],
        )


def seat_view(state: GameState, seat: int) -> dict[str, Any]:
    """What ``seat`` was told in this state: its observation, and the legal actions when it
    owes the next decision."""
    to_act = state.current_seat() == seat
    return {
        "seat": seat,
        "to_act": to_act,
        "observation": state.observation(seat),
        "legal_actions": state.legal_actions() if to_act else None,
    }


def _step_json(
    replay: dict[str, Any],
    n: int,
    state: GameState | None,
    before_deal: dict[str, Any] | None,
    viewer: int | None = None,
) -> dict[str, Any]:
    """Step ``n``'s JSON without a seat view; pictures only when ``state`` is given, drawn for
    ``viewer`` when given (None: the whole state)."""
    moves = replay["decisions"]
    decision = moves[n - 1] if n else None
    names = _seat_names(replay)
    out: dict[str, Any] = {
        "step": n,
        "total": len(moves),
        "decision": _public(decision) if decision else None,
        "event_lines": [describe_event(e, names) for e in (decision or {}).get("events") or []],
        "state_text": None,
        "svg": None,
        "round_end": None,
        "seat_view": None,
    }
    if state is None:
        return out
    slug = str(replay.get("game"))
    render, render_svg = renderer_for(slug), svg_renderer_for(slug)
    pictures = [(out, state.to_json())]
    if before_deal is not None:
        out["round_end"] = {"round": before_deal.get("round"), "svg": None, "state_text": None}
        pictures.append((out["round_end"], before_deal))
    for target, data in pictures:
        if render is not None:
            target["state_text"] = render(data) if viewer is None else render(data, viewer=viewer)
        if render_svg is not None:
            target["svg"] = _svg_or_none(render_svg, data, slug, n, viewer)
        if viewer is not None:
            target["state_text"] = seat_view_marked(target.get("state_text"))
            target["svg"] = seat_view_marked(target.get("svg"))
    return out


#: A picture drawn for a seat marks it "(you)" (``games.svg.you``): right on the play page,
#: where the person looking is that seat; a replay's seat view is looked at by anyone (a
#: spectator, the other seats' owners), so there it says whose view the picture is.
YOU_MARK, SEAT_VIEW_MARK = " (you)", " (this view)"


def seat_view_marked(picture: str | None) -> str | None:
    """``picture`` with the drawn-for seat's "(you)" read as "(this view)"."""
    return picture.replace(YOU_MARK, SEAT_VIEW_MARK) if picture else picture


def _seat_names(replay: dict[str, Any]) -> dict[int, str]:
    names = {}
    for i, s in enumerate(replay.get("seats") or []):
        name = s.get("name") if isinstance(s, dict) else None
        names[i] = f"seat {i}" + (f" ({name})" if name else "")
    return names


def describe_event(event: Any, names: dict[int, str] | None = None) -> str:
    """One public event as a line a person reads: ``{"type": "clear_out", "seat": 1,
    "card": "TUBE", "count": 3}`` -> ``clear out · seat 1 (greedy) · card TUBE · count 3``."""
    names = names or {}
    if not isinstance(event, dict):
        return _value(event)
    parts = [str(event.get("type", "event")).replace("_", " ")]
    for key, value in event.items():
        if key == "type":
            continue
        if key in ("seat", "by", "winner") and isinstance(value, int) and value in names:
            parts.append(names[value])
        else:
            parts.append(f"{key.replace('_', ' ')} {_value(value)}")
    return " · ".join(parts)


def _value(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_value(v)}" for k, v in value.items()) + "}"
    return str(value)


def _svg_or_none(
    render_svg: Renderer, state: dict[str, Any], slug: str, n: int, viewer: int | None = None
) -> str | None:
    """The SVG picture, or None (logged) if the renderer fails or returns no ``<svg>``: a
    picture is a nicety and must never take the replay page down."""
    try:
        svg = render_svg(state) if viewer is None else render_svg(state, viewer=viewer)
    except Exception:
        log.exception("%s: render_svg failed at replay step %d", slug, n)
        return None
    if not isinstance(svg, str) or not svg.lstrip().startswith("<svg"):
        log.error("%s: render_svg returned no <svg> element at replay step %d", slug, n)
        return None
    return svg


def _state_after(
    replay: dict[str, Any], moves: list[dict[str, Any]], n: int
) -> tuple[GameState, dict[str, Any] | None]:
    """The state after ``n`` decisions, and the position just before a new round's deal if
    decision ``n - 1`` dealt one (the engine keeps it: ``apply_keeping_round_end``)."""
    before_deal = None
    try:
        game = get_game(replay["game"])
        state = game.new_game(len(replay["seats"]), replay["seed"], replay.get("options") or {})
        if n:
            for d in moves[: n - 1]:
                state.apply(d["action"])
            _, before_deal = state.apply_keeping_round_end(moves[n - 1]["action"])
    except (GameError, KeyError, TypeError) as exc:
        raise ReplayUnavailable(f"The replay cannot be re-simulated: {exc}") from exc
    return state, before_deal


def _public(d: dict[str, Any]) -> dict[str, Any]:
    keys = ("turn", "seat", "index", "action", "ms", "events", "fault", "default", "log")
    return {k: d[k] for k in keys if k in d}
