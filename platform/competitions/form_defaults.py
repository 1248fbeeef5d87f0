"""What the organisers' forms and endpoints of tournaments and leagues start from: a random
seed when none is given, and the table size a form shows first."""

from __future__ import annotations

import secrets

from catalog.models import Game
from matches.services import clamp_seed

SEED_HELP = "Blank: a random seed. The same seed and field replay the same deals."


def random_seed() -> int:
    return clamp_seed(secrets.randbits(63))


def default_players(game: Game) -> int:
    """The table size a form starts from: two players, or the nearest the game allows (a
    3-5 player game starts at 3)."""
    return game.clamp_players(2)
