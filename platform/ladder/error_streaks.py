"""Holding a version whose matches keep ending in a platform error.

An ``error`` match is never held against a bot (it is unrated, and a qualification is tried
again), so a version that makes the platform fail, on purpose or not, was retried forever,
and a rated bot that failed only its lost matches never lost rating. Every recorded match
moves the streak of each uploaded version in it: an ``error`` adds one, a finished match sets
it back to 0. At ``ARENA_VERSION_ERROR_LIMIT`` in a row the version is held: nothing schedules
it (its qualification, the ladder, challenges, leagues) until staff release it in the admin
(``bots.holds``), and the hold is logged at ERROR for staff. Built-in versions are never held:
they sit in every qualification match, and they run in-process, trusted.
"""

from __future__ import annotations

import logging

from bots.models import BotVersion
from django.conf import settings
from django.db.models import F
from django.utils import timezone
from matches.models import ErrorKind, Match, MatchSeat, MatchStatus

log = logging.getLogger(__name__)


def error_limit() -> int:
    return max(1, int(settings.ARENA_VERSION_ERROR_LIMIT))


def count_match(match: Match) -> list[int]:
    """Move the error streaks of the uploaded versions in ``match`` (just recorded, inside the
    recording transaction) and hold those that reach the limit; the ids newly held.

    Each write is one conditional ``UPDATE``: only rows that change are locked."""
    ids = list(
        MatchSeat.objects.filter(match=match, bot_version__bot__is_builtin=False)
        .order_by()
        .values_list("bot_version_id", flat=True)
        .distinct()
    )
    if not ids:
        return []
    if match.status == MatchStatus.FINISHED:
        BotVersion.objects.filter(pk__in=ids, error_streak__gt=0).update(error_streak=0)
        return []
    # The worker's refusal to run a stranger's code without a security boundary is a matter of
    # the site's set-up, handled by ``waiting_sandbox``: never a reason to hold.
    if match.status != MatchStatus.ERROR or match.error_kind == ErrorKind.NO_BOUNDARY:
        return []
    BotVersion.objects.filter(pk__in=ids).update(error_streak=F("error_streak") + 1)
    limit = error_limit()
    due = BotVersion.objects.filter(pk__in=ids, error_streak__gte=limit, held_at__isnull=True)
    held = []
    now = timezone.now()
    for version in due.select_related("bot__owner", "bot__game").order_by("pk"):
        reason = (
            f"Held after {version.error_streak} matches in a row that ended in a platform "
            f"error (the last, match {match.pk}: {match.error or 'no error text'}). Nothing "
            "schedules it until staff release it."
        )
        if BotVersion.objects.filter(pk=version.pk, held_at__isnull=True).update(
            held_at=now, held_reason=reason
        ):
            held.append(version.pk)
            log.error(
                "bot version %s (%s of %s, %s) held: %d matches in a row ended in a platform "
                "error, the last match %s: %s",
                version.pk,
                version.label,
                version.bot.owner.get_username(),
                version.bot.game.slug,
                version.error_streak,
                match.pk,
                match.error,
            )
    return held
