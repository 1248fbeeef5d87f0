"""What the command line asks of the API: the caller's own bots (``?mine=true``) with their
newest version's status, and the caller's bots' matches (``?mine=true``, ``?kind=``) with the
match's kind; anonymous callers get none of anyone's, and the schema documents it all."""

from __future__ import annotations

from typing import Any

import pytest
from bots.models import Bot, BotVersion, VersionStatus
from catalog.models import Game
from django.test import Client
from matches.models import Match, MatchKind, MatchSeat, MatchStatus
from rest_framework.authtoken.models import Token


def _client(user: Any) -> Client:
    return Client(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")


def _version(bot: Bot, status: str) -> BotVersion:
    number = bot.versions.count() + 1
    return bot.versions.create(number=number, sha256=f"{number:064x}", status=status)


def _match(game: Game, kind: str, versions: list[BotVersion]) -> Match:
    match = Match.objects.create(game=game, kind=kind, status=MatchStatus.FINISHED)
    for seat, version in enumerate(versions):
        MatchSeat.objects.create(match=match, seat=seat, bot_version=version, rank=seat + 1)
    return match


@pytest.fixture
def world(user: Any, other_user: Any, trnd: Game) -> dict[str, Any]:
    mine = Bot.objects.create(owner=user, game=trnd, name="mine")
    _version(mine, VersionStatus.ACTIVE)
    newest = _version(mine, VersionStatus.QUALIFYING)
    theirs = Bot.objects.create(owner=other_user, game=trnd, name="theirs")
    their_version = _version(theirs, VersionStatus.ACTIVE)
    return {
        "mine": mine,
        "theirs": theirs,
        "ladder": _match(trnd, MatchKind.LADDER, [newest, their_version]),
        "qualification": _match(trnd, MatchKind.QUALIFICATION, [newest]),
        "others": _match(trnd, MatchKind.LADDER, [their_version]),
    }


def test_mine_lists_the_callers_own_bots_with_the_newest_status(
    user: Any, world: dict[str, Any]
) -> None:
    rows = _client(user).get("/api/bots/?mine=true").json()["results"]
    assert [(r["name"], r["latest_version"], r["latest_status"]) for r in rows] == [
        ("mine", 2, "qualifying")
    ]
    everyone = Client().get("/api/bots/?mine=false").json()["results"]
    assert {r["name"] for r in everyone} >= {"mine", "theirs"}
    assert Client().get("/api/bots/?mine=true").json()["results"] == []
    detail = Client().get(f"/api/bots/{world['theirs'].pk}/").json()
    assert detail["latest_status"] == "active"


def test_mine_and_kind_narrow_the_matches(user: Any, world: dict[str, Any]) -> None:
    api = _client(user)
    rows = api.get("/api/matches/?mine=true").json()["results"]
    assert [r["id"] for r in rows] == [world["qualification"].pk, world["ladder"].pk]
    assert [(r["kind"], r["rated"]) for r in rows] == [("qualification", True), ("ladder", True)]
    ladder = api.get("/api/matches/?mine=true&kind=ladder").json()["results"]
    assert [r["id"] for r in ladder] == [world["ladder"].pk]
    assert Client().get("/api/matches/?mine=true").json()["results"] == []
    refused = api.get("/api/matches/?kind=nonsense")
    assert refused.status_code == 400 and "kind" in refused.json()


def test_the_schema_documents_the_filters_and_fields(db: None) -> None:
    schema = Client().get("/api/schema/?format=json").json()

    def params(path: str) -> set[str]:
        return {p["name"] for p in schema["paths"][path]["get"]["parameters"]}

    assert {"mine"} <= params("/api/bots/")
    assert {"mine", "kind"} <= params("/api/matches/")
    components = schema["components"]["schemas"]
    status = components["Bot"]["properties"]["latest_status"]
    enum = components[status["allOf"][0]["$ref"].rsplit("/", 1)[1]]["enum"]
    assert status["nullable"] and {s.value for s in VersionStatus} == set(enum)
    match = components["Match"]["properties"]
    assert {"kind", "rated"} <= set(match)
