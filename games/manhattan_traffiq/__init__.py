"""Manhattan TraffIQ (2 to 4 players): see RULES.md for our reading of the rules."""

from pathlib import Path

from games.base import RandomBot
from games.entry import GameEntry
from games.manhattan_traffiq import render, render_svg
from games.manhattan_traffiq.bots import GreedyBot
from games.manhattan_traffiq.game import GAME

BOTS = {"random": RandomBot, "greedy": GreedyBot}

#: The game's registration (games.entry): the one place the registry reads it from.
ENTRY = GameEntry(
    game=GAME,
    bots=BOTS,
    rules=Path(__file__).with_name("RULES.md"),
    max_legal=160,
    render_text=render.render_text,
    render_svg=render_svg.render_svg,
    action_targets=render_svg.action_targets,
)

__all__ = ["BOTS", "ENTRY", "GAME"]
