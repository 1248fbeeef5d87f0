"""The notifications' API: your own list only (paginated, ``?unread=``), marking read by ids
(others' ignored) or all, preferences read and changed; 401 without a token, 400 for bad input."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from notifications.models import Notification, NotificationKind, NotificationPreference
from notifications.services import notify
from rest_framework.authtoken.models import Token

pytestmark = pytest.mark.django_db
K = NotificationKind.COMPETITION_ENDED


def _client(user: Any) -> Client:
    return Client(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")


@pytest.fixture
def told(user: Any, other_user: Any) -> dict[str, list[int]]:
    for i in range(3):
        notify(user, K, f"mine {i}", f"/tournaments/{i + 1}/")
    notify(other_user, K, "theirs", "/tournaments/9/")
    mine = list(Notification.objects.filter(user=user).order_by("pk").values_list("pk", flat=True))
    theirs = list(Notification.objects.filter(user=other_user).values_list("pk", flat=True))
    return {"mine": mine, "theirs": theirs}


def test_anonymous_gets_401_everywhere(client: Client) -> None:
    assert client.get("/api/notifications/").status_code == 401
    assert (
        client.post("/api/notifications/read/", {"all": True}, "application/json").status_code
        == 401
    )
    assert client.get("/api/notifications/preferences/").status_code == 401
    assert client.put("/api/notifications/preferences/", {}, "application/json").status_code == 401


def test_the_list_is_ones_own_newest_first(user: Any, told: dict[str, list[int]]) -> None:
    body = _client(user).get("/api/notifications/").json()
    assert body["count"] == 3
    assert [r["id"] for r in body["results"]] == told["mine"][::-1]
    first = body["results"][0]
    assert first["title"] == "mine 2" and first["url"] == "/tournaments/3/"
    assert first["kind"] == K and first["read_at"] is None and first["body"] == ""


def test_unread_filter_and_its_bad_values(user: Any, told: dict[str, list[int]]) -> None:
    api = _client(user)
    Notification.objects.filter(pk=told["mine"][0]).update(read_at="2026-01-01T00:00:00Z")
    assert [r["id"] for r in api.get("/api/notifications/?unread=true").json()["results"]] == (
        told["mine"][:0:-1]
    )
    assert [r["id"] for r in api.get("/api/notifications/?unread=false").json()["results"]] == (
        told["mine"][:1]
    )
    bad = api.get("/api/notifications/?unread=maybe")
    assert bad.status_code == 400 and "unread" in bad.json()
    assert api.get("/api/notifications/?page=9").status_code == 404


def test_mark_read_by_ids_ignores_others_and_all(
    user: Any, other_user: Any, told: dict[str, list[int]]
) -> None:
    api = _client(user)
    answer = api.post(
        "/api/notifications/read/",
        {"ids": [told["mine"][0], told["theirs"][0]]},
        "application/json",
    )
    assert answer.status_code == 200 and answer.json() == {"marked": 1, "unread": 2}
    assert Notification.objects.get(pk=told["theirs"][0]).read_at is None
    answer = api.post("/api/notifications/read/", {"all": True}, "application/json")
    assert answer.json() == {"marked": 2, "unread": 0}
    assert Notification.objects.filter(user=other_user, read_at__isnull=True).count() == 1


@pytest.mark.parametrize(
    "body",
    [{}, {"ids": []}, {"ids": ["x"]}, {"ids": [1], "all": True}, {"ids": list(range(1, 502))}],
)
def test_mark_read_refuses_bad_bodies(user: Any, body: dict[str, Any]) -> None:
    answer = _client(user).post("/api/notifications/read/", body, "application/json")
    assert answer.status_code == 400, answer.content


def test_preferences_read_and_change(user: Any, other_user: Any) -> None:
    api = _client(user)
    start = api.get("/api/notifications/preferences/").json()
    assert list(start) == NotificationKind.values
    assert all(v == {"site": True, "email": True} for v in start.values())
    answer = api.put(
        "/api/notifications/preferences/",
        {"challenge_played": {"email": False}, "bot_suspended": {"site": False, "email": False}},
        "application/json",
    )
    assert answer.status_code == 200
    after = answer.json()
    assert after["challenge_played"] == {"site": True, "email": False}
    assert after["bot_suspended"] == {"site": False, "email": False}
    assert after["version_failed"] == {"site": True, "email": True}
    assert api.get("/api/notifications/preferences/").json() == after
    # Another user's preferences are untouched (and never readable here).
    assert not NotificationPreference.objects.filter(user=other_user).exists()


@pytest.mark.parametrize(
    "body",
    [{"no_such_kind": {"site": False}}, {"challenge_played": {"site": "perhaps"}}, ["x"]],
)
def test_preferences_refuse_bad_bodies(user: Any, body: Any) -> None:
    answer = _client(user).put("/api/notifications/preferences/", body, "application/json")
    assert answer.status_code == 400, answer.content
    assert not NotificationPreference.objects.exists()
