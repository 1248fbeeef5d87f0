"""What a finished (or errored) match does to the ladder: a qualification decides its version;
a ladder match counts placement and fault streaks, and suspends a bot after
``ARENA_LADDER_SUSPEND_AFTER`` faults in a row. Platform errors never count."""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from matches.models import Match, MatchKind, MatchStatus

from ladder.challenges import challenge_played
from ladder.models import LadderEntry, LadderMatch
from ladder.notices import bot_suspended
from ladder.qualification import fault_text, qualification_done

#: Seat statuses that count toward a suspension ("illegal" played to the end: it does not).
SUSPENDING_FAULTS = frozenset({"crashed", "timeout", "retired"})


@transaction.atomic
def match_finished(match: Match) -> None:
    """What a finished (or errored) match does to the ladder: a qualification decides its
    version; a ladder match counts placement and fault streaks, and suspends a bot after
    ``ARENA_LADDER_SUSPEND_AFTER`` faults in a row. Platform errors never count. Called inside
    the transaction that records the match (``matches.signals``), at most once per match."""
    if match.kind not in (MatchKind.QUALIFICATION, MatchKind.LADDER, MatchKind.CHALLENGE):
        return
    lm = LadderMatch.objects.filter(match_id=match.pk).first()
    if lm is None:
        return
    if lm.kind == MatchKind.QUALIFICATION:
        qualification_done(lm, match)
    elif lm.kind == MatchKind.LADDER and match.status == MatchStatus.FINISHED:
        _ladder_done(match)
    elif lm.kind == MatchKind.CHALLENGE and match.status == MatchStatus.FINISHED:
        challenge_played(lm, match)


def _ladder_done(match: Match) -> None:
    seats = list(match.seats.select_related("bot_version").order_by("seat"))
    entries = {
        e.bot_id: e
        for e in LadderEntry.objects.select_for_update()
        .filter(bot_id__in=[s.bot_version.bot_id for s in seats])
        .order_by("pk")
    }
    limit = settings.ARENA_LADDER_SUSPEND_AFTER
    now = match.finished_at or timezone.now()
    for seat in seats:
        entry = entries.get(seat.bot_version.bot_id)
        if entry is None:
            continue
        entry.ladder_matches += 1
        entry.last_match_at = now
        entry.placement_owed = max(0, entry.placement_owed - 1)
        if seat.status in SUSPENDING_FAULTS:
            entry.fault_streak += 1
            if entry.fault_streak >= limit and entry.suspended_at is None:
                entry.suspended_at = now
                entry.suspended_version = seat.bot_version
                entry.suspended_reason = (
                    f"Suspended from the ladder: {entry.fault_streak} ladder matches in a row "
                    f"ended in a fault (the last, match {match.pk}: "
                    f"{seat.get_status_display().lower()}, {fault_text(seat)}). "
                    "Pin another qualified version to bring it back now, or upload a new "
                    "version: once that qualifies, the bot is back."
                )
                bot_suspended(seat.bot_version, entry.suspended_reason)
        else:
            entry.fault_streak = 0
    LadderEntry.objects.bulk_update(
        list(entries.values()),
        [
            "ladder_matches",
            "last_match_at",
            "placement_owed",
            "fault_streak",
            "suspended_at",
            "suspended_reason",
            "suspended_version",
        ],
    )
