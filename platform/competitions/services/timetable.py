"""When competitions' rounds fall, as pure arithmetic on their rows (no queries): a spaced
tournament's next round, and a league's calendar (rounds at ``starts_at + k * every_hours``).
The services that start and schedule (``calendar``, ``tournaments``, ``leagues``) and the
pages that show the times read them here."""

from __future__ import annotations

from datetime import datetime, timedelta

from arena.formats import FORMATS
from competitions.models import League, Tournament


def is_spaced(t: Tournament) -> bool:
    """Whether ``t``'s rounds start ``round_spacing_hours`` apart (a format whose rounds may be
    spaced: ``Format.spaced``)."""
    return t.round_spacing_hours > 0 and t.format in FORMATS and FORMATS[t.format].spaced


def next_round_after(t: Tournament, scheduled_at: datetime) -> datetime | None:
    """``next_round_at`` of a round scheduled at ``scheduled_at``: its start plus the spacing
    (None when the rounds are not spaced: the next one follows at once)."""
    return scheduled_at + timedelta(hours=t.round_spacing_hours) if is_spaced(t) else None


def round_waits(t: Tournament, now: datetime) -> bool:
    """Whether the round after the one that just ended must wait for ``t.next_round_at``
    (beat plays it then: ``calendar.play_due_rounds``)."""
    return is_spaced(t) and t.next_round_at is not None and t.next_round_at > now


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
