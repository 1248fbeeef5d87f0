"""When a league's rounds fall, as pure arithmetic on its row (no queries): its calendar,
rounds at ``starts_at + k * every_hours``. The calendar's tick (``services.calendar``), the
league's own beat entry (``leagues.services``) and the pages that show the times read it."""

from __future__ import annotations

from datetime import datetime, timedelta

from competitions.models import League


def league_slot(lg: League, now: datetime) -> datetime | None:
    """The latest calendar time of ``lg`` at or before ``now`` (None: before ``starts_at``,
    or a league with no calendar)."""
    if lg.starts_at is None or now < lg.starts_at:
        return None
    every = timedelta(hours=lg.every_hours)
    return lg.starts_at + ((now - lg.starts_at) // every) * every


def league_round_due(lg: League, now: datetime) -> bool:
    """Whether the league's round of the latest calendar time has not been played yet. A
    round played "now" by an organiser in between counts for that time; times missed while
    beat was down are not caught up one by one (one round, then the calendar again)."""
    slot = league_slot(lg, now)
    return slot is not None and (lg.last_run_at is None or lg.last_run_at < slot)


def league_next_round_at(lg: League, now: datetime) -> datetime | None:
    """When the league's next round is due (None while paused). On the calendar: its next
    time, or the latest one while that round is not played yet. A league with no calendar
    (``starts_at`` null, made before it existed): ``every_hours`` after its last round."""
    if not lg.is_active:
        return None
    if lg.starts_at is None:
        if lg.last_run_at is None:
            return now
        return lg.last_run_at + timedelta(hours=lg.every_hours)
    slot = league_slot(lg, now)
    if slot is None:
        return lg.starts_at
    return slot if league_round_due(lg, now) else slot + timedelta(hours=lg.every_hours)
