"""Pinning a version on the ladder: ``bots.services.pin_version`` chooses the version a bot
plays with; when the bot is suspended and it now plays with a qualified version other than
the one whose faults suspended it, the suspension is lifted exactly as a new qualified upload
lifts it (``entries.join_ladder``: placement owed again, fault streak 0, logged). The page
(``ladder.views``) and the API (``ladder.api``) both pin through here."""

from __future__ import annotations

from dataclasses import dataclass

from bots.models import Bot, BotVersion
from bots.services import pin_version
from django.contrib.auth.models import User
from django.db import transaction

from ladder.entries import join_ladder
from ladder.models import LadderEntry


@dataclass(frozen=True)
class Pinned:
    bot: Bot
    #: What it plays with now (None: no qualified version).
    playing: BotVersion | None
    #: The pin lifted a suspension.
    reinstated: bool
    #: Still suspended: the version it plays with is the one whose faults suspended it.
    still_suspended: bool


@transaction.atomic
def pin(*, bot: Bot, by: User, version: BotVersion | None) -> Pinned:
    """Pin ``version`` (None: unpin) and lift a suspension the pin answers. Raises what
    ``pin_version`` raises (PermissionDenied, ValidationError)."""
    pin_version(bot=bot, by=by, version=version)
    playing = bot.playing_version()
    entry = LadderEntry.objects.select_for_update().filter(bot=bot).first()
    if entry is None or entry.suspended_at is None:
        return Pinned(bot, playing, reinstated=False, still_suspended=False)
    if playing is None or playing.pk == entry.suspended_version_id:
        return Pinned(bot, playing, reinstated=False, still_suspended=True)
    what = f"v{playing.number} pinned" if version is not None else f"unpinned, v{playing.number}"
    join_ladder(bot, new_version=True, cause=f"{what} by its owner {by.get_username()}")
    return Pinned(bot, playing, reinstated=True, still_suspended=False)


def pinned_message(result: Pinned) -> str:
    """What the pin did, in one sentence for its owner (the page's message)."""
    bot, playing = result.bot, result.playing
    plays = (
        f"{bot.name} now plays with v{playing.number}"
        if playing
        else f"{bot.name} has no qualified version to play with"
    )
    if result.reinstated:
        return f"{plays} and is back on the ladder (its placement matches first)."
    if result.still_suspended:
        return (
            f"{plays}, the version whose faults suspended it: it stays suspended. Pin another "
            "qualified version, or upload a new one."
        )
    return f"{plays}."
