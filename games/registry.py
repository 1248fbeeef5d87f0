"""Games by slug. A game is a sub-package of ``games`` exposing ``GAME`` and ``BOTS`` (and
optionally ``RULES``, ``RENDER_TEXT``, ``RENDER_SVG``, see below); adding one to ``_PACKAGES``
(and passing ``tests/test_game_conformance.py``) registers it."""

from __future__ import annotations

import importlib
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any, Protocol

from games.base import Bot, Game, GameError

# slug -> package; imported lazily so that listing games stays cheap.
_PACKAGES: dict[str, str] = {
    "trnd": "games.trnd",
    "tri-area": "games.tri_area",
    "trishaw-frenzy": "games.trishaw_frenzy",
    "manhattan-traffiq": "games.manhattan_traffiq",
}


@cache
def _module(slug: str) -> ModuleType:
    if slug not in _PACKAGES:
        known = ", ".join(sorted(_PACKAGES))
        raise GameError(f"unknown game {slug!r} (known: {known})")
    return importlib.import_module(_PACKAGES[slug])


def slugs() -> list[str]:
    return list(_PACKAGES)


def get_game(slug: str) -> Game:
    game: Game = _module(slug).GAME
    return game


def all_games() -> list[Game]:
    return [get_game(s) for s in _PACKAGES]


def bots(slug: str) -> dict[str, type[Bot]]:
    """Built-in bots of a game by name (always including ``random``)."""
    found: dict[str, type[Bot]] = _module(slug).BOTS
    return found


def get_bot(slug: str, name: str) -> type[Bot]:
    found = bots(slug)
    if name not in found:
        raise GameError(f"{slug} has no built-in bot {name!r} (built-ins: {', '.join(found)})")
    return found[name]


class Renderer(Protocol):
    """A state picture: the state's JSON to text, or to one ``<svg>`` element. ``viewer``:
    None draws the whole state (a replay); a seat draws what that seat knows, what it cannot
    know as card backs and counts."""

    def __call__(self, state_json: dict[str, Any], /, viewer: int | None = None) -> str: ...


def rules_path(slug: str) -> Path | None:
    """The game's ``RULES.md`` as its package declares it (``RULES``), shipped with the package
    so that an installed copy can show it; None if the game declares none."""
    path = getattr(_module(slug), "RULES", None)
    return Path(path) if path is not None else None


def text_renderer(slug: str) -> Renderer | None:
    """The game's declared ``RENDER_TEXT`` (a state's JSON to a text picture), if any."""
    fn: Renderer | None = getattr(_module(slug), "RENDER_TEXT", None)
    return fn


def svg_renderer(slug: str) -> Renderer | None:
    """The game's declared ``RENDER_SVG`` (a state's JSON to one ``<svg>`` element), if any."""
    fn: Renderer | None = getattr(_module(slug), "RENDER_SVG", None)
    return fn
