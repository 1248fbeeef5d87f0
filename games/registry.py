"""Games by slug. A game is a sub-package of ``games`` exposing ``GAME`` and ``BOTS``;
adding one to ``_PACKAGES`` (and passing ``tests/test_game_conformance.py``) registers it."""

from __future__ import annotations

import importlib
from functools import cache
from types import ModuleType

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
