"""TRND (3 to 5 players): collect one kind of chair and clear out. See RULES.md."""

from pathlib import Path

from games.base import Bot, RandomBot
from games.entry import GameEntry
from games.trnd import render, render_svg
from games.trnd.bots import GreedyBot
from games.trnd.game import GAME, TrndGame
from games.trnd.state import TrndState

BOTS: dict[str, type[Bot]] = {"random": RandomBot, "greedy": GreedyBot}

#: The game's registration (games.entry): the one place the registry reads it from.
ENTRY = GameEntry(
    game=GAME,
    bots=BOTS,
    rules=Path(__file__).with_name("RULES.md"),
    max_legal=32,
    render_text=render.render_text,
    render_svg=render_svg.render_svg,
    action_targets=render_svg.action_targets,
)

__all__ = ["BOTS", "ENTRY", "GAME", "TrndGame", "TrndState"]
