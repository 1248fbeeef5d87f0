"""Tri*Area (iop games, 2022): the rule engine, its built-in bots and NPC seat policy.

See RULES.md for our reading of the rulebook, the action shapes and the observation fields.
"""

from pathlib import Path

from games.base import Bot, RandomBot
from games.tri_area import render, render_svg
from games.tri_area.bots import BuilderBot
from games.tri_area.game import GAME, TriAreaGame
from games.tri_area.state import TriAreaState

BOTS: dict[str, type[Bot]] = {"random": RandomBot, "builder": BuilderBot}

#: Declared for the site and the replay viewer: the rulebook reading and the state pictures.
RULES = Path(__file__).with_name("RULES.md")
RENDER_TEXT = render.render_text
RENDER_SVG = render_svg.render_svg

__all__ = [
    "BOTS",
    "GAME",
    "RENDER_SVG",
    "RENDER_TEXT",
    "RULES",
    "BuilderBot",
    "TriAreaGame",
    "TriAreaState",
]
