"""Notifications: what a user is told (the in-site list), and per kind which channels they want.

Rows are written by ``notifications.services.notify`` only; each user keeps the newest
``NOTIFICATIONS_KEPT`` (older ones are pruned as new ones arrive)."""

from __future__ import annotations

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
