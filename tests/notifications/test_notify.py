"""``notifications.services.notify``: in-site rows in bulk, emails by a Celery task enqueued
on commit (never in the caller), each channel switchable per kind, pruning, and who is never
written to (inactive or deleted accounts, accounts without an address)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext
from notifications import services
from notifications.models import (
    EmailDelivery,
    EmailStatus,
    Notification,
    NotificationKind,
    NotificationPreference,
)
from notifications.services import Channels, notify
from notifications.tasks import send_notification_email

from tests.conftest import celery_on

DEAD_BROKER = "redis://127.0.0.1:9/0"

pytestmark = pytest.mark.django_db

K = NotificationKind.CHALLENGE_PLAYED


def _people(n: int, *, email: bool = True) -> list[Any]:
    make = get_user_model().objects.create_user
    return [make(f"p{i}", email=f"p{i}@example.com" if email else "") for i in range(n)]


def test_rows_and_emails_for_everyone_and_the_email_waits_for_the_commit(
    user: Any, other_user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        made = notify([user, other_user.pk, user], K, "Played", "/matches/1/", body="Won.")
    # Rows at once (inside the caller's transaction); no email until it commits.
    assert made == 2 and len(mail.outbox) == 0 and len(callbacks) == 1
    rows = Notification.objects.order_by("user_id")
    assert [(n.user_id, n.kind, n.title, n.url, n.body) for n in rows] == [
        (user.pk, K, "Played", "/matches/1/", "Won."),
        (other_user.pk, K, "Played", "/matches/1/", "Won."),
    ]
    callbacks[0]()  # the commit: one task per recipient, run inline here
    assert sorted(m.to[0] for m in mail.outbox) == ["alice@example.com", "bob@example.com"]
    message = mail.outbox[0]
    assert message.subject == "Meeple Arena: Played"
    assert "Won." in message.body and "https://arena.example/matches/1/" in message.body
    assert "https://arena.example/accounts/settings/#notifications" in message.body


def test_a_rolled_back_transaction_tells_nobody(user: Any) -> None:
    from django.db import transaction

    with pytest.raises(RuntimeError), transaction.atomic():
        notify(user, K, "Played", "/matches/1/")
        raise RuntimeError("the caller failed")
    assert not Notification.objects.exists()
    assert len(mail.outbox) == 0


def test_each_channel_switches_off_per_kind(
    user: Any, other_user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    services.set_preferences(user, {K: Channels(site=False, email=True)})
    services.set_preferences(other_user, {K: Channels(site=True, email=False)})
    with django_capture_on_commit_callbacks(execute=True):
        notify([user, other_user], K, "Played", "/matches/1/")
    assert list(Notification.objects.values_list("user_id", flat=True)) == [other_user.pk]
    assert [m.to for m in mail.outbox] == [["alice@example.com"]]
    # Another kind keeps both channels (no row for it).
    with django_capture_on_commit_callbacks(execute=True):
        notify(user, NotificationKind.BOT_SUSPENDED, "Suspended", "/bots/1/")
    assert Notification.objects.filter(user=user).count() == 1 and len(mail.outbox) == 2


def test_both_off_writes_and_sends_nothing(
    user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    services.set_preferences(user, {K: Channels(site=False, email=False)})
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        assert notify(user, K, "Played", "/m/") == 0
    assert not Notification.objects.exists() and not callbacks and not mail.outbox


def test_no_address_no_email_inactive_or_deleted_nothing(
    django_capture_on_commit_callbacks: Any,
) -> None:
    silent, inactive, gone = _people(3)
    silent.email = ""
    silent.save()
    inactive.is_active = False
    inactive.save()
    gone_pk = gone.pk
    gone.delete()
    with django_capture_on_commit_callbacks(execute=True):
        made = notify([silent, inactive, gone_pk], K, "Played", "/m/")
    assert made == 1
    assert list(Notification.objects.values_list("user_id", flat=True)) == [silent.pk]
    assert not mail.outbox


def test_the_task_writes_to_nobody_deleted_or_switched_off_since(
    user: Any, other_user: Any
) -> None:
    """Between the notification and the worker's turn the account went, or its owner turned
    the email off: the task sends nothing."""
    uid = other_user.pk
    other_user.delete()
    assert send_notification_email.delay(uid, K, "Played", "/m/").get() is False
    services.set_preferences(user, {K: Channels(site=True, email=False)})
    assert send_notification_email.delay(user.pk, K, "Played", "/m/").get() is False
    assert not mail.outbox


def test_a_fixed_number_of_queries_whatever_the_number_of_users(
    django_capture_on_commit_callbacks: Any,
) -> None:
    few = _people(2)
    with CaptureQueriesContext(connection) as small:
        notify(few, K, "Played", "/m/")
    many = get_user_model().objects.bulk_create(
        [get_user_model()(username=f"q{i}", email=f"q{i}@example.com") for i in range(40)]
    )
    with CaptureQueriesContext(connection) as big:
        notify(many, K, "Played", "/m/")
    assert len(big.captured_queries) == len(small.captured_queries)
    assert Notification.objects.count() == 42


def test_texts_are_cut_and_urls_stay_on_the_site(user: Any) -> None:
    notify(user, K, "a\nb " + "x" * 500, "//evil.example/x", body="y" * 5000)
    notify(user, K, "ok", "https://evil.example/")
    first, second = Notification.objects.order_by("pk")
    assert "\n" not in first.title and len(first.title) == 200
    assert first.url == "" and second.url == "" and len(first.body) == 2000
    with pytest.raises(ValueError):
        notify(user, "no_such_kind", "t", "/")


def test_old_notifications_are_pruned_to_the_newest(
    user: Any, other_user: Any, settings: Any
) -> None:
    settings.ARENA_NOTIFICATIONS_KEPT = 3
    slack = services.PRUNE_SLACK
    for i in range(3 + slack):
        notify(user, K, f"n{i}", "/m/")
    notify(other_user, K, "other", "/m/")
    # At the mark, nothing is deleted yet; one more and it is cut to the newest 3.
    assert Notification.objects.filter(user=user).count() == 3 + slack
    notify([user, other_user], K, "last", "/m/")
    titles = list(Notification.objects.filter(user=user).values_list("title", flat=True))
    assert titles == ["last", f"n{2 + slack}", f"n{1 + slack}"]
    assert Notification.objects.filter(user=other_user).count() == 2  # untouched


def test_mark_read_touches_only_ones_own(user: Any, other_user: Any) -> None:
    notify([user, other_user], K, "a", "/m/")
    notify(user, K, "b", "/m/")
    theirs = Notification.objects.get(user=other_user)
    mine = list(Notification.objects.filter(user=user).order_by("pk"))
    assert services.unread_count(user) == 2
    assert services.mark_read(user, [mine[0].pk, theirs.pk]) == 1
    assert services.unread_count(user) == 1 and services.unread_count(other_user) == 1
    assert services.mark_read(user) == 1 and services.unread_count(user) == 0
    assert services.unread_count(other_user) == 1


def test_preferences_default_on_and_upsert(user: Any) -> None:
    assert all(c == Channels() for c in services.preferences_of(user).values())
    assert list(services.preferences_of(user)) == NotificationKind.values
    services.set_preferences(user, {K: Channels(site=False, email=True)})
    after = services.set_preferences(user, {K: Channels(site=True, email=False)})
    assert after[K] == Channels(site=True, email=False)
    assert NotificationPreference.objects.filter(user=user).count() == 1


def test_the_email_travels_as_a_task_never_sent_by_the_caller(
    user: Any, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    """With a broker (not eager), the caller only enqueues: one message per recipient once
    its transaction commits, nothing sent in its own process."""
    sent: list[dict[str, Any]] = []
    monkeypatch.setattr(
        services, "send_by_name", lambda name, args=(), kwargs=None: sent.append(kwargs) or True
    )
    with django_capture_on_commit_callbacks(execute=True):
        notify(user, K, "Played", "/matches/1/", body="Won.")
        assert sent == []  # not before the commit
    # The message names the email's record (its idempotency key), which holds the texts.
    [record] = EmailDelivery.objects.all()
    assert sent == [{"delivery": record.pk}]
    assert (record.user_id, record.kind, record.title, record.url, record.body) == (
        user.pk,
        K,
        "Played",
        "/matches/1/",
        "Won.",
    )
    assert record.status == EmailStatus.PENDING
    assert not mail.outbox


def test_a_broker_that_refuses_keeps_the_site_notification(
    user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    # Nothing listens there: the send fails after its retries (the sweeper's test follows it).
    with celery_on(DEAD_BROKER), django_capture_on_commit_callbacks(execute=True):
        notify(user, K, "Played", "/matches/1/")
    assert Notification.objects.filter(user=user).count() == 1 and not mail.outbox
    [record] = EmailDelivery.objects.all()
    assert record.status == EmailStatus.PENDING and record.queued_at is None
