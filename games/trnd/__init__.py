"""TRND (3 to 5 players): collect one kind of chair and clear out. See RULES.md."""

from games.base import Bot, RandomBot
from games.trnd.bots import GreedyBot
from games.trnd.game import GAME, TrndGame
from games.trnd.state import TrndState

BOTS: dict[str, type[Bot]] = {"random": RandomBot, "greedy": GreedyBot}

__all__ = ["BOTS", "GAME", "TrndGame", "TrndState"]
