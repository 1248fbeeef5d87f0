"""The games' optional pictures, as each game declares them in its registration
(``games.entry.GameEntry``: ``render_text``, ``render_svg``, ``action_targets``), found by game
slug, for the human seat and the learning adapters' ``render``.

``viewer``: None draws the whole state (a replay after the match); a seat number draws it as
that seat knows it (others' hands and face-down piles as backs with their count), so the
picture cannot show, nor change with, anything hidden from that seat."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games import registry
from games.base import GameError, GameState
from games.entry import GameEntry


def _entry(slug: str) -> GameEntry | None:
    try:
        return registry.entry(slug)
    except GameError:
        return None


def render_text(slug: str, state_json: dict[str, Any], viewer: int | None = None) -> str | None:
    found = _entry(slug)
    return _draw(found.render_text if found else None, state_json, viewer)


def render_svg(slug: str, state_json: dict[str, Any], viewer: int | None = None) -> str | None:
    found = _entry(slug)
    return _draw(found.render_svg if found else None, state_json, viewer)


def _draw(fn: Callable[..., Any] | None, state_json: dict[str, Any], viewer: int | None) -> Any:
    if fn is None:
        return None
    # a renderer without ``viewer`` is only ever called for the whole state: never a leak
    return fn(state_json) if viewer is None else fn(state_json, viewer=viewer)


def action_targets(slug: str, state_json: dict[str, Any], actions: list[Any]) -> list[str | None]:
    """The part of ``render_svg``'s picture each action is about (a CSS selector over its
    ``data-`` attributes; None: none), from the game's declared ``action_targets`` if it has
    one, so that a person can click the board instead of a button."""
    found_entry = _entry(slug)
    fn = found_entry.action_targets if found_entry else None
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
