"""The games' optional pictures (``games/<pkg>/render.py`` and ``render_svg.py``), found by
game slug, for the human seat and the learning adapters' ``render``.

``viewer``: None draws the whole state (a replay after the match); a seat number draws it as
that seat knows it (others' hands and face-down piles as backs with their count), so the
picture cannot show, nor change with, anything hidden from that seat."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from games.base import GameError, GameState
from games.registry import get_game

Renderer = Callable[[dict[str, Any]], str]


def _find(slug: str, module: str, function: str) -> Callable[..., Any] | None:
    try:
        package = type(get_game(slug)).__module__.rpartition(".")[0]
    except GameError:
        return None
    try:
        mod = importlib.import_module(f"{package}.{module}")
    except ModuleNotFoundError:
        return None
    fn = getattr(mod, function, None)
    return fn if callable(fn) else None


def render_text(slug: str, state_json: dict[str, Any], viewer: int | None = None) -> str | None:
    return _draw(_find(slug, "render", "render_text"), state_json, viewer)


def render_svg(slug: str, state_json: dict[str, Any], viewer: int | None = None) -> str | None:
    return _draw(_find(slug, "render_svg", "render_svg"), state_json, viewer)


def _draw(fn: Callable[..., Any] | None, state_json: dict[str, Any], viewer: int | None) -> Any:
    if fn is None:
        return None
    # a renderer without ``viewer`` is only ever called for the whole state: never a leak
    return fn(state_json) if viewer is None else fn(state_json, viewer=viewer)


def action_targets(slug: str, state_json: dict[str, Any], actions: list[Any]) -> list[str | None]:
    """The part of ``render_svg``'s picture each action is about (a CSS selector over its
    ``data-`` attributes; None: none), from the game's ``render_svg.action_targets`` if it has
    one, so that a person can click the board instead of a button."""
    fn = _find(slug, "render_svg", "action_targets")
    found = fn(state_json, actions) if fn is not None else None
    if not isinstance(found, list) or len(found) != len(actions):
        return [None] * len(actions)
    return [t if isinstance(t, str) and t else None for t in found]


def seat_view(state: GameState, seat: int, seed: int) -> dict[str, Any]:
    """A state to draw ``seat``'s picture from (with ``viewer=seat``): what the seat may not
    know (others' hands, the deck order) is redrawn from ``seed`` (``resample_hidden``), so the
    true hidden cards never leave the worker; the picture draws them as backs and counts, so
    it is the same whatever the redraw."""
    return state.resample_hidden(seat, seed).to_json()
