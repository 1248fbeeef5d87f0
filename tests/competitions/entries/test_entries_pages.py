"""The pages of entries and members: a user's entry form on the tournament page, the
managers' entrants and members parts, the invitation link's join page, and the new fields of
the new-tournament form."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from audiences.models import AudienceRole
from bots.models import Bot, BotVersion
from catalog.models import Game
from competitions.entries.membership import add_member, invite_code
from competitions.models import EntryPolicy, Tournament, Visibility
from competitions.permissions import may_manage, may_see_tournament
from competitions.tournaments.services import create_tournament
from django.test import Client
from django.utils import timezone


def version_of(owner: Any, game: Game, name: str = "mine") -> BotVersion:
    bot = Bot.objects.create(owner=owner, game=game, name=name)
    return bot.versions.create(number=1, builtin_name="random")


def cup(organiser: Any, game: Game, **kw: Any) -> Tournament:
    kw.setdefault("entry_policy", EntryPolicy.ANYONE)
    return create_tournament(
        organiser=organiser, game=game, name="Friday cup", players_per_match=3, **kw
    )


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_user_enters_swaps_and_withdraws_on_the_page(
    organiser: Any, trnd: Game, user: Any
) -> None:
    t = cup(organiser, trnd, time_control={"move_ms": 300})
    first, second = version_of(user, trnd, "a"), version_of(user, trnd, "b")
    client = logged_in(user)
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert "Your entry" in page and "move 300 ms" in page and "Any user enters" in page
    url = f"/tournaments/{t.pk}/entry/"
    answer = client.post(url, {"action": "enter", "version": first.pk})
    assert answer.status_code == 302 and set(t.entrants.all()) == {first}
    client.post(url, {"action": "enter", "version": second.pk})
    assert set(t.entrants.all()) == {second}
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    # The entry is listed with its Withdraw button; the swap offers the other version only.
    assert f'name="version" value="{second.pk}">' in page and "Withdraw" in page
    assert f'<option value="{first.pk}">' in page
    assert f'<option value="{second.pk}">' not in page
    client.post(url, {"action": "withdraw", "version": second.pk})
    assert t.entrants.count() == 0


def test_a_refusal_is_a_message_not_an_error(organiser: Any, trnd: Game, user: Any) -> None:
    t = cup(organiser, trnd, entries_close_at=timezone.now() + timedelta(hours=1))
    Tournament.objects.filter(pk=t.pk).update(entries_close_at=timezone.now())
    v = version_of(user, trnd)
    answer = logged_in(user).post(
        f"/tournaments/{t.pk}/entry/", {"action": "enter", "version": v.pk}, follow=True
    )
    assert answer.status_code == 200 and "Entries are closed." in answer.content.decode()
    assert t.entrants.count() == 0


def test_manage_forms_are_404_to_others_and_login_to_anonymous(
    organiser: Any, trnd: Game, user: Any, builtin_versions: list[BotVersion]
) -> None:
    t = cup(organiser, trnd)
    posts = {
        f"/tournaments/{t.pk}/entrants/": {"action": "add", "version": builtin_versions[0].pk},
        f"/tournaments/{t.pk}/members/": {"action": "add", "username": user.username},
        f"/tournaments/{t.pk}/invite/": {},
    }
    client = logged_in(user)
    for url, data in posts.items():
        assert client.post(url, data).status_code == 404, url
        anonymous = Client().post(url, data)
        assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    assert t.entrants.count() == 0 and t.invite_token == ""
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert "Invitation link" not in page and "Add the entrant" not in page


def test_organiser_adds_entrants_and_members_and_makes_a_co_organiser(
    organiser: Any, trnd: Game, user: Any, other_user: Any, builtin_versions: list[BotVersion]
) -> None:
    t = cup(organiser, trnd, visibility=Visibility.PRIVATE)
    client = logged_in(organiser)
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert invite_code(t) in page and "Add the entrant" in page
    client.post(
        f"/tournaments/{t.pk}/entrants/", {"action": "add", "version": builtin_versions[0].pk}
    )
    assert list(t.entrants.all()) == [builtin_versions[0]]
    client.post(f"/tournaments/{t.pk}/members/", {"action": "add", "username": user.username})
    assert may_see_tournament(user, t) and not may_manage(user, t)
    client.post(
        f"/tournaments/{t.pk}/members/",
        {"action": "role", "username": user.username, "role": AudienceRole.ORGANISER},
    )
    assert may_manage(user, t)
    # The co-organiser manages: removes the entrant, adds a member.
    co = logged_in(user)
    co.post(
        f"/tournaments/{t.pk}/entrants/",
        {"action": "remove", "version": builtin_versions[0].pk},
    )
    co.post(f"/tournaments/{t.pk}/members/", {"action": "add", "username": other_user.username})
    assert t.entrants.count() == 0 and may_see_tournament(other_user, t)
    client.post(
        f"/tournaments/{t.pk}/members/", {"action": "remove", "username": other_user.username}
    )
    assert not may_see_tournament(other_user, t)


def test_rotating_the_link_on_the_page(organiser: Any, trnd: Game) -> None:
    t = cup(organiser, trnd, visibility=Visibility.PRIVATE)
    old = invite_code(t)
    logged_in(organiser).post(f"/tournaments/{t.pk}/invite/")
    t.refresh_from_db()
    assert invite_code(t) != old
    assert Client().get(f"/tournaments/join/{old}/").status_code in (302, 404)


def test_the_join_page(organiser: Any, trnd: Game, user: Any) -> None:
    t = cup(organiser, trnd, visibility=Visibility.PRIVATE)
    url = f"/tournaments/join/{invite_code(t)}/"
    anonymous = Client().get(url)
    assert anonymous.status_code == 302
    assert anonymous["Location"].startswith("/accounts/login/?next=/tournaments/join/")
    client = logged_in(user)
    assert client.get(f"/tournaments/{t.pk}/").status_code == 404
    page = client.get(url)
    assert page.status_code == 200 and "Join the tournament" in page.content.decode()
    assert not may_see_tournament(user, t)  # a GET changes nothing
    joined = client.post(url)
    assert joined.status_code == 302 and joined["Location"] == f"/tournaments/{t.pk}/"
    assert client.get(f"/tournaments/{t.pk}/").status_code == 200
    assert client.get(f"/tournaments/join/{t.pk}.wrong/").status_code == 404
    assert client.post(f"/tournaments/join/{t.pk}.wrong/").status_code == 404


def test_posts_need_the_csrf_token(organiser: Any, trnd: Game, user: Any) -> None:
    t = cup(organiser, trnd, visibility=Visibility.PRIVATE)
    add_member(t, user.username)
    v = version_of(user, trnd)
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    answer = client.post(f"/tournaments/{t.pk}/entry/", {"action": "enter", "version": v.pk})
    assert answer.status_code == 403 and t.entrants.count() == 0
    joined = client.post(f"/tournaments/join/{invite_code(t)}/")
    assert joined.status_code == 403


@pytest.mark.parametrize("policy", [EntryPolicy.ANYONE, EntryPolicy.MEMBERS])
def test_the_new_form_takes_the_settings_without_entrants(
    organiser: Any, trnd: Game, policy: str
) -> None:
    answer = logged_in(organiser).post(
        "/tournaments/new/?game=trnd",
        {
            "name": "Class 4B",
            "players_per_match": 3,
            "games_per_pairing": 1,
            "opt_target_score": 0,
            "opt_max_rounds": 30,
            "opt_scoring": "linear",
            "visibility": "private",
            "entry_policy": policy,
            "entries_close_at": "2031-03-01T18:00",
            "tz": "Europe/Paris",
            "entries_per_user": 1,
            "max_entries": 6,
            "round_spacing_hours": 24,
            "time_move_ms": 400,
        },
    )
    assert answer.status_code == 302, answer.content.decode()[:3000]
    t = Tournament.objects.get(name="Class 4B")
    assert t.entrants.count() == 0 and t.visibility == "private" and t.entry_policy == policy
    assert t.entries_close_at is not None
    assert t.entries_close_at.isoformat() == "2031-03-01T17:00:00+00:00"
    assert t.start_at == t.entries_close_at and t.round_spacing_hours == 24
    assert t.time_control == {"start_ms": 5000, "move_ms": 400, "bank_ms": 10000}
    assert t.rated_on_ladder is False and t.audience_id and t.invite_token


def test_the_new_form_still_wants_entrants_when_organisers_choose(
    organiser: Any, trnd: Game
) -> None:
    answer = logged_in(organiser).post(
        "/tournaments/new/?game=trnd",
        {
            "name": "Chosen",
            "players_per_match": 3,
            "games_per_pairing": 1,
            "opt_target_score": 0,
            "opt_max_rounds": 30,
            "opt_scoring": "linear",
            "visibility": "public",
            "entry_policy": "organiser",
            "entries_per_user": 1,
            "round_spacing_hours": 0,
        },
    )
    assert answer.status_code == 400 and "or let users enter" in answer.content.decode()
