"""When a tournament's rounds fall, as pure arithmetic on its row (no queries): a spaced
tournament's next round. The services that start and schedule (``calendar``, ``tournaments``)
read it here; a league's calendar is ``competitions.leagues.timetable``."""

from __future__ import annotations

from datetime import datetime, timedelta

from arena.formats import FORMATS
from competitions.models import Tournament


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
