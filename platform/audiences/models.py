"""Audiences: the users who may see a private thing (a competition, its matches, replays and
standings), and who among them manages it."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class AudienceRole(models.TextChoices):
    MEMBER = "member", "Member"  # sees everything private, may enter when entries allow
    ORGANISER = "organiser", "Co-organiser"  # also manages (entries, members, settings, start)


class Audience(models.Model):
    """A set of users. Rows that are private point at one (``Match.audience``,
    ``Tournament.audience``); null there means public."""

    #: What it is for, for the admin ("Tournament 12: Class 4B cup").
    label = models.CharField(max_length=150, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.label or f"audience {self.pk}"


class AudienceMember(models.Model):
    """One user in an audience, with a role."""

    audience = models.ForeignKey(Audience, on_delete=models.CASCADE, related_name="members")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="audience_memberships"
    )
    role = models.CharField(
        max_length=10, choices=AudienceRole.choices, default=AudienceRole.MEMBER
    )
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["audience", "user"], name="audience_member_unique"),
        ]
        indexes = [models.Index(fields=["user", "audience"], name="audience_member_by_user")]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.audience_id} ({self.role})"
