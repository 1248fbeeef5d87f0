"""The emails' sweeper (``notifications.sweep_emails``, every minute from beat): an email whose
task could not be put on the broker (it was down when the notification's transaction
committed) is sent again at the next sweep once the broker answers, instead of being lost.

An email whose message did reach the broker is the broker's and its worker's (acknowledged
late, redelivered when a worker dies); a failed try is the task's own retries'. Sending one
twice is harmless: its record's claim lets one delivery send it (``email_claims``). An email
whose send kept failing for a day is given up (the in-site notification still stands).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from notifications.models import EmailDelivery, EmailStatus
from notifications.services import send_email

#: A failed send is looked at once it is this old (a send in flight has gone through by then).
UNSENT_GRACE = timedelta(seconds=10)
#: Past this, an email never sent is given up.
GIVE_UP_AFTER = timedelta(days=1)
#: Emails sent again by one sweep, at most (the rest wait for the next one).
SWEEP_BATCH = 200


def unsent(now: datetime) -> list[int]:
    """The records whose task never reached the broker, oldest first (one sweep's batch)."""
    return list(
        EmailDelivery.objects.filter(
            status=EmailStatus.PENDING,
            queued_at__isnull=True,
            created_at__lt=now - UNSENT_GRACE,
            created_at__gte=now - GIVE_UP_AFTER,
        )
        .order_by("created_at", "pk")
        .values_list("pk", flat=True)[:SWEEP_BATCH]
    )


def sweep_emails(now: datetime | None = None) -> dict[str, int]:
    """Send again each email whose send failed; the counts sent and still unsent (the broker
    is still down)."""
    counts = {"resent": 0, "unsent": 0}
    for pk in unsent(now or timezone.now()):
        counts["resent" if send_email(pk) else "unsent"] += 1
    return counts
