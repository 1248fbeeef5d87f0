"""Tri*Area (iop games, 2022): the rule engine, its built-in bots and NPC seat policy.

See RULES.md for our reading of the rulebook, the action shapes and the observation fields.
"""

from pathlib import Path

from games.base import Bot, RandomBot
from games.entry import GameEntry
from games.tri_area import render, render_svg
from games.tri_area.bots import BuilderBot
from games.tri_area.game import GAME, TriAreaGame
from games.tri_area.state import TriAreaState

BOTS: dict[str, type[Bot]] = {"random": RandomBot, "builder": BuilderBot}

#: The game's registration (games.entry): the one place the registry reads it from.
ENTRY = GameEntry(
    game=GAME,
    bots=BOTS,
    rules=Path(__file__).with_name("RULES.md"),
    max_legal=24,
    render_text=render.render_text,
    render_svg=render_svg.render_svg,
    action_targets=render_svg.action_targets,
)

__all__ = [
    "BOTS",
    "ENTRY",
    "GAME",
    "BuilderBot",
    "TriAreaGame",
    "TriAreaState",
]
