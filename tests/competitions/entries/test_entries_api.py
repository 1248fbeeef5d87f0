"""The API of entries and members: create with the settings, enter/swap/withdraw for
oneself, managers add and remove any entrant, list and change members, read and rotate the
invitation, join by its code; 404 for whoever may not see (or manage)."""

from __future__ import annotations

from typing import Any

from audiences.models import AudienceRole
from bots.models import Bot, BotVersion
from catalog.models import Game
from competitions.entries.membership import invite_code
from competitions.models import EntryPolicy, Tournament, Visibility
from competitions.permissions import may_manage, may_see_tournament
from competitions.tournaments.services import create_tournament
from rest_framework.test import APIClient


def api(user: Any = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def version_of(owner: Any, game: Game, name: str) -> BotVersion:
    bot = Bot.objects.create(owner=owner, game=game, name=name)
    return bot.versions.create(number=1, builtin_name="random")


def test_create_with_settings(organiser: Any, trnd: Game) -> None:
    answer = api(organiser).post(
        "/api/tournaments/",
        {
            "game": "trnd",
            "name": "Class cup",
            "players_per_match": 3,
            "format": "swiss",
            "visibility": "private",
            "entry_policy": "members",
            "entries_close_at": "2031-05-01T10:00:00Z",
            "max_entries": 6,
            "round_spacing_hours": 24,
            "time_control": {"move_ms": 500},
        },
        format="json",
    )
    assert answer.status_code == 201, answer.json()
    body = answer.json()
    assert body["entrants"] == [] and body["visibility"] == "private"
    assert body["start_at"] == body["entries_close_at"] == "2031-05-01T10:00:00Z"
    assert body["time_control"] == {"start_ms": 5000, "move_ms": 500, "bank_ms": 10000}
    assert body["rated_on_ladder"] is False and body["max_entries"] == 6


def test_create_refuses_bad_settings_with_400(organiser: Any, trnd: Game) -> None:
    client = api(organiser)
    cases: list[tuple[dict[str, Any], str]] = [
        ({"time_control": {"move_ms": 10**7}}, "time_control"),
        ({"time_control": {"bank_ms": 10**9}}, "non_field_errors"),
        ({"entries_close_at": "2001-01-01T00:00:00Z"}, "non_field_errors"),
        ({"visibility": "hidden"}, "visibility"),
        ({"entries_per_user": 0}, "entries_per_user"),
    ]
    for bad, field in cases:
        data = {"game": "trnd", "name": "x", "players_per_match": 3, **bad}
        answer = client.post("/api/tournaments/", data, format="json")
        assert answer.status_code == 400, (bad, answer.content)
        assert field in answer.json() or "detail" in answer.json(), answer.json()
    assert Tournament.objects.count() == 0


def test_enter_swap_withdraw_for_oneself(organiser: Any, trnd: Game, user: Any) -> None:
    t = create_tournament(
        organiser=organiser,
        game=trnd,
        name="Open",
        players_per_match=3,
        entry_policy=EntryPolicy.ANYONE,
    )
    a, b = version_of(user, trnd, "a"), version_of(user, trnd, "b")
    client, url = api(user), f"/api/tournaments/{t.pk}/entries/"
    state = client.post(url, {"version": a.pk}, format="json").json()
    assert state["mine"] == [a.pk] and state["may_enter"] and state["window"] == "open"
    state = client.post(url, {"version": b.pk}, format="json").json()
    assert state["entrants"] == [b.pk]
    answer = client.post(url, {"version": 10**12}, format="json")
    assert answer.status_code == 400 and "No bot version" in str(answer.json())
    assert client.delete(url, {"version": b.pk}, format="json").json()["entrants"] == []
    assert api().post(url, {"version": a.pk}, format="json").status_code in (401, 403)
    assert api().get(url).json()["entrants"] == []


def test_managers_add_and_remove_any_and_others_are_refused(
    organiser: Any, trnd: Game, user: Any, builtin_versions: list[BotVersion]
) -> None:
    t = create_tournament(organiser=organiser, game=trnd, name="Chosen", players_per_match=3)
    url = f"/api/tournaments/{t.pk}/entries/"
    added = api(organiser).post(url, {"version": builtin_versions[0].pk}, format="json")
    assert added.status_code == 200 and added.json()["entrants"] == [builtin_versions[0].pk]
    refused = api(user).post(url, {"version": builtin_versions[1].pk}, format="json")
    assert refused.status_code == 400 and "organisers choose" in str(refused.json())
    removed = api(organiser).delete(url, {"version": builtin_versions[0].pk}, format="json")
    assert removed.json()["entrants"] == []


def test_members_and_invitation_are_for_managers_only(
    organiser: Any, trnd: Game, user: Any, other_user: Any
) -> None:
    t = create_tournament(
        organiser=organiser,
        game=trnd,
        name="Private",
        players_per_match=3,
        visibility=Visibility.PRIVATE,
    )
    members, invite = f"/api/tournaments/{t.pk}/members/", f"/api/tournaments/{t.pk}/invite/"
    for client in (api(user), api(other_user)):  # not members: the tournament is not there
        assert client.get(members).status_code == 404
        assert client.get(invite).status_code == 404
        assert client.get(f"/api/tournaments/{t.pk}/entries/").status_code == 404
    owner = api(organiser)
    added = owner.post(members, {"username": user.username}, format="json")
    assert added.json()["members"][0]["username"] == user.username
    assert api(user).get(members).status_code == 404  # a member sees it, but manages nothing
    assert api(user).get(f"/api/tournaments/{t.pk}/").status_code == 200
    owner.post(members, {"username": user.username, "role": "organiser"}, format="json")
    assert may_manage(user, t)
    assert api(user).get(members).json()["members"][0]["role"] == AudienceRole.ORGANISER
    link = owner.get(invite).json()
    assert link["code"] == invite_code(t) and link["url"] == f"/tournaments/join/{link['code']}/"
    rotated = api(user).post(invite).json()  # the co-organiser rotates it
    assert rotated["code"] != link["code"]
    join = api(other_user).post("/api/tournaments/join/", {"token": link["code"]}, format="json")
    assert join.status_code == 404
    join = api(other_user).post("/api/tournaments/join/", {"token": rotated["code"]}, format="json")
    assert join.status_code == 200 and join.json() == {"tournament": t.pk, "name": "Private"}
    assert may_see_tournament(other_user, t)
    gone = owner.delete(members, {"username": other_user.username}, format="json")
    assert gone.status_code == 200 and not may_see_tournament(other_user, t)
    again = owner.delete(members, {"username": other_user.username}, format="json")
    assert again.status_code == 400
    unknown = owner.post(members, {"username": "nobody"}, format="json")
    assert unknown.status_code == 400 and "No user is named" in str(unknown.json())
