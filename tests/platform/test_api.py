"""The REST API: reads, permissions, validation errors, token auth, a tournament run."""

from __future__ import annotations

import pytest
from bots.models import Bot
from django.contrib.auth.models import Group
from django.core.files.uploadedfile import SimpleUploadedFile
from matches.services import create_match, dispatch_match
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.site_fixtures import BOT_SOURCE, make_zip


@pytest.fixture
def api() -> APIClient:
    return APIClient()


@pytest.fixture
def finished_match(trnd, three_versions):
    return dispatch_match(create_match(game=trnd, versions=three_versions, seed=9))


def test_games_and_leaderboard(api, finished_match) -> None:
    games = api.get("/api/games/").json()
    assert {g["slug"] for g in games} == {"trnd", "tri-area", "trishaw-frenzy", "manhattan-traffiq"}
    trnd = api.get("/api/games/trnd/").json()
    assert trnd["min_players"] == 3 and "greedy" in trnd["builtin_bots"]
    board = api.get("/api/games/trnd/leaderboard/").json()["results"]
    assert len(board) == 3 and all(r["matches_played"] == 1 and r["provisional"] for r in board)
    assert board[0]["ordinal"] >= board[-1]["ordinal"]
    assert api.get("/api/games/nope/leaderboard/").status_code == 404


def test_matches_list_detail_replay(api, finished_match) -> None:
    listing = api.get("/api/matches/?game=trnd&status=finished").json()
    # Keyset pages: no total count, opaque next/previous links.
    assert len(listing["results"]) == 1 and listing["next"] is None
    row = listing["results"][0]
    assert row["id"] == finished_match.pk and len(row["seats"]) == 3
    assert {s["rank"] for s in row["seats"]} >= {1}
    assert api.get("/api/matches/?status=done").status_code == 400
    detail = api.get(f"/api/matches/{finished_match.pk}/").json()
    assert detail["result"]["scores"] == [s["score"] for s in detail["seats"]]
    replay = api.get(f"/api/matches/{finished_match.pk}/replay/").json()
    assert replay["format"] == "meeple-arena-replay" and replay["decisions"]


def test_bot_create_and_upload_need_auth_and_ownership(api, user, other_user, trnd) -> None:
    assert api.post("/api/bots/", {"game": "trnd", "name": "x"}).status_code in (401, 403)
    token = Token.objects.create(user=user)
    api.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    r = api.post("/api/bots/", {"game": "trnd", "name": "apibot"}, format="json")
    assert r.status_code == 201 and r.json()["owner"] == "alice"
    bot_id = r.json()["id"]
    dup = api.post("/api/bots/", {"game": "trnd", "name": "apibot"}, format="json")
    assert dup.status_code == 400 and "already have a bot" in str(dup.json())
    assert api.post("/api/bots/", {"game": "chess", "name": "y"}, format="json").status_code == 400

    bad = api.post(
        f"/api/bots/{bot_id}/versions/",
        {"code": SimpleUploadedFile("b.zip", make_zip({"a.py": b"1"}))},
        format="multipart",
    )
    assert bad.status_code == 400 and "no main.py" in str(bad.json()["code"])
    ok = api.post(
        f"/api/bots/{bot_id}/versions/",
        {"code": SimpleUploadedFile("main.py", BOT_SOURCE)},
        format="multipart",
    )
    assert ok.status_code == 201 and ok.json()["number"] == 1
    versions = api.get(f"/api/bots/{bot_id}/versions/").json()
    assert [v["number"] for v in versions] == [1]

    api.force_authenticate(other_user)
    denied = api.post(
        f"/api/bots/{bot_id}/versions/",
        {"code": SimpleUploadedFile("main.py", BOT_SOURCE)},
        format="multipart",
    )
    assert denied.status_code == 403
    assert Bot.objects.get(pk=bot_id).versions.count() == 1
    assert api.get("/api/bots/?game=trnd&owner=alice").json()["count"] == 1


def test_token_endpoint(api, user) -> None:
    r = api.post("/api/auth/token/", {"username": "alice", "password": "pw-alice-123"})
    assert r.status_code == 200 and r.json()["token"]
    assert (
        api.post("/api/auth/token/", {"username": "alice", "password": "wrong"}).status_code == 400
    )


def test_tournament_create_permissions_and_start(
    api, user, other_user, trnd, three_versions, django_capture_on_commit_callbacks
) -> None:
    body = {
        "game": "trnd",
        "name": "API Cup",
        "players_per_match": 3,
        "entrants": [v.pk for v in three_versions],
        "seed": 11,
    }
    api.force_authenticate(user)
    assert api.post("/api/tournaments/", body, format="json").status_code == 403
    user.groups.add(Group.objects.create(name="organisers"))
    bad = api.post("/api/tournaments/", {**body, "players_per_match": 6}, format="json")
    assert bad.status_code == 400 and "not 6" in str(bad.json())
    r = api.post("/api/tournaments/", body, format="json")
    assert r.status_code == 201 and r.json()["status"] == "draft"
    tid = r.json()["id"]

    api.force_authenticate(other_user)
    assert api.post(f"/api/tournaments/{tid}/start/").status_code == 403
    api.force_authenticate(user)
    with django_capture_on_commit_callbacks(execute=True):
        started = api.post(f"/api/tournaments/{tid}/start/")
    # Accepted at once; the worker's task (run as the request's transaction commits) starts it.
    assert started.status_code == 202 and started.json()["status"] == "draft"
    assert api.get(f"/api/tournaments/{tid}/").json()["status"] != "draft"
    again = api.post(f"/api/tournaments/{tid}/start/")
    assert again.status_code == 400 and "already been started" in str(again.json())
    detail = api.get(f"/api/tournaments/{tid}/").json()
    assert detail["status"] == "finished"
    assert [row["position"] for row in detail["standings"]] == [1, 2, 3]
    assert sum(row["standing"]["wins"] for row in detail["standings"]) >= 1


def test_schema_and_docs(api, db) -> None:
    schema = api.get("/api/schema/")
    assert schema.status_code == 200 and b"/api/bots/{id}/versions/" in schema.content
    assert api.get("/api/docs/").status_code == 200
