"""Each event the site tells users about, from the real path that causes it (uploads checked
and qualified, ladder matches, challenges, tournaments played inline by the eager worker):
the in-site notification and the email (locmem outbox), to the right person only."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from bots.models import Bot, BotVersion, VersionStatus
from bots.services import SYSTEM_USERNAME, upload_version
from competitions import notices
from competitions.tournaments.services import create_tournament, start_tournament
from django.contrib.auth import get_user_model
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext
from ladder import services as ladder_services
from ladder.challenges import create_challenge
from ladder.models import LadderEntry
from matches.models import Match, MatchStatus
from notifications.models import Notification, NotificationKind

from tests.bots.test_upload_check import BROKEN
from tests.ladder.test_ladder import CRASH_SOURCE, flaky_source
from tests.site_fixtures import BOT_SOURCE

Kind = NotificationKind


def _told(user: Any, kind: str) -> list[Notification]:
    return list(Notification.objects.filter(user=user, kind=kind).order_by("pk"))


def _mailed(address: str) -> list[Any]:
    return [m for m in mail.outbox if m.to == [address]]


def _active_bot(owner: Any, game: Any, name: str) -> Bot:
    """A bot of ``owner`` with a qualified version (a built-in's moves: quick, in-process)."""
    bot = Bot.objects.create(owner=owner, game=game, name=name)
    bot.versions.create(number=1, builtin_name="random", status=VersionStatus.ACTIVE)
    return bot


def test_an_upload_that_does_not_build(
    user: Any, other_user: Any, user_bot: Bot, builtin_versions: Any, inline: Callable[..., Any]
) -> None:
    version = inline(upload_version, bot=user_bot, filename="main.py", data=BROKEN)
    version.refresh_from_db()
    assert version.status == VersionStatus.FAILED
    [n] = _told(user, Kind.VERSION_FAILED)
    assert n.title == f"{user_bot.name} v1 failed to build"
    assert n.url == f"/bots/{user_bot.pk}/" and "syntax error on line 3" in n.body
    [email] = _mailed(user.email)
    assert email.subject == f"Meeple Arena: {n.title}" and "syntax error" in email.body
    assert not Notification.objects.filter(user=other_user).exists()


def test_an_upload_that_fails_its_qualification(
    user: Any, user_bot: Bot, builtin_versions: Any, inline: Callable[..., Any]
) -> None:
    version = inline(upload_version, bot=user_bot, filename="main.py", data=CRASH_SOURCE)
    version.refresh_from_db()
    assert version.status == VersionStatus.FAILED
    [n] = _told(user, Kind.VERSION_FAILED)
    assert n.title == f"{user_bot.name} v1 failed its qualification match"
    assert "Crashed" in n.body
    assert len(_mailed(user.email)) == 1


def test_a_version_that_qualifies_tells_nothing(
    user: Any, user_bot: Bot, builtin_versions: Any, inline: Callable[..., Any]
) -> None:
    version = inline(upload_version, bot=user_bot, filename="main.py", data=BOT_SOURCE)
    version.refresh_from_db()
    assert version.status == VersionStatus.ACTIVE
    assert not Notification.objects.exists() and not mail.outbox


def test_a_suspension(
    user: Any, user_bot: Bot, builtin_versions: Any, inline: Callable[..., Any]
) -> None:
    # As tests/ladder/test_ladder.py: it qualifies, then crashes in every later match.
    marker = Match.objects.create(game=user_bot.game, status=MatchStatus.ERROR, error="marker")
    inline(upload_version, bot=user_bot, filename="main.py", data=flaky_source(marker.pk + 1))
    entry = LadderEntry.objects.get(bot=user_bot)
    for _ in range(8):
        inline(ladder_services.tick, user_bot.game, rng=random.Random(4))
        entry.refresh_from_db()
        if entry.is_suspended:
            break
    assert entry.is_suspended
    [n] = _told(user, Kind.BOT_SUSPENDED)
    assert n.title == f"{user_bot.name} is suspended from the ladder"
    assert n.body == entry.suspended_reason and n.url == f"/bots/{user_bot.pk}/"
    assert [m.subject for m in _mailed(user.email)] == [f"Meeple Arena: {n.title}"]


def test_a_challenge_played_tells_the_challenger_only(
    user: Any,
    other_user: Any,
    trnd: Any,
    builtin_versions: list[BotVersion],
    inline: Callable[..., Any],
) -> None:
    mine = _active_bot(user, trnd, "mine")
    theirs = _active_bot(other_user, trnd, "theirs")
    match = inline(
        create_challenge, user=user, bot=mine, opponents=[theirs, builtin_versions[0].bot]
    )
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    [n] = _told(user, Kind.CHALLENGE_PLAYED)
    rank = match.seats.get(seat=0).rank
    assert n.title == f"Challenge played: mine placed {rank} of 3"
    assert n.url == f"/matches/{match.pk}/" and "theirs" in n.body
    assert len(_mailed(user.email)) == 1
    assert not Notification.objects.filter(user=other_user).exists()
    assert not _mailed(other_user.email)


def test_a_tournament_tells_each_entrants_owner_once_when_it_starts_and_ends(
    user: Any,
    other_user: Any,
    trnd: Any,
    builtin_versions: list[BotVersion],
    inline: Callable[..., Any],
) -> None:
    system = get_user_model().objects.get(username=SYSTEM_USERNAME)
    system.email = "arena@example.com"  # the built-ins' owner is never written to
    system.save()
    organiser = get_user_model().objects.create_user("org", email="org@example.com")
    mine = [_active_bot(user, trnd, f"mine{i}").versions.get() for i in range(2)]
    theirs = _active_bot(other_user, trnd, "theirs").versions.get()
    t = create_tournament(
        organiser=organiser,
        game=trnd,
        name="Class cup",
        entrants=[*mine, theirs, builtin_versions[0]],
        players_per_match=3,
    )
    inline(start_tournament, t)
    t.refresh_from_db()
    assert t.status == "finished"
    for person in (user, other_user):
        [started] = _told(person, Kind.COMPETITION_STARTED)
        [ended] = _told(person, Kind.COMPETITION_ENDED)
        assert started.title == "Class cup has started" and ended.title == "Class cup has ended"
        assert started.url == ended.url == f"/tournaments/{t.pk}/"
        assert ended.body.startswith("Winner: ")
        assert sorted(m.subject for m in _mailed(person.email)) == [
            "Meeple Arena: Class cup has ended",
            "Meeple Arena: Class cup has started",
        ]
    assert not Notification.objects.filter(user__in=[system, organiser]).exists()
    assert not _mailed(system.email) and not _mailed(organiser.email)


def test_telling_a_field_costs_the_same_queries_whatever_its_size(
    user: Any, trnd: Any, builtin_versions: list[BotVersion]
) -> None:
    def started_queries(entrants: int) -> int:
        owners = [
            get_user_model().objects.create_user(f"u{entrants}-{i}", email=f"{i}@x.example")
            for i in range(entrants)
        ]
        versions = [
            _active_bot(o, trnd, f"b{entrants}-{i}").versions.get() for i, o in enumerate(owners)
        ]
        t = create_tournament(
            organiser=user, game=trnd, name=f"T{entrants}", entrants=versions, players_per_match=3
        )
        start_tournament(t, dispatch=False)
        with CaptureQueriesContext(connection) as ctx:
            notices.tournament_started(t)
        assert (
            Notification.objects.filter(user__in=owners, kind=Kind.COMPETITION_STARTED).count()
            == entrants * 2
        )
        return len(ctx.captured_queries)

    assert started_queries(3) == started_queries(12)
