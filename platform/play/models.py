"""Who sits in the human seats of a match. The match itself is an ordinary ``matches.Match``
(kind ``human``, never rated); its human seats hold the per-game "human" bot version."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class PlaySeat(models.Model):
    """A person's seat in a match: only this user may act for it."""

    match = models.ForeignKey("matches.Match", on_delete=models.CASCADE, related_name="people")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="play_seats"
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="playseat_unique_seat"),
        ]
        indexes = [models.Index(fields=["user", "-created_at"], name="playseat_user_recent")]

    def __str__(self) -> str:
        return f"{self.user} in match {self.match_id} seat {self.seat}"
