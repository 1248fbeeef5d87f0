"""The ladder's entries: a bot on its game's ladder, with placement matches owed, a fault
streak and a suspension."""

from __future__ import annotations

import logging

from bots.models import Bot, VersionStatus
from catalog.models import Game
from django.conf import settings

from ladder.models import LadderEntry

log = logging.getLogger(__name__)


def join_ladder(bot: Bot, *, new_version: bool, cause: str = "") -> LadderEntry:
    """Put ``bot`` on its game's ladder. A newly qualified version (or, ``ladder.pinning``,
    another qualified version pinned) owes placement matches, resets the fault streak and
    lifts a suspension (a new version is a fresh start); ``cause`` says which, in the log."""
    entry, created = LadderEntry.objects.select_for_update().get_or_create(
        bot=bot, defaults={"game_id": bot.game_id}
    )
    if new_version and entry.suspended_at is not None:
        log.info(
            "bot %s (%s) back on the ladder: %s; it was suspended at %s: %s",
            bot.pk,
            bot.name,
            cause or "a new version qualified",
            entry.suspended_at.isoformat(),
            entry.suspended_reason,
        )
    if new_version or created:
        entry.placement_owed = 0 if bot.is_builtin else settings.ARENA_LADDER_PLACEMENT
        entry.fault_streak = 0
        entry.suspended_at = None
        entry.suspended_reason = ""
        entry.suspended_version = None
        entry.save()
    return entry


def ensure_entries(game: Game) -> int:
    """Built-in bots (and any bot with an active version but no entry) join the ladder."""
    missing = list(
        Bot.objects.filter(
            game=game, ladder_entry__isnull=True, versions__status=VersionStatus.ACTIVE
        )
        .distinct()
        .only("id", "game_id", "is_builtin")
    )
    LadderEntry.objects.bulk_create(
        [
            LadderEntry(
                bot=b,
                game=game,
                placement_owed=0 if b.is_builtin else settings.ARENA_LADDER_PLACEMENT,
            )
            for b in missing
        ],
        ignore_conflicts=True,
    )
    return len(missing)
