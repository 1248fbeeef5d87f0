"""Tri*Area (iop games, 2022): the rule engine, its built-in bots and NPC seat policy.

See RULES.md for our reading of the rulebook, the action shapes and the observation fields.
"""

from games.base import Bot, RandomBot
from games.tri_area.bots import BuilderBot
from games.tri_area.game import GAME, TriAreaGame
from games.tri_area.state import TriAreaState

BOTS: dict[str, type[Bot]] = {"random": RandomBot, "builder": BuilderBot}

__all__ = ["BOTS", "GAME", "BuilderBot", "TriAreaGame", "TriAreaState"]
