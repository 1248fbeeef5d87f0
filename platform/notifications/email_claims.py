"""Sending a notification's email once: the claim on its ``EmailDelivery`` row.

A worker claims the row (``pending`` -> ``sending``, with the time) in one ``UPDATE`` before it
talks to the mail server, and marks it ``sent`` as soon as the server has taken the message,
before it closes the connection and long before the broker hears the ack. So:

- a redelivery after the send (the worker killed before its ack, a retry after an error
  closing the connection) finds ``sent`` and sends nothing;
- a send that failed before the server took the message (refused, unreachable) hands the row
  back (``pending``) and the task's retry sends it;
- a claim whose worker died mid-send stays ``sending``: a delivery that finds it so waits until
  the claim is older than ``SEND_LEASE_S`` (by then the send has ended one way or the other:
  the task's time limit and ``EMAIL_TIMEOUT`` per socket operation bound it) and then sends.

The choice: at most once after the mail server answered, at least once before. The only way
to two copies is a worker dying in the instant between the server's reply and the ``sent``
mark (one ``UPDATE``), or a reply lost on the network (SMTP cannot tell who has the message
then); an email is never dropped because a worker died before the server took it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils import timezone

from notifications.models import EmailDelivery, EmailStatus

#: The task's own time limit (soft; the hard one is ``SEND_TIME_LIMIT_S + 30``).
SEND_TIME_LIMIT_S = 60
#: A claim older than this belongs to a worker that is gone: its send ended long ago.
SEND_LEASE_S = 600


@dataclass(frozen=True)
class Busy:
    """Another delivery holds a live claim on the row: look again in ``wait_s``."""

    wait_s: float


def claim(pk: int) -> EmailDelivery | Busy | None:
    """The row, claimed by this delivery; ``Busy`` while another's claim is live; None when
    there is nothing to send (sent, dropped, or gone with its account)."""
    now = timezone.now()
    free = Q(status=EmailStatus.PENDING) | Q(
        status=EmailStatus.SENDING, claimed_at__lt=now - timedelta(seconds=SEND_LEASE_S)
    )
    if EmailDelivery.objects.filter(free, pk=pk).update(status=EmailStatus.SENDING, claimed_at=now):
        return EmailDelivery.objects.get(pk=pk)
    held = EmailDelivery.objects.filter(pk=pk).values_list("status", "claimed_at").first()
    if held is None or held[0] != EmailStatus.SENDING or held[1] is None:
        return None
    lapses = held[1] + timedelta(seconds=SEND_LEASE_S)
    return Busy(max(1.0, (lapses - now).total_seconds() + 1))


def mark(row: EmailDelivery, status: EmailStatus) -> None:
    """The claimed row ``sent`` (the server took it) or ``dropped`` (nobody to write to)."""
    EmailDelivery.objects.filter(pk=row.pk, status=EmailStatus.SENDING).update(
        status=status, sent_at=timezone.now() if status == EmailStatus.SENT else None
    )


def release(row: EmailDelivery) -> None:
    """Hand the row back (the server did not take the message): the next try sends it. Only
    this delivery's own claim is released, never one a later delivery took over."""
    EmailDelivery.objects.filter(
        pk=row.pk, status=EmailStatus.SENDING, claimed_at=row.claimed_at
    ).update(status=EmailStatus.PENDING, claimed_at=None)


def legacy_row(key: str, user_id: int, kind: str, title: str, url: str, body: str) -> int | None:
    """The row of a message of the task's older form (the texts as arguments, no row): one per
    ``key`` (the message's task id, which its redeliveries repeat), made on first sight; None
    when the account is gone."""
    if not get_user_model().objects.filter(pk=user_id).exists():
        return None
    row, _ = EmailDelivery.objects.get_or_create(
        key=key,
        defaults={
            "user_id": user_id,
            "kind": kind,
            "title": title,
            "url": url,
            "body": body,
            # Its message is on the broker (it is being run): not the sweeper's to send.
            "queued_at": timezone.now(),
        },
    )
    return row.pk
