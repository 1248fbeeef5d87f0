"""A new tournament's settings beyond its format: who sees it, who enters and when, caps, when
it starts, round spacing, its matches' time control and whether they move the public ladder.
Checked here once for the form, the API and any other caller of ``create_tournament``."""

from __future__ import annotations

from datetime import datetime
from typing import Any, TypedDict

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils import timezone
from matches.creation import check_fits_limit
from matches.services import check_time_control

from arena.contract import TimeControl
from competitions.models import EntryPolicy, Visibility

#: Site limits of a competition's time control (ms): a bot's answer to ``start`` and to one
#: decision. A bank is bounded by the match's time limit, shared by the seats.
MAX_START_MS = 60_000
MAX_MOVE_MS = 60_000
#: Rounds at most this many hours apart (a fortnight).
MAX_ROUND_SPACING_HOURS = 24 * 14
#: Entrants at most (the largest field a tournament of 2,000 matches can hold in practice).
MAX_ENTRIES = 1000
MAX_ENTRIES_PER_USER = 20


class TournamentSettings(TypedDict, total=False):
    """The keyword arguments ``create_tournament`` takes beyond the format's."""

    visibility: str
    entry_policy: str
    entries_open_at: datetime | None
    entries_close_at: datetime | None
    max_entries: int | None
    entries_per_user: int
    start_at: datetime | None
    round_spacing_hours: int
    time_control: dict[str, int] | None
    #: None: True for a public tournament, False for a private one.
    rated_on_ladder: bool | None


def checked_time_control(time_control: dict[str, int] | None, players: int) -> dict[str, int]:
    """The stored form of a competition's time control ({}: the site's default), checked as
    every match's is (``matches.services.check_time_control``) and within the site's limits."""
    if not time_control:
        return {}
    tc: TimeControl = check_time_control(time_control)
    bank_limit = settings.ARENA_MATCH_TIME_LIMIT_S * 1000 // max(players, 1)
    if tc.start_ms > MAX_START_MS:
        raise ValidationError(f"start_ms is at most {MAX_START_MS} ms on this site.")
    if tc.move_ms > MAX_MOVE_MS:
        raise ValidationError(f"move_ms is at most {MAX_MOVE_MS} ms on this site.")
    if tc.bank_ms > bank_limit:
        raise ValidationError(
            f"bank_ms is at most {bank_limit} ms for {players}-player matches: a match may take "
            f"{settings.ARENA_MATCH_TIME_LIMIT_S} s on a worker."
        )
    check_fits_limit(tc, settings.ARENA_MATCH_TIME_LIMIT_S)
    return tc.to_json()


def checked_settings(given: TournamentSettings, *, players: int) -> dict[str, Any]:
    """The model fields for ``given`` with their defaults, or a ValidationError saying what
    is wrong."""
    visibility = given.get("visibility") or Visibility.PUBLIC
    if visibility not in Visibility.values:
        raise ValidationError(f"Unknown visibility {visibility!r}: public or private.")
    policy = given.get("entry_policy") or EntryPolicy.ORGANISER
    if policy not in EntryPolicy.values:
        raise ValidationError(
            f"Unknown entry policy {policy!r}: one of {', '.join(EntryPolicy.values)}."
        )
    opens, closes = given.get("entries_open_at"), given.get("entries_close_at")
    start_at = given.get("start_at") or closes
    _check_times(opens, closes, start_at)
    max_entries = given.get("max_entries")
    if max_entries is not None and not players <= max_entries <= MAX_ENTRIES:
        raise ValidationError(
            f"The entry cap must be from {players} (a match's seats) to {MAX_ENTRIES}."
        )
    per_user = given.get("entries_per_user", 1)
    if not 1 <= per_user <= MAX_ENTRIES_PER_USER:
        raise ValidationError(f"Entries per user must be from 1 to {MAX_ENTRIES_PER_USER}.")
    spacing = given.get("round_spacing_hours", 0)
    if not 0 <= spacing <= MAX_ROUND_SPACING_HOURS:
        raise ValidationError(f"Rounds may be at most {MAX_ROUND_SPACING_HOURS} hours apart.")
    rated = given.get("rated_on_ladder")
    return {
        "visibility": visibility,
        "entry_policy": policy,
        "entries_open_at": opens,
        "entries_close_at": closes,
        "max_entries": max_entries,
        "entries_per_user": per_user,
        "start_at": start_at,
        "round_spacing_hours": spacing,
        "time_control": checked_time_control(given.get("time_control"), players),
        # Private matches never move the public ladder unless the organiser says so.
        "rated_on_ladder": visibility == Visibility.PUBLIC if rated is None else rated,
    }


def _check_times(opens: datetime | None, closes: datetime | None, start: datetime | None) -> None:
    now = timezone.now()
    if opens and closes and opens >= closes:
        raise ValidationError("Entries must open before they close.")
    if closes and closes <= now:
        raise ValidationError("Entries would close before the tournament exists: a later time.")
    if start and start <= now:
        raise ValidationError("The start time is in the past.")
    if start and closes and start < closes:
        raise ValidationError("The tournament cannot start before entries close.")
