"""The email of one notification, composed and sent on a worker (``notifications.tasks``),
through Django's email backend (the console by default, SMTP by configuration)."""

from __future__ import annotations

import contextlib
import logging

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import EmailMessage, get_connection
from django.urls import reverse

from notifications import email_claims
from notifications.models import EmailStatus, NotificationKind
from notifications.services import channels_of, one_line

log = logging.getLogger(__name__)


def site_url(path: str) -> str:
    """``path`` on this site, absolute (``ARENA_SITE_URL``), for a link in an email."""
    base = str(getattr(settings, "ARENA_SITE_URL", "") or "").rstrip("/")
    return f"{base}{path}" if path else base


def compose(kind: str, title: str, url: str, body: str) -> tuple[str, str]:
    """The subject and the plain-text message."""
    parts = [title]
    if body:
        parts.append(body)
    if url:
        parts.append(f"See {site_url(url)}")
    label = NotificationKind(kind).label
    settings_link = site_url(reverse("account_settings")) + "#notifications"
    parts.append(
        f"-- \nYou get this email because of your settings for \u201c{label}\u201d. "
        f"Turn it off on {settings_link}"
    )
    return one_line(f"Meeple Arena: {title}"), "\n\n".join(parts) + "\n"


def address_of(user_id: int, kind: str) -> str | None:
    """Where to email ``user_id`` about ``kind`` now; None when there is nobody to write to any
    more (the account is gone or inactive, has no address, or turned this kind's email off
    since the notification was made)."""
    found = (
        get_user_model()
        .objects.filter(pk=user_id, is_active=True)
        .values_list("email", flat=True)
        .first()
    )
    if not found or not channels_of([user_id], kind)[user_id].email:
        return None
    return str(found)


def send_delivery(pk: int) -> bool | email_claims.Busy:
    """Send the email of ``EmailDelivery`` ``pk`` unless it was sent already: True when this
    call sent it, False when there is nothing to send, ``Busy`` while another delivery's claim
    is live (``notifications.email_claims``: how a redelivery sends nothing)."""
    row = email_claims.claim(pk)
    if row is None or isinstance(row, email_claims.Busy):
        return row or False
    address = address_of(row.user_id, row.kind)
    if address is None:
        email_claims.mark(row, EmailStatus.DROPPED)
        return False
    subject, message = compose(row.kind, row.title, row.url, row.body)
    connection = get_connection()
    try:
        connection.open()
        # The connection is ours (opened above): sending does not close it, so the row is
        # marked sent between the server's reply and the connection's end (QUIT).
        EmailMessage(subject, message, None, [address], connection=connection).send()
    except Exception:
        email_claims.release(row)  # the server did not take it: the retry sends it
        with contextlib.suppress(Exception):
            connection.close()
        raise
    email_claims.mark(row, EmailStatus.SENT)
    try:
        connection.close()
    except Exception:  # the message was taken: a failed goodbye is no reason to send again
        log.warning("closing the mail connection after email %s failed", row.key, exc_info=True)
    return True
