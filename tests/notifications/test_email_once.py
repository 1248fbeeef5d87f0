"""A notification's email is sent once, however often its task is delivered: the second
delivery of one message (a worker killed before its ack, a retry), a message of the task's
older form, a send that failed before the server took the message, a worker that died
holding the claim (``notifications.email_claims``)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.core.mail.backends.locmem import EmailBackend as LocmemBackend
from django.utils import timezone
from notifications import email_claims, services
from notifications.emails import send_delivery
from notifications.models import EmailDelivery, EmailStatus, NotificationKind
from notifications.services import notify
from notifications.tasks import send_notification_email

pytestmark = pytest.mark.django_db

K = NotificationKind.CHALLENGE_PLAYED


def _queued_message(
    user: Any, monkeypatch: pytest.MonkeyPatch, capture: Any
) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """What ``notify`` puts on the queue for ``user``'s email: the task's args and kwargs."""
    queued: list[tuple[tuple[Any, ...], dict[str, Any]]] = []
    with monkeypatch.context() as m:
        m.setattr(
            services,
            "send_by_name",
            lambda name, args=(), kwargs=None: queued.append((tuple(args), kwargs or {})) or True,
        )
        with capture(execute=True):
            notify(user, K, "Played", "/matches/1/", body="Won.")
    [message] = queued
    return message


def test_the_same_message_delivered_twice_sends_one_email(
    user: Any, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    """One message, run twice by workers (same task id: a redelivery): one email."""
    args, kwargs = _queued_message(user, monkeypatch, django_capture_on_commit_callbacks)
    first = send_notification_email.apply(args=args, kwargs=kwargs, task_id="m-1")
    again = send_notification_email.apply(args=args, kwargs=kwargs, task_id="m-1")
    assert (first.get(), again.get()) == (True, False)
    assert [m.to for m in mail.outbox] == [["alice@example.com"]]
    [record] = EmailDelivery.objects.all()
    assert record.status == EmailStatus.SENT and record.sent_at is not None
    # The redelivery really comes: acknowledged late, and again when its worker dies.
    assert send_notification_email.acks_late and send_notification_email.reject_on_worker_lost


def test_a_message_of_the_older_form_is_sent_once(user: Any) -> None:
    """A message queued before the upgrade (the texts as arguments): its row is keyed by its
    task id, which a redelivery repeats; another message is another email."""
    old = [user.pk, str(K), "Played", "/matches/1/", "Won."]
    assert send_notification_email.apply(args=old, task_id="old-1").get() is True
    assert send_notification_email.apply(args=old, task_id="old-1").get() is False
    assert len(mail.outbox) == 1 and "Won." in mail.outbox[0].body
    assert send_notification_email.apply(args=old, task_id="old-2").get() is True
    assert len(mail.outbox) == 2
    assert EmailDelivery.objects.filter(key="task:old-1", status=EmailStatus.SENT).exists()


class _Refusing(LocmemBackend):
    """A mail server that refuses the first message (an OSError, as smtplib's errors are)."""

    refused = 0

    def send_messages(self, messages: Any) -> int:
        if not _Refusing.refused:
            _Refusing.refused += 1
            raise ConnectionRefusedError("the mail server is down")
        return int(super().send_messages(messages))


class _RudeGoodbye(LocmemBackend):
    """A mail server that takes the message, then drops the connection at QUIT."""

    def close(self) -> None:
        raise ConnectionResetError("reset at QUIT")


def _record(user: Any, django_capture_on_commit_callbacks: Any) -> EmailDelivery:
    with django_capture_on_commit_callbacks(execute=False):
        notify(user, K, "Played", "/matches/1/")
    return EmailDelivery.objects.get()


def test_a_send_the_server_refused_is_sent_by_the_retry(
    user: Any, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.EMAIL_BACKEND = f"{__name__}._Refusing"
    _Refusing.refused = 0
    record = _record(user, django_capture_on_commit_callbacks)
    with pytest.raises(ConnectionRefusedError):
        send_delivery(record.pk)
    record.refresh_from_db()
    assert (record.status, record.claimed_at) == (EmailStatus.PENDING, None)  # handed back
    assert send_delivery(record.pk) is True
    assert send_delivery(record.pk) is False
    assert len(mail.outbox) == 1


def test_an_error_after_the_server_took_the_message_sends_no_second_copy(
    user: Any, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """The old task raised the QUIT's error (an OSError: retried, so sent again)."""
    settings.EMAIL_BACKEND = f"{__name__}._RudeGoodbye"
    record = _record(user, django_capture_on_commit_callbacks)
    assert send_notification_email.apply(kwargs={"delivery": record.pk}).get() is True
    assert send_notification_email.apply(kwargs={"delivery": record.pk}).get() is False
    assert len(mail.outbox) == 1


def test_a_live_claim_waits_and_a_dead_one_is_taken_over(
    user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """Another delivery holds the claim (sending now): this one sends nothing and looks again
    when the claim lapses. A claim older than the lease is a worker that died mid-send: the
    email is sent, not lost."""
    record = _record(user, django_capture_on_commit_callbacks)
    now = timezone.now()
    EmailDelivery.objects.filter(pk=record.pk).update(status=EmailStatus.SENDING, claimed_at=now)
    busy = send_delivery(record.pk)
    assert isinstance(busy, email_claims.Busy)
    assert email_claims.SEND_LEASE_S - 5 < busy.wait_s <= email_claims.SEND_LEASE_S + 1
    assert not mail.outbox
    lapsed = now - timedelta(seconds=email_claims.SEND_LEASE_S + 1)
    EmailDelivery.objects.filter(pk=record.pk).update(claimed_at=lapsed)
    assert send_delivery(record.pk) is True
    assert len(mail.outbox) == 1
    record.refresh_from_db()
    assert record.status == EmailStatus.SENT


def test_nobody_to_write_to_is_recorded_and_not_tried_again(
    user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    record = _record(user, django_capture_on_commit_callbacks)
    user.is_active = False
    user.save()
    assert send_delivery(record.pk) is False
    record.refresh_from_db()
    assert record.status == EmailStatus.DROPPED
    user.is_active = True
    user.save()
    assert send_delivery(record.pk) is False and not mail.outbox


def test_old_records_are_pruned_as_new_ones_come(
    user: Any, other_user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from notifications.services import EMAIL_RECORDS_KEPT

    with django_capture_on_commit_callbacks(execute=False):
        notify([user, other_user], K, "Old", "/m/")
    old = timezone.now() - EMAIL_RECORDS_KEPT - timedelta(minutes=1)
    EmailDelivery.objects.update(created_at=old)
    with django_capture_on_commit_callbacks(execute=False):
        notify(user, K, "New", "/m/")
    assert sorted(EmailDelivery.objects.values_list("user_id", "title")) == sorted(
        [(user.pk, "New"), (other_user.pk, "Old")]
    )
