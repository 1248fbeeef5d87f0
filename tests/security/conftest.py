"""The cast of the security tests: anonymous, a bot's owner, another user, an organiser and
staff, each with a browser session and an API token, and real rows for them to act on: a bot
with an uploaded version, a finished tournament match whose seat holds private stderr, a draft
tournament and a league of the organiser's."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import pytest
from bots.models import Bot, BotVersion
from bots.services import create_bot, ensure_builtin_bots, upload_version
from catalog.services import sync_games
from competitions.leagues.services import create_league
from competitions.models import CompetitionMatch, League, Tournament
from competitions.permissions import ORGANISERS_GROUP
from competitions.tournaments.services import create_tournament
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.test import Client
from matches.models import Match, MatchKind, MatchSeat
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.security.badfiles import GOOD_MAIN

ROLES = ("anonymous", "owner", "other", "organiser", "staff")
SECRET_STDERR = "owner-only-stderr-7f3a"


@dataclass
class World:
    users: dict[str, Any]
    bot: Bot
    version: BotVersion
    builtin: BotVersion
    builtin2: BotVersion
    builtin3: BotVersion
    tournament: Tournament
    draft: Tournament
    league: League
    match: Match

    def ids(self) -> dict[str, int]:
        return {
            "bot": self.bot.pk,
            "version": self.version.pk,
            "tournament": self.tournament.pk,
            "draft": self.draft.pk,
            "league": self.league.pk,
            "match": self.match.pk,
            "builtin": self.builtin.pk,
            "builtin2": self.builtin2.pk,
        }

    def web(self, role: str) -> Client:
        client = Client()
        if role != "anonymous":
            client.force_login(self.users[role])
        return client

    def api(self, role: str) -> APIClient:
        client = APIClient()
        if role != "anonymous":
            token, _ = Token.objects.get_or_create(user=self.users[role])
            client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
        return client


@pytest.fixture
def one_window() -> None:
    """Throttle tests count exact numbers of hits against a rate "N/day": the counter's window
    (foundation/rate_counter.py) slides, so hits split across two windows weigh less and more
    get through. Windows of a day turn at 00:00 UTC: a test that starts within two minutes of
    it waits until it has passed (per-minute rates crossed their boundary in about one run of
    ten, letting one more request through)."""
    left = 86400 - time.time() % 86400
    if left < 120:
        time.sleep(left + 1)


@pytest.fixture(autouse=True)
def _media_root(settings: Any, tmp_path: Any) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"
    # Four users per test: a slow password hash would be most of the suite's time.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def world(db: None) -> World:
    games = {g.slug: g for g in sync_games()}
    trnd = games["trnd"]
    builtins = [b.latest_version() for b in ensure_builtin_bots(trnd)]
    make = get_user_model().objects.create_user
    users = {
        "owner": make("alice", password="pw-alice-123"),
        "other": make("bob", password="pw-bob-123"),
        "organiser": make("carol", password="pw-carol-123"),
        "staff": make("dave", password="pw-dave-123", is_staff=True),
    }
    group, _ = Group.objects.get_or_create(name=ORGANISERS_GROUP)
    users["organiser"].groups.add(group)
    bot = create_bot(owner=users["owner"], game=trnd, name="alices-bot", description="mine")
    version = upload_version(bot=bot, filename="main.py", data=GOOD_MAIN)
    entrants = [version, *builtins]
    # A third built-in entry, so that a tournament of built-ins alone fills TRND's three seats.
    copy = create_bot(owner=builtins[0].bot.owner, game=trnd, name="random #2")
    builtin3 = copy.versions.create(number=1, builtin_name="random")
    tournament = create_tournament(
        organiser=users["organiser"], game=trnd, name="Cup", entrants=entrants, players_per_match=3
    )
    # Built-ins only and one match: starting it plays quickly, whoever may start it.
    draft = create_tournament(
        organiser=users["organiser"],
        game=trnd,
        name="Draft",
        entrants=[*builtins, builtin3],
        players_per_match=3,
        max_matches=1,
    )
    league = create_league(
        game=trnd, name="Weekly", organiser=users["organiser"], players_per_match=3
    )
    match = Match.objects.create(
        game=trnd,
        kind=MatchKind.TOURNAMENT,
        status="finished",
        result={"scores": [2, 1, 0], "ranks": [1, 2, 3], "reason": "normal"},
    )
    CompetitionMatch.objects.create(match=match, tournament=tournament)
    MatchSeat.objects.create(
        match=match,
        seat=0,
        bot_version=version,
        score=1,
        rank=1,
        status="ok",
        stderr=SECRET_STDERR,
    )
    for seat, builtin in enumerate(builtins, start=1):
        MatchSeat.objects.create(
            match=match, seat=seat, bot_version=builtin, score=2 - seat, rank=seat + 1, status="ok"
        )
    return World(
        users, bot, version, builtins[0], builtins[1], builtin3, tournament, draft, league, match
    )


def stored_counts() -> dict[str, int]:
    """What a refused request must leave untouched."""
    return {
        "bots": Bot.objects.count(),
        "versions": BotVersion.objects.count(),
        "tournaments": Tournament.objects.count(),
        "leagues": League.objects.count(),
        "matches": Match.objects.count(),
        "users": get_user_model().objects.count(),
    }


def media_files(settings: Any) -> list[str]:
    root = settings.MEDIA_ROOT
    return sorted(str(p) for p in root.rglob("*") if p.is_file()) if root.exists() else []
