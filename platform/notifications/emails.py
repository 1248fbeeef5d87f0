"""The email of one notification, composed and sent on a worker (``notifications.tasks``),
through Django's email backend (the console by default, SMTP by configuration)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import send_mail
from django.urls import reverse

from notifications.models import NotificationKind
from notifications.services import channels_of, one_line


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


def send_one(user_id: int, kind: str, title: str, url: str, body: str = "") -> bool:
    """Email one user about one notification; False when there is nobody to write to any
    more (the account is gone or inactive, has no address, or turned this kind's email off
    since the notification was made)."""
    found = (
        get_user_model()
        .objects.filter(pk=user_id, is_active=True)
        .values_list("email", flat=True)
        .first()
    )
    if not found or not channels_of([user_id], kind)[user_id].email:
        return False
    subject, message = compose(kind, title, url, body)
    send_mail(subject, message, None, [found])  # None: DEFAULT_FROM_EMAIL
    return True
