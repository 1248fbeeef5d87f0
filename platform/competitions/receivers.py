"""Tournaments and leagues listen to the end of their matches; matches know nothing of them."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver
from matches.signals import match_failed, match_finished

from competitions.services import league_match_ended, tournament_match_ended


@receiver(match_finished, dispatch_uid="competitions.match_finished")
def _match_finished(sender: Any, match: Any, seats: Any, **_: Any) -> None:
    if match.tournament_id:
        tournament_match_ended(match, seats)
    if match.league_id:
        league_match_ended(match, seats)


@receiver(match_failed, dispatch_uid="competitions.match_failed")
def _match_failed(sender: Any, match: Any, **_: Any) -> None:
    if match.tournament_id:
        tournament_match_ended(match, None)
