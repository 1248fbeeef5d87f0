"""The checks' sweeper (``bots.check_sweeper``, the ``bots.sweep_checks`` beat task) owns every
lost check: one whose worker died is sent again after the check's patience (its time limit and a
margin, not the queue's 30 minutes), a failed send at the next sweep, whether or not the game has
its ladder on; stored code that no longer matches its hash holds the version for staff and ends
its check (no retry for ever). The checks run inline here (eager), as a builds worker runs them;
tests/workers/test_builds_queue.py sends them through Redis to real workers."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

import pytest
from bots import check_sending, check_sweeper, upload_check
from bots.check_sweeper import CHECK_PATIENCE, sweep_checks
from bots.holds import STORAGE_FAULT_NOTE, release
from bots.models import Bot, BotVersion, VersionStatus
from bots.services import upload_version
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from tests.conftest import celery_on
from tests.site_fixtures import BOT_SOURCE

SECOND = timedelta(seconds=1)


@pytest.fixture(autouse=True)
def _sandbox(settings: Any) -> None:
    settings.ARENA_SANDBOX = "process"
    settings.ARENA_ALLOW_UNSAFE_SANDBOX = True


def _started_by_a_worker_that_died(version: BotVersion, at: datetime) -> None:
    """What a worker killed mid-check leaves: sent, started, still ``checking``."""
    BotVersion.objects.filter(pk=version.pk).update(check_sent_at=at, check_started_at=at)


def test_a_check_whose_worker_died_is_sent_again_after_its_patience(user_bot: Bot) -> None:
    version = upload_version(bot=user_bot, filename="main.py", data=BOT_SOURCE)
    died_at = timezone.now()
    _started_by_a_worker_that_died(version, died_at)
    # The patience follows the check's own hard time limit, far below the queue's patience.
    assert CHECK_PATIENCE.total_seconds() > check_sweeper.CHECK_TIME_LIMIT_S
    assert sweep_checks(now=died_at + CHECK_PATIENCE - SECOND)["resent"] == 0  # may be running
    version.refresh_from_db()
    assert version.status == VersionStatus.CHECKING

    assert sweep_checks(now=died_at + CHECK_PATIENCE + SECOND)["resent"] == 1
    version.refresh_from_db()
    assert version.status == VersionStatus.UPLOADED, version.status_reason  # checked this time
    assert version.check_seconds > 0  # its owner's build time


def test_a_message_no_worker_took_waits_for_the_queue_patience(
    user_bot: Bot, settings: Any
) -> None:
    """Sent but never started: a long builds queue delays it, the queue's patience covers it."""
    version = upload_version(bot=user_bot, filename="main.py", data=BOT_SOURCE)
    sent_at = timezone.now()
    BotVersion.objects.filter(pk=version.pk).update(check_sent_at=sent_at)
    queue_patience = timedelta(seconds=settings.ARENA_QUEUE_PATIENCE_S)
    assert sweep_checks(now=sent_at + CHECK_PATIENCE + SECOND)["resent"] == 0
    assert sweep_checks(now=sent_at + queue_patience + SECOND)["resent"] == 1
    version.refresh_from_db()
    assert version.status == VersionStatus.UPLOADED


def test_a_failed_send_is_sent_again_at_the_next_sweep(user_bot: Bot) -> None:
    version = upload_version(bot=user_bot, filename="main.py", data=BOT_SOURCE)
    # The broker is down (nothing listens there): the send fails after its retries.
    with celery_on("redis://127.0.0.1:9/0"):
        assert check_sending.send_check(version.pk) is False
    version.refresh_from_db()
    assert version.check_sent_at is None and version.status == VersionStatus.CHECKING

    assert sweep_checks(now=timezone.now()) == {"resent": 1, "waiting": 0, "unsent": 0}
    version.refresh_from_db()
    assert version.status == VersionStatus.UPLOADED, version.status_reason
    assert sweep_checks(now=timezone.now())["resent"] == 0  # checked: nothing more to send


def test_a_game_whose_ladder_is_off_still_gets_its_lost_check_sent(user_bot: Bot) -> None:
    version = upload_version(bot=user_bot, filename="main.py", data=BOT_SOURCE)
    game = user_bot.game
    game.is_active = False  # no ladder tick looks at this game any more
    game.save(update_fields=["is_active"])
    died_at = timezone.now()
    _started_by_a_worker_that_died(version, died_at)
    assert sweep_checks(now=died_at + CHECK_PATIENCE + SECOND)["resent"] == 1
    version.refresh_from_db()
    assert version.status == VersionStatus.UPLOADED


def test_the_ladder_tick_leaves_lost_checks_to_the_sweeper(user_bot: Bot) -> None:
    """One owner for the resend: the matchmaker tick no longer sends checks."""
    from ladder.services import tick

    version = upload_version(bot=user_bot, filename="main.py", data=BOT_SOURCE)
    tick(user_bot.game, now=timezone.now() + timedelta(days=1))
    version.refresh_from_db()
    assert version.check_sent_at is None and version.status == VersionStatus.CHECKING


def test_stored_code_that_does_not_match_its_hash_holds_the_version_for_staff(
    user_bot: Bot, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bots.tasks import check_version

    version = upload_version(bot=user_bot, filename="main.py", data=BOT_SOURCE)
    with open(version.code.path, "ab") as stored:  # the storage changed the bytes
        stored.write(b"# damaged\n")
    fetches: list[int] = []
    fetch = upload_check.fetch_version_code
    monkeypatch.setattr(
        "bots.upload_check.fetch_version_code", lambda pk: (fetches.append(pk), fetch(pk))[1]
    )
    with caplog.at_level(logging.ERROR, logger="bots.holds"):
        result = check_version.apply(args=[version.pk])
    # The check ended: no exception, so no retry (before: a RuntimeError, retried as a platform
    # fault, then sent again every ARENA_QUEUE_PATIENCE_S for ever).
    assert result.successful() and result.get() == "held"
    assert fetches == [version.pk]
    assert any(
        r.levelno == logging.ERROR and f"version {version.pk} held" in r.getMessage()
        for r in caplog.records
    )
    version.refresh_from_db()
    assert version.held_at is not None and "does not match its SHA-256" in version.held_reason
    assert version.status == VersionStatus.CHECKING  # not the bot's fault: never failed
    assert version.status_reason == STORAGE_FAULT_NOTE  # its owner reads why it waits
    assert sweep_checks(now=timezone.now() + timedelta(days=1))["resent"] == 0  # held: not sent

    # Staff find it in the admin's held versions, with the reason.
    staff = get_user_model().objects.create_superuser("root", password="pw-root-123")
    client = Client()
    client.force_login(staff)
    listed = client.get("/admin/bots/botversion/?held=yes").content.decode()
    assert f"/admin/bots/botversion/{version.pk}/change/" in listed
    page = client.get(f"/admin/bots/botversion/{version.pk}/change/").content.decode()
    assert "does not match its SHA-256" in page

    # Mended and released, the next sweep checks it again.
    with open(version.code.path, "wb") as stored:
        stored.write(BOT_SOURCE)
    assert release(BotVersion.objects.filter(pk=version.pk), by=staff) == 1
    assert sweep_checks(now=timezone.now())["resent"] == 1
    version.refresh_from_db()
    assert version.status == VersionStatus.UPLOADED


def test_the_sweep_has_its_own_beat_entry_and_checks_go_to_the_builds_queue(
    settings: Any, db: None
) -> None:
    """Beat sends ``bots.sweep_checks`` every minute (a periodic task of its own, made by a
    migration) to the default queue; the checks themselves go to the builds queue."""
    from bots.tasks import check_version, sweep_checks
    from django_celery_beat.models import PeriodicTask
    from meeple.celery import app

    entry = PeriodicTask.objects.get(name="Sweep lost checks")
    assert entry.task == sweep_checks.name == "bots.sweep_checks" and entry.enabled
    assert entry.interval is not None
    assert (entry.interval.every, entry.interval.period) == (60, "seconds")
    route = app.amqp.router.route({}, check_version.name)
    assert route["queue"].name == settings.BUILDS_QUEUE == "builds"
    assert app.amqp.router.route({}, sweep_checks.name)["queue"].name == "celery"
    # The patience follows the task's own hard limit (one owner: bots.check_sweeper).
    assert check_version.time_limit == check_sweeper.CHECK_TIME_LIMIT_S


def test_two_sweeps_at_once_send_a_lost_check_once(
    user_bot: Bot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each sweep takes a version by one conditional UPDATE: the one that lost the race, having
    selected the same version, finds it no longer lost and sends nothing."""
    version = upload_version(bot=user_bot, filename="main.py", data=BOT_SOURCE)
    sent: list[int] = []
    monkeypatch.setattr("bots.check_sending.deliver_check", lambda pk: sent.append(pk) or True)
    now = timezone.now()
    assert check_sweeper.resend(version.pk, now) is True  # the first sweep
    assert check_sweeper.resend(version.pk, now) is None  # the second, with the same view
    assert sent == [version.pk]
