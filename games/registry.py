"""Games by slug. A game is a sub-package of ``games`` that registers itself, once, by declaring
``ENTRY`` (a :class:`games.entry.GameEntry`: its ``Game``, built-in bots, rules file, learning
action space and pictures) in its ``__init__.py``; its folder is its slug with ``-`` as ``_``
(``games/tri_area/`` is ``tri-area``). Nothing else lists games: the command line, the site's
catalog (``manage.py load_games``), the referee and the learning adapters read this registry."""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from pathlib import Path

from games.base import Bot, Game, GameError
from games.entry import ActionTargets, GameEntry, Renderer

__all__ = [
    "ActionTargets",
    "GameEntry",
    "Renderer",
    "all_games",
    "bots",
    "entry",
    "get_bot",
    "get_game",
    "rules_path",
    "slugs",
    "svg_renderer",
    "targets_of",
    "text_renderer",
]


@cache
def _packages() -> dict[str, str]:
    """slug -> package, found by the folders alone: listing games imports none of them."""
    here = [str(Path(__file__).parent)]
    found = sorted(m.name for m in pkgutil.iter_modules(here) if m.ispkg)
    return {name.replace("_", "-"): f"games.{name}" for name in found}


@cache
def entry(slug: str) -> GameEntry:
    """The game's own registration (its package's ``ENTRY``)."""
    packages = _packages()
    if slug not in packages:
        known = ", ".join(sorted(packages))
        raise GameError(f"unknown game {slug!r} (known: {known})")
    found = getattr(importlib.import_module(packages[slug]), "ENTRY", None)
    if not isinstance(found, GameEntry):
        raise GameError(f"{packages[slug]} declares no ENTRY (a games.entry.GameEntry)")
    if found.slug != slug:
        raise GameError(f"{packages[slug]} registers {found.slug!r}: its folder says {slug!r}")
    return found


def slugs() -> list[str]:
    return list(_packages())


def get_game(slug: str) -> Game:
    return entry(slug).game


def all_games() -> list[Game]:
    return [get_game(s) for s in slugs()]


def bots(slug: str) -> dict[str, type[Bot]]:
    """Built-in bots of a game by name (always including ``random``)."""
    return dict(entry(slug).bots)


def get_bot(slug: str, name: str) -> type[Bot]:
    found = bots(slug)
    if name not in found:
        raise GameError(f"{slug} has no built-in bot {name!r} (built-ins: {', '.join(found)})")
    return found[name]


def rules_path(slug: str) -> Path:
    """The game's ``RULES.md`` as its registration declares it."""
    return entry(slug).rules


def text_renderer(slug: str) -> Renderer | None:
    """The game's declared text picture (a state's JSON to text), if any."""
    return entry(slug).render_text


def svg_renderer(slug: str) -> Renderer | None:
    """The game's declared SVG picture (a state's JSON to one ``<svg>`` element), if any."""
    return entry(slug).render_svg


def targets_of(slug: str) -> ActionTargets | None:
    """What of the SVG picture each action is about, if the game says."""
    return entry(slug).action_targets
