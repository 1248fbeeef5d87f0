"""Members of a tournament (issue 22, items 2 and 7): the audience every private tournament
has, the invitation link (joined by its code, void once rotated), members added and removed
by name, co-organisers who manage, and the admin's hand-over."""

from __future__ import annotations

from typing import Any

import pytest
from audiences.models import AudienceMember, AudienceRole
from bots.models import Bot
from catalog.models import Game
from competitions.entries.membership import (
    add_member,
    hand_over,
    invite_code,
    join_by_token,
    members_of,
    remove_member,
    rotate_invite,
)
from competitions.entries.services import enter
from competitions.models import EntryPolicy, Tournament, Visibility
from competitions.permissions import may_manage, may_see_tournament
from competitions.tournaments.services import create_tournament
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.http import Http404
from django.test import Client


@pytest.fixture
def private(organiser: Any, trnd: Game) -> Tournament:
    return create_tournament(
        organiser=organiser,
        game=trnd,
        name="Class 4B",
        players_per_match=3,
        visibility=Visibility.PRIVATE,
        entry_policy=EntryPolicy.MEMBERS,
    )


def test_a_private_tournament_has_an_audience_and_a_link_from_the_start(
    private: Tournament, organiser: Any, user: Any
) -> None:
    assert private.audience_id is not None and len(private.invite_token) >= 32
    code = invite_code(private)
    assert code == f"{private.pk}.{private.invite_token}"
    assert may_see_tournament(organiser, private) and not may_see_tournament(user, private)


def test_joining_by_the_link_makes_a_member_who_may_see_and_enter(
    private: Tournament, user: Any
) -> None:
    joined = join_by_token(user, invite_code(private))
    assert joined.pk == private.pk
    assert may_see_tournament(user, private) and not may_manage(user, private)
    join_by_token(user, invite_code(private))  # twice: still one row
    assert AudienceMember.objects.filter(audience=private.audience, user=user).count() == 1
    bot = Bot.objects.create(owner=user, game=private.game, name="mine")
    enter(user, private, bot.versions.create(number=1, builtin_name="random"))
    assert private.entrants.count() == 1


@pytest.mark.parametrize(
    "code",
    [
        "",
        "nonsense",
        "1.",
        ".abc",
        "x.abc",
        "99999.abc",
        "1" * 30 + ".abc",
        "1.\u00e9\u00e9",
    ],
)
def test_a_malformed_or_unknown_code_is_404(private: Tournament, user: Any, code: str) -> None:
    with pytest.raises(Http404):
        join_by_token(user, code)
    assert not may_see_tournament(user, private)


def test_a_rotated_link_is_void(private: Tournament, user: Any, other_user: Any) -> None:
    old = invite_code(private)
    new = rotate_invite(private)
    assert new != old and new == invite_code(Tournament.objects.get(pk=private.pk))
    with pytest.raises(Http404):
        join_by_token(user, old)
    wrong_secret = f"{private.pk}.{private.invite_token[:-1]}x"
    with pytest.raises(Http404):
        join_by_token(user, wrong_secret)
    join_by_token(other_user, new)
    assert not may_see_tournament(user, private) and may_see_tournament(other_user, private)


def test_a_public_tournament_has_no_link_until_one_is_made(organiser: Any, trnd: Game) -> None:
    t = create_tournament(organiser=organiser, game=trnd, name="Open", players_per_match=3)
    assert t.invite_token == "" and t.audience_id is None
    with pytest.raises(Http404):
        join_by_token(organiser, f"{t.pk}.")
    code = rotate_invite(t)
    t.refresh_from_db()
    assert t.audience_id is not None and code.startswith(f"{t.pk}.")


def test_members_by_name_and_co_organisers_manage(
    private: Tournament, user: Any, other_user: Any
) -> None:
    add_member(private, user.username)
    add_member(private, other_user.username, AudienceRole.ORGANISER)
    assert not may_manage(user, private) and may_manage(other_user, private)
    assert [(m.user.username, m.role) for m in members_of(private)] == [
        (other_user.username, "organiser"),
        (user.username, "member"),
    ]
    add_member(private, user.username, AudienceRole.ORGANISER)  # promoted
    assert may_manage(user, private)
    with pytest.raises(ValidationError, match="No user is named"):
        add_member(private, "nobody-here")
    with pytest.raises(ValidationError, match="organises this tournament"):
        add_member(private, private.organiser.username)
    with pytest.raises(ValidationError, match="Unknown role"):
        add_member(private, user.username, "owner")


def test_removing_a_member_takes_their_entries_out_of_a_draft(
    private: Tournament, user: Any
) -> None:
    add_member(private, user.username)
    bot = Bot.objects.create(owner=user, game=private.game, name="mine")
    enter(user, private, bot.versions.create(number=1, builtin_name="random"))
    assert remove_member(private, user) is True
    assert private.entrants.count() == 0 and not may_see_tournament(user, private)
    assert remove_member(private, user) is False


def test_hand_over_keeps_the_previous_organiser_as_co_organiser(
    private: Tournament, organiser: Any, user: Any
) -> None:
    add_member(private, user.username)
    hand_over(private, user)
    t = Tournament.objects.get(pk=private.pk)
    assert t.organiser_id == user.pk
    assert may_manage(organiser, t) and may_manage(user, t)
    assert not AudienceMember.objects.filter(audience=t.audience, user=user).exists()
    third = get_user_model().objects.create_user("tess", password="pw-tess-123")
    hand_over(t, third, keep_previous=False)
    t.refresh_from_db()
    assert t.organiser_id == third.pk and not may_manage(user, t)
    assert may_manage(organiser, t)  # kept from the first hand-over


def test_the_admin_hands_a_tournament_over(private: Tournament, organiser: Any, user: Any) -> None:
    staff = get_user_model().objects.create_user("sam", password="pw-sam-123", is_staff=True)
    staff.is_superuser = True
    staff.save()
    client = Client()
    client.force_login(staff)
    url = "/admin/competitions/tournament/"
    chosen = {"action": "hand_over_action", "_selected_action": [private.pk]}
    page = client.post(url, chosen)
    assert page.status_code == 200 and "Hand over" in page.content.decode()
    refused = client.post(url, {**chosen, "apply": "1", "username": "nobody"})
    assert "No active user is named" in refused.content.decode()
    assert Tournament.objects.get(pk=private.pk).organiser_id == organiser.pk
    kept = {"apply": "1", "username": user.username, "keep_previous": "on"}
    assert client.post(url, {**chosen, **kept}).status_code == 302
    t = Tournament.objects.get(pk=private.pk)
    assert t.organiser_id == user.pk and may_manage(organiser, t)
    client.post(url, {**chosen, "apply": "1", "username": organiser.username})  # box unticked
    t.refresh_from_db()
    assert t.organiser_id == organiser.pk and not may_manage(user, t)
