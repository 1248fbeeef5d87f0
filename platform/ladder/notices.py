"""What a bot's owner is told about its place on the ladder (``notifications``)."""

from __future__ import annotations

from bots.models import BotVersion
from django.urls import reverse
from notifications.models import NotificationKind
from notifications.services import notify


def bot_suspended(version: BotVersion, reason: str) -> None:
    """Tell the owner that the bot of ``version`` was suspended from the ladder, and why."""
    bot = version.bot
    if bot.is_builtin:
        return
    notify(
        bot.owner_id,
        NotificationKind.BOT_SUSPENDED,
        f"{bot.name} is suspended from the ladder",
        reverse("bots:detail", args=[bot.pk]),
        body=reason,
    )
