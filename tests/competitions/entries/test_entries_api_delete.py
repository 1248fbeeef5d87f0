"""A DELETE of the entries and members endpoints takes its input from the query string, as
the schema documents it (``?version=``, ``?username=``), and answers 200 with the state, as
documented; the JSON body the first clients sent still works."""

from __future__ import annotations

from typing import Any

from bots.models import Bot, BotVersion
from catalog.models import Game
from competitions.models import EntryPolicy
from competitions.permissions import may_see_tournament
from competitions.tournaments.services import create_tournament
from rest_framework.test import APIClient


def _client(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _version(owner: Any, game: Game, name: str) -> BotVersion:
    return Bot.objects.create(owner=owner, game=game, name=name).versions.create(
        number=1, builtin_name="random"
    )


def test_withdraw_by_query_string(organiser: Any, trnd: Game, user: Any) -> None:
    t = create_tournament(
        organiser=organiser,
        game=trnd,
        name="Open",
        players_per_match=3,
        entry_policy=EntryPolicy.ANYONE,
    )
    a, b = _version(user, trnd, "a"), _version(user, trnd, "b")
    client, url = _client(user), f"/api/tournaments/{t.pk}/entries/"
    client.post(url, {"version": a.pk}, format="json")
    client.post(url, {"version": b.pk, "replace": a.pk}, format="json")
    assert client.get(url).json()["entrants"] == [b.pk]

    gone = client.delete(f"{url}?version={b.pk}")
    assert gone.status_code == 200 and gone.json()["entrants"] == [] and gone.json()["mine"] == []
    missing = client.delete(f"{url}?format=json")
    assert missing.status_code == 400 and "version" in missing.json()
    bad = client.delete(f"{url}?version=x")
    assert bad.status_code == 400 and "version" in bad.json()


def test_remove_a_member_by_query_string(organiser: Any, trnd: Game, user: Any) -> None:
    t = create_tournament(organiser=organiser, game=trnd, name="Club", players_per_match=3)
    owner, url = _client(organiser), f"/api/tournaments/{t.pk}/members/"
    owner.post(url, {"username": user.username}, format="json")
    assert may_see_tournament(user, t)
    gone = owner.delete(f"{url}?username={user.username}")
    assert gone.status_code == 200 and gone.json() == {"members": []}
    again = owner.delete(f"{url}?format=json", {"username": user.username}, format="json")
    assert again.status_code == 400 and "not a member" in str(again.json())
