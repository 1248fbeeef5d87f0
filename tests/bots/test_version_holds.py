"""A version whose matches keep ending in a platform error is held for staff instead of being
tried forever (issue 18, item 4): the streak counts errors in a row, a finished match resets
it, at ``ARENA_VERSION_ERROR_LIMIT`` nothing schedules the version any more, the admin shows
and filters it and staff release it.

Matches are real (the process sandbox, played inline); the platform's failure is a sandbox
that cannot start a bot, as when the Docker engine does not answer."""

from __future__ import annotations

import hashlib
import logging
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from bots.models import Bot, BotVersion, VersionStatus
from bots.selectors import playing_versions
from django.contrib.auth import get_user_model
from django.core.files.base import ContentFile
from django.test import Client
from django.utils import timezone
from ladder import entries, services
from ladder.models import LadderMatch
from matches.models import Match, MatchKind, MatchStatus
from matches.services import create_match, dispatch_match

from arena import seat_start
from sandbox.base import SandboxError
from tests.site_fixtures import BOT_SOURCE


@pytest.fixture(autouse=True)
def _settings(settings: Any) -> None:
    settings.ARENA_SANDBOX = "process"
    settings.ARENA_ALLOW_UNSAFE_SANDBOX = True
    settings.ARENA_LADDER_BUDGET = 1
    settings.ARENA_VERSION_ERROR_LIMIT = 3


class Platform:
    """Whether the sandbox starts bots: ``broken = True`` makes every uploaded bot's match an
    ``error`` (built-ins play in-process and need no sandbox)."""

    broken = False


@pytest.fixture
def platform(monkeypatch: pytest.MonkeyPatch) -> Iterator[Platform]:
    state = Platform()
    real = seat_start.resolve_sandbox

    def resolve(sandbox: Any) -> Any:
        if state.broken:
            raise SandboxError("the Docker engine does not answer")
        return real(sandbox)

    monkeypatch.setattr(seat_start, "resolve_sandbox", resolve)
    yield state


def _version(bot: Bot, status: str, number: int = 1) -> BotVersion:
    code = BOT_SOURCE + b"\n" * number  # versions of one bot differ
    version = BotVersion(
        bot=bot,
        number=number,
        status=status,
        sha256=hashlib.sha256(code).hexdigest(),
        size_bytes=len(code),
    )
    version.code.save("main.py", ContentFile(code), save=False)
    version.save()
    return version


def _ladder_match(
    inline: Callable[..., Any], version: BotVersion, builtins: list[BotVersion]
) -> Match:
    game = version.bot.game
    match = create_match(
        game=game, versions=[version, *builtins[:2]], seed=3, kind=MatchKind.LADDER
    )
    LadderMatch.objects.create(match=match, game=game, kind=MatchKind.LADDER)
    inline(dispatch_match, match)
    match.refresh_from_db()
    return match


def test_qualification_errors_hold_the_version_instead_of_retrying(
    user_bot: Bot, builtin_versions: list[BotVersion], rounds: Any, platform: Platform, caplog: Any
) -> None:
    version = _version(user_bot, VersionStatus.UPLOADED)
    platform.broken = True
    with caplog.at_level(logging.WARNING):
        rounds(user_bot.game, 6)
    tried = Match.objects.filter(ladder__version=version)
    # Three qualification matches, then no more: before, each tick tried again, forever.
    assert tried.count() == 3
    assert {m.status for m in tried} == {MatchStatus.ERROR}
    version.refresh_from_db()
    assert version.held_at is not None and version.error_streak == 3
    assert version.status == VersionStatus.UPLOADED
    assert "3 matches in a row that ended in a platform error" in version.held_reason
    assert version.status_reason == version.held_reason  # what its owner reads
    held_logs = [r for r in caplog.records if r.levelno >= logging.ERROR and "held" in r.msg]
    assert len(held_logs) == 1 and str(version.pk) in held_logs[0].getMessage()
    # The built-ins of those matches are never held.
    for builtin in builtin_versions:
        builtin.refresh_from_db()
        assert builtin.held_at is None and builtin.error_streak == 0

    # Staff release it (the admin's action); the platform works again: it qualifies.
    platform.broken = False
    staff = get_user_model().objects.create_user("root", password="pw-root-1234", is_staff=True)
    staff.is_superuser = True
    staff.save()
    client = Client()
    client.force_login(staff)
    listed = client.get("/admin/bots/botversion/?held=yes")
    assert listed.status_code == 200
    assert f"/admin/bots/botversion/{version.pk}/change/" in listed.content.decode()
    not_held = client.get("/admin/bots/botversion/?held=no").content.decode()
    assert f"/admin/bots/botversion/{version.pk}/change/" not in not_held
    done = client.post(
        "/admin/bots/botversion/",
        {"action": "release_held", "_selected_action": [version.pk]},
        follow=True,
    )
    assert "Released 1 held version." in done.content.decode()
    version.refresh_from_db()
    assert version.held_at is None and version.error_streak == 0 and version.held_reason == ""
    rounds(user_bot.game, 1)
    version.refresh_from_db()
    assert version.status == VersionStatus.ACTIVE, version.status_reason


def test_a_finished_match_resets_the_streak_and_the_limit_holds_a_ladder_bot(
    user_bot: Bot,
    builtin_versions: list[BotVersion],
    inline: Callable[..., Any],
    platform: Platform,
) -> None:
    version = _version(user_bot, VersionStatus.ACTIVE)
    entries.join_ladder(user_bot, new_version=True)
    game = user_bot.game

    def streak() -> int:
        version.refresh_from_db()
        return version.error_streak

    platform.broken = True
    for n in (1, 2):
        assert _ladder_match(inline, version, builtin_versions).status == MatchStatus.ERROR
        assert streak() == n
    platform.broken = False
    assert _ladder_match(inline, version, builtin_versions).status == MatchStatus.FINISHED
    assert streak() == 0 and version.held_at is None
    assert playing_versions([user_bot.pk]) == {user_bot.pk: version}

    platform.broken = True
    for _ in range(3):
        _ladder_match(inline, version, builtin_versions)
    assert streak() == 3
    assert version.held_at is not None and "match" in version.held_reason
    # Nothing schedules it: no playing version, not a candidate of the matchmaker, no match
    # in any later tick.
    assert playing_versions([user_bot.pk]) == {}
    assert user_bot.playing_version() is None
    assert user_bot.pk not in {c.bot_id for c in services.candidates(game, timezone.now())}
    before = Match.objects.filter(seats__bot_version=version).count()
    for seed in range(4):
        inline(services.tick, game, rng=random.Random(seed))
    assert Match.objects.filter(seats__bot_version=version).count() == before


def test_an_older_active_version_plays_while_the_newest_is_held(
    user_bot: Bot, builtin_versions: list[BotVersion]
) -> None:
    old = _version(user_bot, VersionStatus.ACTIVE, number=1)
    new = _version(user_bot, VersionStatus.ACTIVE, number=2)
    assert playing_versions([user_bot.pk]) == {user_bot.pk: new}
    BotVersion.objects.filter(pk=new.pk).update(held_at=timezone.now(), held_reason="x")
    assert playing_versions([user_bot.pk]) == {user_bot.pk: old}
    new.refresh_from_db()
    user_bot.pinned_version = new
    user_bot.save()
    assert user_bot.playing_version() == old
