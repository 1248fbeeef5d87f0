"""The emails' sweeper (``notifications.email_sweeper``, the ``notifications.sweep_emails`` beat
task): an email whose task could not reach the broker (down when the notification's
transaction committed) is sent at the next sweep once the broker answers, once; an email
whose message reached the broker is left to it; one unsent for a day is given up. The task
runs inline here once the broker "answers" (eager); test_email_redelivery.py sends through a
real Redis to real workers."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.utils import timezone
from django_celery_beat.models import PeriodicTask
from notifications.email_sweeper import GIVE_UP_AFTER, UNSENT_GRACE, sweep_emails
from notifications.models import EmailDelivery, EmailStatus, NotificationKind
from notifications.services import notify

from tests.conftest import celery_on

pytestmark = pytest.mark.django_db

K = NotificationKind.CHALLENGE_PLAYED
#: Nothing listens there: a send fails after its retries.
DEAD_BROKER = "redis://127.0.0.1:9/0"


def _notified_while_the_broker_was_down(user: Any, capture: Any) -> EmailDelivery:
    with celery_on(DEAD_BROKER), capture(execute=True):
        notify(user, K, "Played", "/matches/1/", body="Won.")
    [record] = EmailDelivery.objects.all()
    assert record.status == EmailStatus.PENDING and record.queued_at is None
    assert not mail.outbox
    return record


def test_an_email_whose_send_failed_is_sent_at_the_next_sweep_once(
    user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    record = _notified_while_the_broker_was_down(user, django_capture_on_commit_callbacks)
    soon = record.created_at + UNSENT_GRACE / 2
    assert sweep_emails(now=soon) == {"resent": 0, "unsent": 0}  # its send may be in flight

    # Still down at the next sweep: still waiting, nothing lost.
    with celery_on(DEAD_BROKER):
        later = record.created_at + UNSENT_GRACE + timedelta(seconds=1)
        assert sweep_emails(now=later) == {"resent": 0, "unsent": 1}
    # The broker answers again: sent (inline here), once.
    assert sweep_emails(now=later) == {"resent": 1, "unsent": 0}
    assert [m.to for m in mail.outbox] == [["alice@example.com"]]
    record.refresh_from_db()
    assert record.status == EmailStatus.SENT and record.queued_at is not None
    assert sweep_emails(now=later + timedelta(minutes=5)) == {"resent": 0, "unsent": 0}
    assert len(mail.outbox) == 1


def test_an_email_on_the_broker_is_left_to_it(
    user: Any, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    from notifications import services

    sent: list[Any] = []
    monkeypatch.setattr(services, "send_by_name", lambda *a, **kw: sent.append(a) or True)
    with django_capture_on_commit_callbacks(execute=True):
        notify(user, K, "Played", "/matches/1/")
    [record] = EmailDelivery.objects.all()
    assert len(sent) == 1 and record.queued_at is not None  # waiting in the queue
    assert sweep_emails(now=timezone.now() + timedelta(hours=1))["resent"] == 0
    assert len(sent) == 1


def test_an_email_unsent_for_a_day_is_given_up(
    user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    record = _notified_while_the_broker_was_down(user, django_capture_on_commit_callbacks)
    past = record.created_at + GIVE_UP_AFTER + timedelta(seconds=1)
    assert sweep_emails(now=past) == {"resent": 0, "unsent": 0}
    assert not mail.outbox


def test_the_sweep_has_its_own_beat_entry() -> None:
    entry = PeriodicTask.objects.get(task="notifications.sweep_emails")
    assert entry.enabled and entry.interval is not None and entry.interval.every == 60
