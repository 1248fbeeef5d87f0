"""Stepping through a stored replay for the viewer: one decision at a time, with the state
pictures re-simulated by the game engine: a text picture when the game ships
``render.render_text`` and an SVG one when it ships ``render_svg.render_svg``.

The replay document is the referee's (``arena/replay.py``): ``game``, ``seed``, ``options``,
``seats`` and ``decisions`` (``turn``, ``seat``, ``index``, ``action``, ``ms``, ``events``,
optional ``fault``, ``default``, ``log``). Step 0 is the position before any decision; step
``n`` is the position after decision ``n - 1``.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable
from typing import Any

from games.base import GameError
from games.registry import get_game

Renderer = Callable[[dict[str, Any]], str]

log = logging.getLogger(__name__)


class ReplayUnavailable(ValueError):
    """The match has no replay, or one this viewer cannot read; the message says why."""


def renderer_for(slug: str) -> Renderer | None:
    """The game's ``render.render_text`` if its package has one (found next to the module
    that defines the game's class: ``games/<pkg>/game.py`` -> ``games/<pkg>/render.py``)."""
    return _find(slug, "render", "render_text")


def svg_renderer_for(slug: str) -> Renderer | None:
    """The game's ``render_svg.render_svg`` if its package has one (found like
    :func:`renderer_for`): a pure function from a state's JSON to one ``<svg>`` element."""
    return _find(slug, "render_svg", "render_svg")


def _find(slug: str, module_basename: str, function: str) -> Renderer | None:
    try:
        module_name = type(get_game(slug)).__module__
    except GameError:
        return None
    for package in (module_name, module_name.rpartition(".")[0]):
        if not package.startswith("games."):
            continue
        wanted = f"{package}.{module_basename}"
        try:
            module = importlib.import_module(wanted)
        except ModuleNotFoundError as exc:
            if exc.name != wanted:  # the module exists but one of its imports is missing
                log.exception("%s: cannot import %s", slug, wanted)
            continue
        except Exception:  # a broken renderer module must not take the match page down
            log.exception("%s: cannot import %s", slug, wanted)
            continue
        fn = getattr(module, function, None)
        if callable(fn):
            return fn
    return None


def decisions(replay: dict[str, Any] | None) -> list[dict[str, Any]]:
    if not isinstance(replay, dict) or not isinstance(replay.get("decisions"), list):
        raise ReplayUnavailable("This match has no replay.")
    return replay["decisions"]


def step(replay: dict[str, Any] | None, n: int) -> dict[str, Any]:
    """Step ``n`` (0..len(decisions)): the decision that led here, and the state pictures:
    ``state_text`` and ``svg`` (each None when the game has no such renderer; ``svg`` is also
    None, and the failure logged, when the SVG renderer fails, so the page still works)."""
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
        "svg": None,
    }
    slug = str(replay.get("game"))
    render, render_svg = renderer_for(slug), svg_renderer_for(slug)
    if render is None and render_svg is None:
        return out
    state = _state_after(replay, moves, n)
    if render is not None:
        out["state_text"] = render(state)
    if render_svg is not None:
        out["svg"] = _svg_or_none(render_svg, state, slug, n)
    return out


def _svg_or_none(render_svg: Renderer, state: dict[str, Any], slug: str, n: int) -> str | None:
    """The SVG picture, or None (logged) if the renderer fails or returns no ``<svg>``: a
    picture is a nicety and must never take the replay page down."""
    try:
        svg = render_svg(state)
    except Exception:
        log.exception("%s: render_svg failed at replay step %d", slug, n)
        return None
    if not isinstance(svg, str) or not svg.lstrip().startswith("<svg"):
        log.error("%s: render_svg returned no <svg> element at replay step %d", slug, n)
        return None
    return svg


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
