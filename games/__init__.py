"""Pure, deterministic rule engines for the games Meeple Arena hosts.

No Django, no I/O: each game is a package exposing ``GAME`` (a :class:`games.base.Game`)
and ``BOTS`` (built-in bots by name). See ``games/README.md``.
"""

from games.base import Game, GameError, GameState, IllegalAction, Result
from games.registry import all_games, get_game

__all__ = [
    "Game",
    "GameError",
    "GameState",
    "IllegalAction",
    "Result",
    "all_games",
    "get_game",
]
