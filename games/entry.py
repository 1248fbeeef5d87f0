"""A game's registration: everything the registry, the site, the viewer and the learning
adapters need of a game, declared once, as ``ENTRY`` in the game's own package
(``games/<package>/__init__.py``). The registry finds the packages; nothing else lists games."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from games.base import Bot, Game, GameError


class Renderer(Protocol):
    """A state picture: the state's JSON to text, or to one ``<svg>`` element. ``viewer``:
    None draws the whole state (a replay); a seat draws what that seat knows, what it cannot
    know as card backs and counts."""

    def __call__(self, state_json: dict[str, Any], /, viewer: int | None = None) -> str: ...


class ActionTargets(Protocol):
    """The part of the SVG picture each legal action is about (a CSS selector over its ``data-``
    attributes; None: none), so that a person can click the board instead of a button."""

    def __call__(self, state_json: dict[str, Any], actions: list[Any], /) -> list[str | None]: ...


@dataclass(frozen=True)
class GameEntry:
    """``game``: the rules; ``bots``: built-in bots by name (``random`` among them); ``rules``:
    the package's ``RULES.md`` (shipped with it, so an installed copy can show it);
    ``max_legal``: an upper bound on the legal-action count of any decision, the fixed action
    space of the learning adapters (``arena.learning``: the legal list is padded to it and
    masked; about twice the most seen over thousands of random playouts, and
    tests/learning/test_adapters.py checks it again on fresh ones); ``render_text`` and
    ``render_svg``: the state pictures, if the game draws them, and ``action_targets`` what of
    the SVG picture each action is about."""

    game: Game
    bots: Mapping[str, type[Bot]]
    rules: Path
    max_legal: int
    render_text: Renderer | None = None
    render_svg: Renderer | None = None
    action_targets: ActionTargets | None = None

    def __post_init__(self) -> None:
        slug = getattr(self.game, "slug", "?")
        if "random" not in self.bots:
            raise GameError(f"{slug}: its built-in bots must include 'random'")
        if isinstance(self.max_legal, bool) or not isinstance(self.max_legal, int):
            raise GameError(f"{slug}: max_legal must be an integer, got {self.max_legal!r}")
        if self.max_legal < 1:
            raise GameError(f"{slug}: max_legal must be positive, got {self.max_legal}")

    @property
    def slug(self) -> str:
        return self.game.slug
