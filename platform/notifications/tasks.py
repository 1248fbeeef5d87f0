"""The notifications' Celery task: one email, sent by a worker, never in a web request."""

from __future__ import annotations

import uuid
from typing import Any

from celery import shared_task

from notifications.email_claims import SEND_TIME_LIMIT_S, Busy, legacy_row
from notifications.email_sweeper import sweep_emails
from notifications.emails import send_delivery
from notifications.services import EMAIL_TASK


@shared_task(
    bind=True,
    name=EMAIL_TASK,
    ignore_result=True,
    # Acknowledged after it ran, and again from the queue when its worker dies: an email is not
    # lost with a worker; the EmailDelivery row makes a redelivery after the send send nothing.
    acks_late=True,
    reject_on_worker_lost=True,
    # An SMTP server that is down or refuses for now (smtplib's errors are OSErrors): again
    # later, a few times, then the in-site notification alone stands.
    autoretry_for=(OSError,),
    retry_backoff=30,
    max_retries=5,
    soft_time_limit=SEND_TIME_LIMIT_S,
    time_limit=SEND_TIME_LIMIT_S + 30,
)
def send_notification_email(
    self: Any,
    user_id: int | None = None,
    kind: str = "",
    title: str = "",
    url: str = "",
    body: str = "",
    *,
    delivery: int | None = None,
) -> bool:
    """Send the email of ``EmailDelivery`` ``delivery`` once (``notifications.emails``).

    The positional arguments are the task's older form (the texts themselves), still accepted
    for messages queued before the upgrade: such a message gets a row keyed by its task id,
    which its redeliveries repeat, so it too is sent once."""
    if delivery is None:
        if user_id is None:
            return False
        # (called directly, outside a worker, there is no task id: a key of its own)
        key = f"task:{self.request.id or uuid.uuid4().hex}"
        found = legacy_row(key, user_id, kind, title, url, body)
        if found is None:
            return False
        delivery = found
    outcome = send_delivery(delivery)
    if isinstance(outcome, Busy):  # another delivery is sending it, or died doing so
        raise self.retry(countdown=outcome.wait_s)
    return outcome


@shared_task(name="notifications.sweep_emails", ignore_result=True, soft_time_limit=60)
def sweep() -> dict[str, int]:
    """Periodic (Celery beat): send again the emails whose send failed (the broker was down)."""
    return sweep_emails()
