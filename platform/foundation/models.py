"""Rows that what every app stands on needs: the rate counters of the embedded default."""

from __future__ import annotations

from django.db import models


class RateCount(models.Model):
    """One throttle's hits in one window, when no Redis is configured (with Redis the counters
    live there). Added to by one atomic upsert per hit (foundation/rate_counter.py); rows past
    ``expires`` are deleted now and then by the hits themselves."""

    key = models.CharField(max_length=250, primary_key=True, help_text="scope, client, window")
    hits = models.IntegerField(default=0)
    expires = models.DateTimeField(db_index=True)

    class Meta:
        verbose_name = "rate counter"
