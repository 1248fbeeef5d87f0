"""What a bot's owner is told about its versions (``notifications``): an upload that failed
to build (the worker's check) or to qualify (its qualification match)."""

from __future__ import annotations

from django.urls import reverse
from notifications.models import NotificationKind
from notifications.services import notify

from bots.models import BotVersion, VersionStatus


def version_failed(version: BotVersion, was: str) -> None:
    """Tell the owner that ``version`` failed; ``was``: its status before (how far it got)."""
    bot = version.bot
    if bot.is_builtin:
        return
    if was == VersionStatus.QUALIFYING:
        what = "failed its qualification match"
    elif was == VersionStatus.CHECKING:
        what = "failed to build"
    else:
        what = "failed"
    notify(
        bot.owner_id,
        NotificationKind.VERSION_FAILED,
        f"{bot.name} v{version.number} {what}",
        reverse("bots:detail", args=[bot.pk]),
        body=version.status_reason,
    )
