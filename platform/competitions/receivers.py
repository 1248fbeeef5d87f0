"""Tournaments and leagues listen to the end of their matches; matches know nothing of them."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver
from matches.signals import match_failed, match_finished

from competitions.services import finish_tournament_if_done


@receiver(match_finished, dispatch_uid="competitions.match_finished")
@receiver(match_failed, dispatch_uid="competitions.match_failed")
def _match_ended(sender: Any, match: Any, **_: Any) -> None:
    if match.tournament_id:
        finish_tournament_if_done(match.tournament_id)
