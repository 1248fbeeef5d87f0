"""Notifications: what a user is told (the in-site list), and per kind which channels they want.

Rows are written by ``notifications.services.notify`` only; each user keeps the newest
``NOTIFICATIONS_KEPT`` (older ones are pruned as new ones arrive)."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models


class NotificationKind(models.TextChoices):
    """What happened. Each kind can be switched off, per channel, on the settings page."""

    VERSION_FAILED = "version_failed", "An upload failed to build or qualify"
    BOT_SUSPENDED = "bot_suspended", "A bot was suspended from the ladder"
    COMPETITION_STARTED = "competition_started", "A competition you entered started"
    COMPETITION_ENDED = "competition_ended", "A competition you entered ended"
    CHALLENGE_PLAYED = "challenge_played", "A challenge you sent was played"


#: Longest title and site path stored (callers' texts are cut, never refused).
TITLE_MAX = 200
URL_MAX = 300
BODY_MAX = 2000


class Notification(models.Model):
    """One thing one user was told; ``read_at`` null while unread."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    kind = models.CharField(max_length=32, choices=NotificationKind.choices)
    title = models.CharField(max_length=TITLE_MAX)
    body = models.TextField(blank=True)  # plain text, shown escaped
    url = models.CharField(max_length=URL_MAX, blank=True)  # a path on this site
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [
            # The list (newest first) and pruning.
            models.Index("user", models.F("created_at").desc(), name="notification_by_user"),
            # The menu's unread count.
            models.Index(fields=["user", "read_at"], name="notification_unread"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} for {self.user_id}: {self.title}"


class NotificationPreference(models.Model):
    """A user's channels for one kind; no row means both channels on."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="notification_preferences",
    )
    kind = models.CharField(max_length=32, choices=NotificationKind.choices)
    site = models.BooleanField(default=True)
    email = models.BooleanField(default=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "kind"], name="notification_pref_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind}: site={self.site} email={self.email}"


class EmailStatus(models.TextChoices):
    PENDING = "pending", "Not sent yet"
    SENDING = "sending", "Being sent (claimed by a worker)"
    SENT = "sent", "Sent (the mail server took it)"
    DROPPED = "dropped", "Not sent: nobody to write to any more"


def new_email_key() -> str:
    return uuid.uuid4().hex


class EmailDelivery(models.Model):
    """The email channel of one notification to one user, and its idempotency record.

    ``notify`` writes it (``pending``) in the caller's transaction; the email task carries its
    id, claims it (``sending``, ``claimed_at``) before it sends, and marks it ``sent`` as soon
    as the mail server has taken the message. A redelivery of the task finds it ``sent`` and
    sends nothing (``notifications.email_claims``; docs/notifications.md, "Sent once"). It
    keeps its own texts: the user may want the email without the in-site row."""

    #: The idempotency key: a fresh one per row; ``task:<id>`` for a message of the task's
    #: older form (texts in the arguments), which a redelivery repeats.
    key = models.CharField(max_length=80, unique=True, default=new_email_key)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=32, choices=NotificationKind.choices)
    title = models.CharField(max_length=TITLE_MAX)
    body = models.TextField(blank=True)
    url = models.CharField(max_length=URL_MAX, blank=True)
    status = models.CharField(
        max_length=8, choices=EmailStatus.choices, default=EmailStatus.PENDING
    )
    created_at = models.DateTimeField(auto_now_add=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    #: When its message was put on the broker; empty while no send has gone through (the
    #: broker was down): the sweeper sends it again (``notifications.email_sweeper``).
    queued_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            # Pruning each recipient's old records (notifications.services.notify).
            models.Index(fields=["user", "created_at"], name="email_delivery_by_user"),
            # The sweeper's look for emails whose send failed: a few rows, never the week's.
            models.Index(
                fields=["created_at"],
                name="email_delivery_unsent",
                condition=models.Q(status="pending", queued_at__isnull=True),
            ),
        ]

    def __str__(self) -> str:
        return f"email {self.key} to {self.user_id}: {self.status}"
