"""Users, their bots (spread over the games) and the bots' versions (one to three each)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model

from . import EPOCH
from .copying import copy_rows, next_id


@dataclass
class People:
    """What the later phases need of the users, bots and versions the fill made."""

    first_user: int
    bots: list[dict[str, Any]]
    versions: list[dict[str, Any]]
    #: bot id -> its latest version's id
    latest: dict[int, int] = field(default_factory=dict)
    #: game id -> its bots' ids, in order
    by_game: dict[int, list[int]] = field(default_factory=dict)


def _users(n_users: int) -> int:
    """Copy ``n_users`` plain users; returns the first one's id."""
    User = get_user_model()
    uid = next_id(User)
    users = [
        {
            "id": uid + i,
            "password": "!",
            "username": f"scale{uid + i}",
            "email": "",
            "first_name": "",
            "last_name": "",
            "is_superuser": False,
            "is_staff": False,
            "is_active": True,
            "date_joined": EPOCH,
            "last_login": None,
        }
        for i in range(n_users)
    ]
    copy_rows(User, users)
    return uid


def add_people(games: list[Any], n_users: int, n_bots: int, rng: random.Random) -> People:
    """Users, then bots dealt round-robin over ``games``, each owned by a random user."""
    Bot, Version = apps.get_model("bots.Bot"), apps.get_model("bots.BotVersion")
    uid = _users(n_users)
    bid, vid = next_id(Bot), next_id(Version)
    people = People(uid, [], [], by_game={g.pk: [] for g in games})
    for i in range(n_bots):
        g = games[i % len(games)]
        b = bid + i
        people.bots.append(
            {
                "id": b,
                "owner_id": uid + rng.randrange(n_users),
                "game_id": g.pk,
                "name": f"bot{b}",
                "description": "",
                "is_builtin": False,
                "created_at": EPOCH + timedelta(minutes=i),
            }
        )
        for number in range(1, 1 + rng.choice((1, 1, 2, 2, 3))):
            people.versions.append(
                {
                    "id": vid,
                    "bot_id": b,
                    "number": number,
                    "code": "",
                    "builtin_name": rng.choice(g.builtin_bots),
                    "sha256": "",
                    "size_bytes": 0,
                    "created_at": EPOCH + timedelta(minutes=i),
                }
            )
            people.latest[b] = vid
            vid += 1
        people.by_game[g.pk].append(b)
    copy_rows(Bot, people.bots)
    copy_rows(Version, people.versions)
    return people
