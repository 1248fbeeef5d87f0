"""Manhattan TraffIQ (2 to 4 players): see RULES.md for our reading of the rules."""

from games.base import RandomBot
from games.manhattan_traffiq.bots import GreedyBot
from games.manhattan_traffiq.game import GAME

BOTS = {"random": RandomBot, "greedy": GreedyBot}

__all__ = ["BOTS", "GAME"]
