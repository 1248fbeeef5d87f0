"""Telling users: ``notify`` writes the in-site rows (one bulk insert) and enqueues the emails
once the caller's transaction commits; other apps call it, it imports none of them.

A recipient is told only what their preferences allow (no row: both channels on); an inactive
or deleted account is told nothing, and one without an email address gets no email."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone
from foundation.task_sending import send_by_name

from notifications.models import (
    BODY_MAX,
    TITLE_MAX,
    URL_MAX,
    EmailDelivery,
    Notification,
    NotificationKind,
    NotificationPreference,
)

log = logging.getLogger(__name__)

#: The task that sends one email (``notifications.tasks``), sent by this name.
EMAIL_TASK = "notifications.send_notification_email"

#: Notifications kept per user (the newest); pruned once a user holds ``PRUNE_SLACK`` more, so
#: that an insert costs one grouped count and, rarely, one delete per user over the mark.
DEFAULT_KEPT = 200
PRUNE_SLACK = 50
#: How long an email's record is kept: far longer than any redelivery of its task can come
#: (the broker's visibility timeout, hours, and the task's retries, minutes).
EMAIL_RECORDS_KEPT = timedelta(days=7)


def kept() -> int:
    return max(1, int(getattr(settings, "ARENA_NOTIFICATIONS_KEPT", DEFAULT_KEPT)))


@dataclass(frozen=True)
class Channels:
    site: bool = True
    email: bool = True


def _user_ids(users: Any) -> list[int]:
    """Ids of a user, an id, or an iterable of either, each once, in order."""
    if users is None or isinstance(users, int) or not hasattr(users, "__iter__"):
        users = [users]  # one user (a model instance) or one id
    ids = (u if isinstance(u, int) else getattr(u, "pk", None) for u in users)
    return list(dict.fromkeys(i for i in ids if i is not None))


def site_path(url: str) -> str:
    """``url`` when it is a path on this site (``/...``, never ``//host``), else ''."""
    url = (url or "").strip()
    if not url.startswith("/") or url.startswith("//") or "\\" in url or len(url) > URL_MAX:
        return ""
    return url


def one_line(text: str, limit: int = TITLE_MAX) -> str:
    """A title as one line (an email subject cannot hold a line break), cut to ``limit``."""
    line = " ".join(str(text).split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def channels_of(user_ids: list[int], kind: str) -> dict[int, Channels]:
    """Each user's channels for ``kind`` (one query; a missing row: both on)."""
    rows = NotificationPreference.objects.filter(user_id__in=user_ids, kind=kind)
    found = {p.user_id: Channels(p.site, p.email) for p in rows}
    return {uid: found.get(uid, Channels()) for uid in user_ids}


def notify(users: Any, kind: str, title: str, url: str, body: str = "") -> int:
    """Tell ``users`` (a user, an id, or an iterable of them) that ``kind`` happened: an
    in-site notification for those who want one, and an email, sent by a worker after the
    current transaction commits (never in the request), for those who want it and have an
    address. A fixed number of queries whatever the number of users. Returns the number of
    in-site notifications written."""
    kind = NotificationKind(kind)
    ids = _user_ids(users)
    if not ids:
        return 0
    title, url, body = one_line(title), site_path(url), str(body or "")[:BODY_MAX]
    recipients = dict(
        get_user_model().objects.filter(pk__in=ids, is_active=True).values_list("pk", "email")
    )
    wanted = channels_of(list(recipients), kind)
    on_site = [uid for uid in recipients if wanted[uid].site]
    by_mail = [uid for uid, email in recipients.items() if email and wanted[uid].email]
    Notification.objects.bulk_create(
        [Notification(user_id=uid, kind=kind, title=title, url=url, body=body) for uid in on_site]
    )
    prune(on_site)
    if by_mail:
        # Each email's record (its idempotency key: sent once, docs/notifications.md), in the
        # caller's transaction like the in-site rows; each recipient's old records go.
        emails = EmailDelivery.objects.bulk_create(
            [
                EmailDelivery(user_id=uid, kind=kind, title=title, url=url, body=body)
                for uid in by_mail
            ]
        )
        EmailDelivery.objects.filter(
            user_id__in=by_mail, created_at__lt=timezone.now() - EMAIL_RECORDS_KEPT
        ).delete()
        transaction.on_commit(partial(_send_emails, [e.pk for e in emails]), robust=True)
    return len(on_site)


def _send_emails(delivery_ids: list[int]) -> None:
    for pk in delivery_ids:
        send_email(pk)


def send_email(delivery_id: int) -> bool:
    """Send the task of one email's record, by name, and note when it went; False when the
    broker did not take it (the in-site notification still stands, and the sweeper sends the
    email again: ``notifications.email_sweeper``)."""
    if not send_by_name(EMAIL_TASK, kwargs={"delivery": delivery_id}):
        return False
    EmailDelivery.objects.filter(pk=delivery_id, queued_at__isnull=True).update(
        queued_at=timezone.now()
    )
    return True


def prune(user_ids: list[int]) -> int:
    """Delete all but the newest ``kept()`` notifications of those of ``user_ids`` who hold
    ``PRUNE_SLACK`` more; the number deleted."""
    if not user_ids:
        return 0
    keep = kept()
    over = (
        Notification.objects.filter(user_id__in=user_ids)
        .values("user_id")
        .annotate(n=Count("pk"))
        .filter(n__gt=keep + PRUNE_SLACK)
        .values_list("user_id", flat=True)
    )
    deleted = 0
    for uid in over:
        mine = Notification.objects.filter(user_id=uid)
        edge = mine.order_by("-created_at", "-pk").values_list("created_at", "pk")[keep - 1]
        older = Q(created_at__lt=edge[0]) | Q(created_at=edge[0], pk__lt=edge[1])
        deleted += mine.filter(older).delete()[0]
    return deleted


def unread_count(user: Any) -> int:
    """The menu badge: one count on the (user, read_at) index, bounded by the pruning."""
    return Notification.objects.filter(user_id=user.pk, read_at__isnull=True).count()


def mark_read(user: Any, ids: Iterable[int] | None = None) -> int:
    """Mark ``user``'s unread notifications read (only those of ``ids`` when given; others'
    ids are ignored); how many changed."""
    rows = Notification.objects.filter(user_id=user.pk, read_at__isnull=True)
    if ids is not None:
        rows = rows.filter(pk__in=list(ids))
    return rows.update(read_at=timezone.now())


def preferences_of(user: Any) -> dict[str, Channels]:
    """Every kind's channels for ``user``, in the kinds' order (one query)."""
    found = {
        p.kind: Channels(p.site, p.email)
        for p in NotificationPreference.objects.filter(user_id=user.pk)
    }
    return {k.value: found.get(k.value, Channels()) for k in NotificationKind}


def set_preferences(user: Any, changes: dict[str, Channels]) -> dict[str, Channels]:
    """Store ``user``'s channels for the kinds in ``changes`` (one upsert); all kinds after."""
    rows = [
        NotificationPreference(
            user_id=user.pk, kind=NotificationKind(kind), site=c.site, email=c.email
        )
        for kind, c in changes.items()
    ]
    if rows:
        NotificationPreference.objects.bulk_create(
            rows,
            update_conflicts=True,
            unique_fields=["user", "kind"],
            update_fields=["site", "email"],
        )
    return preferences_of(user)
