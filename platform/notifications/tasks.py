"""The notifications' Celery task: one email, sent by a worker, never in a web request."""

from __future__ import annotations

from celery import shared_task

from notifications.emails import send_one


@shared_task(
    name="notifications.send_notification_email",
    ignore_result=True,
    # An SMTP server that is down or refuses for now (smtplib's errors are OSErrors): again
    # later, a few times, then the in-site notification alone stands.
    autoretry_for=(OSError,),
    retry_backoff=30,
    max_retries=5,
    soft_time_limit=60,
)
def send_notification_email(user_id: int, kind: str, title: str, url: str, body: str = "") -> bool:
    """Email one user about one notification (``notifications.emails.send_one``)."""
    return send_one(user_id, kind, title, url, body)
