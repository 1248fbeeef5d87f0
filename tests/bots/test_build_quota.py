"""Each user's build time (``bots.build_quota``, ``ARENA_BUILD_SECONDS_PER_HOUR``): every
finished check keeps its duration on its version; a user whose checks took the hour's quota has
their next uploads wait ``checking``, told why and for how long, and the sweeper sends them once
the hour frees the time. Other users' uploads are checked meanwhile. The checks run inline
(eager), as a builds worker runs them."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from bots.build_quota import WINDOW, used_seconds, wait_seconds
from bots.check_sweeper import sweep_checks
from bots.models import Bot, BotVersion, VersionStatus
from bots.services import upload_version
from django.db.models import F
from django.utils import timezone

from tests.site_fixtures import BOT_SOURCE

SECOND = timedelta(seconds=1)


@pytest.fixture(autouse=True)
def _sandbox(settings: Any) -> None:
    settings.ARENA_SANDBOX = "process"
    settings.ARENA_ALLOW_UNSAFE_SANDBOX = True
    settings.ARENA_BUILD_SECONDS_PER_HOUR = 100


def _check(version: BotVersion) -> str:
    from bots.tasks import check_version

    return str(check_version.apply(args=[version.pk]).get())


def test_a_finished_check_counts_as_its_owners_build_time(user: Any, user_bot: Bot) -> None:
    version = upload_version(bot=user_bot, filename="main.py", data=BOT_SOURCE)
    assert _check(version) == VersionStatus.UPLOADED
    version.refresh_from_db()
    assert version.check_started_at is not None and version.check_seconds > 0
    now = timezone.now()
    assert used_seconds(user.pk, now) == pytest.approx(version.check_seconds)
    assert used_seconds(user.pk, version.check_started_at + WINDOW + SECOND) == 0


def test_uploads_past_the_quota_wait_then_are_checked_when_the_hour_frees_time(
    user: Any, user_bot: Bot, other_user: Any
) -> None:
    now = timezone.now()
    # This hour the user's builds took 70 s and then 40 s: 110 s of a 100 s quota.
    spent = [(now - timedelta(minutes=50), 70.0), (now - timedelta(minutes=20), 40.0)]
    for n, (started, seconds) in enumerate(spent, start=1):
        user_bot.versions.create(
            number=n,
            sha256=f"{n:064x}",
            status=VersionStatus.FAILED,
            check_started_at=started,
            check_seconds=seconds,
        )
    assert used_seconds(user.pk, now) == 110
    # Under the quota once the first (70 s) leaves the window: in 10 minutes.
    assert wait_seconds(user.pk, now) == pytest.approx(600, abs=1)

    version = upload_version(bot=user_bot, filename="main.py", data=BOT_SOURCE)
    assert _check(version) == "waiting"  # the builds worker does not run it
    version.refresh_from_db()
    assert version.status == VersionStatus.CHECKING and version.check_started_at is None
    assert version.check_sent_at is None  # the sweeper's, once the time is free
    assert version.status_reason.startswith("Waiting for build time: ")
    assert "110 s in the last hour (at most 100 s an hour)" in version.status_reason
    assert "in about 10 minutes" in version.status_reason

    # Another user's upload is checked meanwhile.
    other_bot = Bot.objects.create(owner=other_user, game=user_bot.game, name="other")
    theirs = upload_version(bot=other_bot, filename="main.py", data=BOT_SOURCE)
    assert _check(theirs) == VersionStatus.UPLOADED

    # The sweeper keeps it waiting while the user is over the quota (9 minutes later: the clock
    # is driven by moving the hour's checks back, so the sweep and the check it sends, which
    # reads the clock itself, see the same hour)...
    _minutes_pass(user_bot, 9)
    assert sweep_checks() == {"resent": 0, "waiting": 1, "unsent": 0}
    version.refresh_from_db()
    assert "in about 1 minute," in version.status_reason  # the wait, told again
    # ...and sends it once the hour has freed the time: it is checked.
    _minutes_pass(user_bot, 1.1)
    assert sweep_checks()["resent"] == 1
    version.refresh_from_db()
    assert version.status == VersionStatus.UPLOADED and version.status_reason == ""


def _minutes_pass(bot: Bot, minutes: float) -> None:
    bot.versions.filter(check_seconds__gt=0).update(
        check_started_at=F("check_started_at") - timedelta(minutes=minutes)
    )


def test_zero_turns_the_quota_off(user: Any, user_bot: Bot, settings: Any) -> None:
    settings.ARENA_BUILD_SECONDS_PER_HOUR = 0
    user_bot.versions.create(
        number=1,
        sha256="1" * 64,
        status=VersionStatus.FAILED,
        check_started_at=timezone.now(),
        check_seconds=10_000.0,
    )
    version = upload_version(bot=user_bot, filename="main.py", data=BOT_SOURCE)
    assert _check(version) == VersionStatus.UPLOADED
