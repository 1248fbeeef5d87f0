"""Trishaw Frenzy: race trishaws along route cards over a changing 3x3 map (1 to 4 riders;
1 = solo against the AI trishaw). Rules in RULES.md."""

from games.base import Bot, RandomBot
from games.trishaw_frenzy.bots import RacerBot
from games.trishaw_frenzy.game import TrishawFrenzy

GAME = TrishawFrenzy()
BOTS: dict[str, type[Bot]] = {"random": RandomBot, "racer": RacerBot}

__all__ = ["BOTS", "GAME"]
