"""Stepping through a stored replay for the viewer: one decision at a time, with the state
picture re-simulated by the game engine when the game ships ``render.render_text``.

The replay document is the referee's (``arena/replay.py``): ``game``, ``seed``, ``options``,
``seats`` and ``decisions`` (``turn``, ``seat``, ``index``, ``action``, ``ms``, ``events``,
optional ``fault``, ``default``, ``log``). Step 0 is the position before any decision; step
``n`` is the position after decision ``n - 1``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from games.base import GameError
from games.registry import get_game

Renderer = Callable[[dict[str, Any]], str]


class ReplayUnavailable(ValueError):
    """The match has no replay, or one this viewer cannot read; the message says why."""


def renderer_for(slug: str) -> Renderer | None:
    """The game's ``render.render_text`` if its package has one (found next to the module
    that defines the game's class: ``games/<pkg>/game.py`` -> ``games/<pkg>/render.py``)."""
    try:
        module_name = type(get_game(slug)).__module__
    except GameError:
        return None
    for package in (module_name, module_name.rpartition(".")[0]):
        if not package.startswith("games."):
            continue
        try:
            module = importlib.import_module(f"{package}.render")
        except ImportError:
            continue
        fn = getattr(module, "render_text", None)
        if callable(fn):
            return fn
    return None


def decisions(replay: dict[str, Any] | None) -> list[dict[str, Any]]:
    if not isinstance(replay, dict) or not isinstance(replay.get("decisions"), list):
        raise ReplayUnavailable("This match has no replay.")
    return replay["decisions"]


def step(replay: dict[str, Any] | None, n: int) -> dict[str, Any]:
    """Step ``n`` (0..len(decisions)): the decision that led here, and the state picture
    (``state_text``, or None when the game has no renderer)."""
    moves = decisions(replay)
    assert replay is not None
    if not 0 <= n <= len(moves):
        raise ReplayUnavailable(f"Step {n} is outside 0..{len(moves)}.")
    decision = moves[n - 1] if n else None
    out: dict[str, Any] = {
        "step": n,
        "total": len(moves),
        "decision": _public(decision) if decision else None,
        "state_text": None,
    }
    render = renderer_for(str(replay.get("game")))
    if render is not None:
        out["state_text"] = render(_state_after(replay, moves, n))
    return out


def _state_after(replay: dict[str, Any], moves: list[dict[str, Any]], n: int) -> dict[str, Any]:
    try:
        game = get_game(replay["game"])
        state = game.new_game(len(replay["seats"]), replay["seed"], replay.get("options") or {})
        for d in moves[:n]:
            state.apply(d["action"])
    except (GameError, KeyError, TypeError) as exc:
        raise ReplayUnavailable(f"The replay cannot be re-simulated: {exc}") from exc
    return state.to_json()


def _public(d: dict[str, Any]) -> dict[str, Any]:
    keys = ("turn", "seat", "index", "action", "ms", "events", "fault", "default", "log")
    return {k: d[k] for k in keys if k in d}
