"""Trishaw Frenzy: race trishaws along route cards over a changing 3x3 map (1 to 4 riders;
1 = solo against the AI trishaw). Rules in RULES.md."""

from pathlib import Path

from games.base import Bot, RandomBot
from games.entry import GameEntry
from games.trishaw_frenzy import render, render_svg
from games.trishaw_frenzy.bots import RacerBot
from games.trishaw_frenzy.game import TrishawFrenzy

GAME = TrishawFrenzy()
BOTS: dict[str, type[Bot]] = {"random": RandomBot, "racer": RacerBot}

#: The game's registration (games.entry): the one place the registry reads it from.
ENTRY = GameEntry(
    game=GAME,
    bots=BOTS,
    rules=Path(__file__).with_name("RULES.md"),
    max_legal=96,
    render_text=render.render_text,
    render_svg=render_svg.render_svg,
    action_targets=render_svg.action_targets,
)

__all__ = ["BOTS", "ENTRY", "GAME"]
