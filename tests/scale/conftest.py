"""A site that grows: bots, users and finished matches recorded through the real path
(``create_match`` then ``record_outcome``, as the worker's task does), with a real replay and
outcome played once by the referee and reused with shuffled ranks, so that hundreds of
matches take seconds."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from bots.models import Bot, BotVersion
from catalog.models import Game
from catalog.services import sync_games
from django.contrib.auth import get_user_model
from matches.models import Match
from matches.services import create_match, record_outcome

from arena.referee import run_match

GAME = "tri-area"


@pytest.fixture(autouse=True)
def _inline(celery_inline: None, settings: Any, tmp_path: Any) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"


class History:
    """Grows one game's history: ``add_bots``, ``play``."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.rng = random.Random(7)
        self.versions: list[BotVersion] = []
        self.users: list[Any] = []
        self._outcome = run_match(
            game.slug, ["builtin:builder", "builtin:random"], seed=3, sandbox="process"
        ).to_json(replay=True)
        assert self._outcome["status"] == "finished", self._outcome

    def add_bots(self, n: int) -> list[BotVersion]:
        user_model = get_user_model()
        new = []
        for k in range(n):
            i = len(self.versions) + k
            if i % 3 == 0:  # three bots per author
                self.users.append(user_model.objects.create(username=f"author{i}"))
            bot = Bot.objects.create(owner=self.users[-1], game=self.game, name=f"bot{i}")
            bot.versions.create(number=1, builtin_name="random")
            new.append(bot.versions.create(number=2, builtin_name="builder"))
        self.versions += new
        return new

    def outcome(self, seats: int) -> dict[str, Any]:
        """The real outcome with this match's seat count and shuffled ranks."""
        out = copy.deepcopy(self._outcome)
        base = out["seats"][0]
        ranks = list(range(1, seats + 1))
        self.rng.shuffle(ranks)
        out["seats"] = [{**base, "rank": r, "score": 10 * (seats - r)} for r in ranks]
        out["result"] = {
            **out["result"],
            "ranks": ranks,
            "scores": [s["score"] for s in out["seats"]],
        }
        return out

    def finish(self, match: Match) -> Match:
        return record_outcome(match.pk, self.outcome(match.seats.count()))

    def play(self, n: int, seats: int = 2) -> list[Match]:
        done = []
        for _ in range(n):
            versions = self.rng.sample(self.versions, seats)
            match = create_match(game=self.game, versions=versions, seed=self.rng.randrange(99))
            done.append(self.finish(match))
        return done


@pytest.fixture
def history(db: None) -> History:
    games = {g.slug: g for g in sync_games()}
    return History(games[GAME])


@pytest.fixture
def api_client() -> Any:
    from rest_framework.test import APIClient

    return APIClient()
