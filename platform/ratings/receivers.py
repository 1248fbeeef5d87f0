"""Ratings listen to the end of matches; matches know nothing of ratings."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver
from matches.signals import match_finished

from ratings.services import rate_match


@receiver(match_finished, dispatch_uid="ratings.rate_match")
def _rate(sender: Any, match: Any, seats: Any, **_: Any) -> None:
    rate_match(match, seats)
