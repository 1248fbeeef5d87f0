"""TRND (3 to 5 players): collect one kind of chair and clear out. See RULES.md."""

from pathlib import Path

from games.base import Bot, RandomBot
from games.trnd import render, render_svg
from games.trnd.bots import GreedyBot
from games.trnd.game import GAME, TrndGame
from games.trnd.state import TrndState

BOTS: dict[str, type[Bot]] = {"random": RandomBot, "greedy": GreedyBot}

#: Declared for the site and the replay viewer: the rulebook reading and the state pictures.
RULES = Path(__file__).with_name("RULES.md")
RENDER_TEXT = render.render_text
RENDER_SVG = render_svg.render_svg

__all__ = ["BOTS", "GAME", "RENDER_SVG", "RENDER_TEXT", "RULES", "TrndGame", "TrndState"]
