"""Manhattan TraffIQ (2 to 4 players): see RULES.md for our reading of the rules."""

from pathlib import Path

from games.base import RandomBot
from games.manhattan_traffiq import render, render_svg
from games.manhattan_traffiq.bots import GreedyBot
from games.manhattan_traffiq.game import GAME

BOTS = {"random": RandomBot, "greedy": GreedyBot}

#: Declared for the site and the replay viewer: the rulebook reading and the state pictures.
RULES = Path(__file__).with_name("RULES.md")
RENDER_TEXT = render.render_text
RENDER_SVG = render_svg.render_svg

__all__ = ["BOTS", "GAME", "RENDER_SVG", "RENDER_TEXT", "RULES"]
