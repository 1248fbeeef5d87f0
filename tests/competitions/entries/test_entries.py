"""Entries by participants (issue 22, item 1): the window, the policy, the caps, swapping and
withdrawing one's own qualified version, and the organisers adding and removing any."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from audiences.models import AudienceRole
from bots.models import Bot, BotVersion, VersionStatus
from catalog.models import Game
from competitions.entries.membership import add_member
from competitions.entries.services import (
    add_entrant,
    enter,
    entries_of,
    may_enter,
    qualified_versions,
    remove_entrant,
    withdraw,
)
from competitions.models import EntryPolicy, Tournament, TournamentStatus
from competitions.tournaments.services import create_tournament
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.utils import timezone


def bot_of(owner: Any, game: Game, name: str, versions: int = 1) -> list[BotVersion]:
    """A bot of ``owner`` with ``versions`` qualified versions (oldest first)."""
    bot = Bot.objects.create(owner=owner, game=game, name=name)
    return [bot.versions.create(number=n, builtin_name="random") for n in range(1, versions + 1)]


def open_cup(organiser: Any, game: Game, **settings: Any) -> Tournament:
    settings.setdefault("entry_policy", EntryPolicy.ANYONE)
    settings.setdefault("players_per_match", 3)  # TRND seats 3 to 5
    return create_tournament(organiser=organiser, game=game, name="Cup", **settings)


def entrant_ids(t: Tournament) -> set[int]:
    return set(t.entrants.values_list("pk", flat=True))


@pytest.fixture
def cup(organiser: Any, trnd: Game) -> Tournament:
    return open_cup(organiser, trnd)


def test_a_user_enters_a_qualified_version_of_their_own(cup: Tournament, user: Any) -> None:
    (v1,) = bot_of(user, cup.game, "mine")
    assert may_enter(user, cup)
    enter(user, cup, v1)
    assert entrant_ids(cup) == {v1.pk}
    assert entries_of(user, cup) == [v1]


def test_only_own_qualified_versions_of_the_game_enter(
    cup: Tournament, user: Any, other_user: Any, games: dict[str, Game]
) -> None:
    (theirs,) = bot_of(other_user, cup.game, "theirs")
    with pytest.raises(ValidationError, match="not one of your bots"):
        enter(user, cup, theirs)
    other_game = next(g for slug, g in games.items() if slug != cup.game.slug)
    (elsewhere,) = bot_of(user, other_game, "elsewhere")
    with pytest.raises(ValidationError, match="not a bot for this tournament's game"):
        enter(user, cup, elsewhere)
    (failed,) = bot_of(user, cup.game, "failed")
    BotVersion.objects.filter(pk=failed.pk).update(status=VersionStatus.FAILED)
    failed.refresh_from_db()
    with pytest.raises(ValidationError, match="has not qualified"):
        enter(user, cup, failed)
    (held,) = bot_of(user, cup.game, "held")
    BotVersion.objects.filter(pk=held.pk).update(held_at=timezone.now())
    held.refresh_from_db()
    with pytest.raises(ValidationError, match="has not qualified"):
        enter(user, cup, held)
    assert entrant_ids(cup) == set()
    assert {v.pk for v in qualified_versions(user, cup)} == set()


def test_the_window_bounds_entering_swapping_and_withdrawing(
    organiser: Any, trnd: Game, user: Any
) -> None:
    now = timezone.now()
    later = open_cup(
        organiser,
        trnd,
        entries_open_at=now + timedelta(hours=1),
        entries_close_at=now + timedelta(hours=2),
    )
    v1, v2 = bot_of(user, trnd, "mine", versions=2)
    assert not may_enter(user, later)
    with pytest.raises(ValidationError, match="not open yet"):
        enter(user, later, v1)
    Tournament.objects.filter(pk=later.pk).update(entries_open_at=now - timedelta(hours=1))
    later.refresh_from_db()
    enter(user, later, v1)
    Tournament.objects.filter(pk=later.pk).update(entries_close_at=now - timedelta(seconds=1))
    later.refresh_from_db()
    with pytest.raises(ValidationError, match="closed"):
        enter(user, later, v2)  # a swap
    with pytest.raises(ValidationError, match="closed"):
        withdraw(user, later, v1)
    assert entrant_ids(later) == {v1.pk}


def test_policies(organiser: Any, trnd: Game, user: Any, other_user: Any) -> None:
    (v,) = bot_of(user, trnd, "mine")
    chosen = open_cup(organiser, trnd, entry_policy=EntryPolicy.ORGANISER)
    with pytest.raises(ValidationError, match="organisers choose"):
        enter(user, chosen, v)
    members = open_cup(organiser, trnd, entry_policy=EntryPolicy.MEMBERS)
    with pytest.raises(ValidationError, match="members may enter"):
        enter(user, members, v)
    add_member(members, user.username)
    enter(user, members, v)
    private = open_cup(organiser, trnd, visibility="private")  # "anyone" of its members
    (w,) = bot_of(other_user, trnd, "theirs")
    with pytest.raises(ValidationError, match="members may enter"):
        enter(other_user, private, w)
    assert entrant_ids(members) == {v.pk} and entrant_ids(private) == set()


def test_swap_for_another_version_or_bot_and_withdraw(cup: Tournament, user: Any) -> None:
    v1, v2 = bot_of(user, cup.game, "mine", versions=2)
    (other_bot,) = bot_of(user, cup.game, "second")
    enter(user, cup, v1)
    enter(user, cup, v2)  # another version of the same bot: a swap
    assert entrant_ids(cup) == {v2.pk}
    enter(user, cup, other_bot)  # one entry per user: the other bot replaces it
    assert entrant_ids(cup) == {other_bot.pk}
    with pytest.raises(ValidationError, match="entered already"):
        enter(user, cup, other_bot)
    withdraw(user, cup, other_bot)
    assert entrant_ids(cup) == set()
    with pytest.raises(ValidationError, match="not entered"):
        withdraw(user, cup, other_bot)


def test_entries_per_user_cap(organiser: Any, trnd: Game, user: Any) -> None:
    t = open_cup(organiser, trnd, entries_per_user=2)
    a, b, c = (bot_of(user, trnd, name)[0] for name in "abc")
    enter(user, t, a)
    enter(user, t, b)
    with pytest.raises(ValidationError, match="the most allowed"):
        enter(user, t, c)
    enter(user, t, c, replacing=a)
    assert entrant_ids(t) == {b.pk, c.pk}
    with pytest.raises(ValidationError, match="not one of your entries"):
        enter(user, t, a, replacing=a)


def test_max_entries_holds_for_users_and_organisers(
    organiser: Any, trnd: Game, user: Any, other_user: Any, builtin_versions: list[BotVersion]
) -> None:
    t = open_cup(organiser, trnd, max_entries=3)
    add_entrant(organiser, t, builtin_versions[0])
    add_entrant(organiser, t, builtin_versions[1])
    (mine,) = bot_of(user, trnd, "mine")
    enter(user, t, mine)
    (theirs,) = bot_of(other_user, trnd, "theirs")
    with pytest.raises(ValidationError, match="full"):
        enter(other_user, t, theirs)
    (mine2,) = bot_of(user, trnd, "mine-too")
    enter(user, t, mine2)  # a swap needs no room
    assert entrant_ids(t) == {builtin_versions[0].pk, builtin_versions[1].pk, mine2.pk}
    remove_entrant(organiser, t, builtin_versions[0])
    enter(other_user, t, theirs)
    assert t.entrants.count() == 3


def test_organisers_add_and_remove_whatever_the_window_and_policy(
    organiser: Any, trnd: Game, user: Any, builtin_versions: list[BotVersion]
) -> None:
    t = open_cup(organiser, trnd, entry_policy=EntryPolicy.ORGANISER)
    Tournament.objects.filter(pk=t.pk).update(entries_close_at=timezone.now())
    (users_bot,) = bot_of(user, trnd, "mine")
    add_entrant(organiser, t, builtin_versions[0])
    add_entrant(organiser, t, users_bot)
    with pytest.raises(ValidationError, match="organisers add or remove"):
        add_entrant(user, t, builtin_versions[1])
    with pytest.raises(ValidationError, match="organisers add or remove"):
        remove_entrant(user, t, users_bot)
    co = get_user_model().objects.create_user("cora", password="pw-cora-123")
    add_member(t, co.username, AudienceRole.ORGANISER)
    remove_entrant(co, t, users_bot)
    assert entrant_ids(t) == {builtin_versions[0].pk}


def test_nothing_changes_once_started(cup: Tournament, user: Any, organiser: Any) -> None:
    (v,) = bot_of(user, cup.game, "mine")
    enter(user, cup, v)
    Tournament.objects.filter(pk=cup.pk).update(status=TournamentStatus.RUNNING)
    cup.refresh_from_db()
    for act in (
        lambda: withdraw(user, cup, v),
        lambda: remove_entrant(organiser, cup, v),
        lambda: add_entrant(organiser, cup, v),
    ):
        with pytest.raises(ValidationError, match="has started"):
            act()
    assert entrant_ids(cup) == {v.pk}
