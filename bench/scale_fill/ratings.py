"""One rating per bot that played, its matches counted from the filled seats."""

from __future__ import annotations

import random
from collections import Counter
from datetime import datetime

from django.db import models

from .copying import copy_rows, next_id, rating_model
from .people import People


def add_ratings(
    people: People, played: Counter[int], now: datetime, rng: random.Random
) -> type[models.Model]:
    """Copy the ratings; returns the rating model (its app moved in issue 9)."""
    Rating = rating_model()
    version_bot = {v["id"]: v["bot_id"] for v in people.versions}
    bot_game = {b["id"]: b["game_id"] for b in people.bots}
    per_bot: Counter[int] = Counter()
    for v, k in played.items():
        per_bot[version_bot[v]] += k
    rid = next_id(Rating)
    rows = []
    for i, (b, k) in enumerate(sorted(per_bot.items())):
        mu, sigma = rng.gauss(25, 4), max(0.8, 8.33 / (1 + k / 20))
        rows.append(
            {
                "id": rid + i,
                "bot_id": b,
                "game_id": bot_game[b],
                "elo": rng.gauss(1500, 150),
                "mu": mu,
                "sigma": sigma,
                "ordinal": mu - 3 * sigma,
                "matches_played": k,
                "provisional": k < 10,
                "updated_at": now,
            }
        )
    copy_rows(Rating, rows)
    return Rating
