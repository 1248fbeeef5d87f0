"""Trishaw Frenzy: race trishaws along route cards over a changing 3x3 map (1 to 4 riders;
1 = solo against the AI trishaw). Rules in RULES.md."""

from pathlib import Path

from games.base import Bot, RandomBot
from games.trishaw_frenzy import render, render_svg
from games.trishaw_frenzy.bots import RacerBot
from games.trishaw_frenzy.game import TrishawFrenzy

GAME = TrishawFrenzy()
BOTS: dict[str, type[Bot]] = {"random": RandomBot, "racer": RacerBot}

#: Declared for the site and the replay viewer: the rulebook reading and the state pictures.
RULES = Path(__file__).with_name("RULES.md")
RENDER_TEXT = render.render_text
RENDER_SVG = render_svg.render_svg

__all__ = ["BOTS", "GAME", "RENDER_SVG", "RENDER_TEXT", "RULES"]
