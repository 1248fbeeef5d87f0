"""A bot is a named entry of one owner for one game; each upload makes a new numbered version.

Matches always point at a :class:`BotVersion`, so a replay stays tied to the exact code that
played it even after the owner uploads a newer one.
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.db import models


def _upload_to(instance: BotVersion, filename: str) -> str:
    # One folder per bot; the version number keeps files apart, the suffix tells .py from .zip.
    suffix = Path(filename).suffix.lower()
    return f"bots/{instance.bot_id}/v{instance.number}{suffix}"


class Bot(models.Model):
    """A bot for one game, owned by one user. Built-in bots belong to the system user."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bots"
    )
    game = models.ForeignKey("catalog.Game", on_delete=models.CASCADE, related_name="bots")
    name = models.CharField(max_length=60)
    description = models.TextField(blank=True)
    #: True for the game's own bots (``games.registry.bots``): trusted code, run in-process.
    is_builtin = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game__name", "name"]
        constraints = [
            models.UniqueConstraint(fields=["owner", "game", "name"], name="bot_unique_name"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.game.slug})"

    def latest_version(self) -> BotVersion | None:
        return self.versions.order_by("-number").first()


class BotVersion(models.Model):
    """One runnable version of a bot: an uploaded ``.py``/``.zip`` file or a built-in's name."""

    bot = models.ForeignKey(Bot, on_delete=models.CASCADE, related_name="versions")
    #: 1, 2, 3... per bot.
    number = models.PositiveIntegerField()
    #: The uploaded code under MEDIA_ROOT (empty for built-in bots).
    code = models.FileField(upload_to=_upload_to, blank=True)
    #: For built-in bots: the name in ``games.registry.bots(game)``.
    builtin_name = models.CharField(max_length=60, blank=True)
    #: Hex SHA-256 of the uploaded file (empty for built-ins).
    sha256 = models.CharField(max_length=64, blank=True)
    size_bytes = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["bot", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["bot", "number"], name="botversion_unique_number"),
        ]

    def __str__(self) -> str:
        return f"{self.bot.name} v{self.number}"

    @property
    def label(self) -> str:
        return f"{self.bot.name} v{self.number}"

    def runner_spec(self) -> str:
        """What the referee runs: ``builtin:NAME`` or the absolute path of the uploaded file."""
        if self.builtin_name:
            return f"builtin:{self.builtin_name}"
        return str(Path(self.code.path).resolve())
