"""A bot is a named entry of one owner for one game; each upload makes a new numbered version.

Matches always point at a :class:`BotVersion`, so a replay stays tied to the exact code that
played it even after the owner uploads a newer one.
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.validators import MaxLengthValidator, ProhibitNullCharactersValidator
from django.db import models

from arena.bot_code import LANGUAGES
from arena.contract import builtin_bot

#: A bot's description: a paragraph, not a document (checked by forms, serializers, full_clean).
DESCRIPTION_MAX = 2000


def _upload_to(instance: BotVersion, filename: str) -> str:
    # One folder per bot; the version number keeps files apart, the suffix tells .py from .zip.
    suffix = Path(filename).suffix.lower()
    return f"bots/{instance.bot_id}/v{instance.number}{suffix}"


def _artifact_to(instance: BotVersion, filename: str) -> str:
    # The built program of a compiled language, beside its upload, named by its hash.
    return f"bots/{instance.bot_id}/v{instance.number}-built-{instance.artifact_sha256[:16]}.zip"


class VersionStatus(models.TextChoices):
    """A version's life: an upload's code is checked on a worker (``bots.tasks.check_version``),
    then it plays a qualification match before it may enter the ladder."""

    #: Stored; a worker checks (compiles) its code before it may qualify.
    CHECKING = "checking", "Being checked"
    UPLOADED = "uploaded", "Uploaded"  # checked; its qualification match is not started yet
    QUALIFYING = "qualifying", "Qualifying"  # its qualification match is queued or running
    ACTIVE = "active", "Active"  # qualified (or built-in): may play on the ladder
    FAILED = "failed", "Failed"  # crashed, timed out or played illegally in qualification
    #: No sandbox that is a security boundary is available for a stranger's code.
    WAITING_SANDBOX = "waiting_sandbox", "Waiting for a sandbox"
    #: The stand-in for a person at the table (``services.person_version``): never listed,
    #: never on a ladder, never anyone's opponent; only the play page seats it.
    PERSON = "person", "A person's seat"


class Bot(models.Model):
    """A bot for one game, owned by one user. Built-in bots belong to the system user."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bots"
    )
    game = models.ForeignKey("catalog.Game", on_delete=models.CASCADE, related_name="bots")
    name = models.CharField(max_length=60)
    description = models.TextField(
        blank=True,
        max_length=DESCRIPTION_MAX,
        validators=[MaxLengthValidator(DESCRIPTION_MAX), ProhibitNullCharactersValidator()],
    )
    #: True for the game's own bots (``games.registry.bots``): trusted code, run in-process.
    is_builtin = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    #: The version its owner chose to play with; None: its latest active version.
    pinned_version = models.ForeignKey(
        "bots.BotVersion", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["game__name", "name"]
        constraints = [
            models.UniqueConstraint(fields=["owner", "game", "name"], name="bot_unique_name"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.game.slug})"

    def latest_version(self) -> BotVersion | None:
        return self.versions.order_by("-number").first()

    def playing_version(self) -> BotVersion | None:
        """The version it plays with: the pinned one while it is active, else the newest
        active one (None when no version qualified); a held version never plays."""
        pinned = self.pinned_version
        if pinned is not None and pinned.status == VersionStatus.ACTIVE and pinned.held_at is None:
            return pinned
        playable = self.versions.filter(status=VersionStatus.ACTIVE, held_at__isnull=True)
        return playable.order_by("-number").first()


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
    #: Versions made in code (built-ins) are active at once; uploads start as ``checking``
    #: (``services.upload_version``), and qualify once their code is checked.
    status = models.CharField(
        max_length=16, choices=VersionStatus.choices, default=VersionStatus.ACTIVE
    )
    #: Why it failed, or what it waits for (shown to its owner).
    status_reason = models.TextField(blank=True)
    #: The tail of its stderr in the failed qualification match: its owner's eyes only.
    failure_stderr = models.TextField(blank=True)
    status_changed_at = models.DateTimeField(null=True, blank=True)
    #: Matches in a row, up to the last one recorded, that ended in a platform error
    #: (``ladder.holds``); a finished match sets it back to 0.
    error_streak = models.PositiveIntegerField(default=0)
    #: Set when ``error_streak`` reached ``ARENA_VERSION_ERROR_LIMIT``: a held version is never
    #: scheduled (qualification, ladder, challenges, leagues) until staff release it in the admin.
    held_at = models.DateTimeField(null=True, blank=True)
    #: Why it is held, for staff: the streak and the last failed match.
    held_reason = models.TextField(blank=True)
    #: When its code check was last sent to a worker (``bots.check_sweeper`` sends a lost one
    #: again; None: the send failed, or the check waits for its owner's build time).
    check_sent_at = models.DateTimeField(null=True, blank=True)
    #: When a worker last started its check (a check past its time limit since was lost).
    check_started_at = models.DateTimeField(null=True, blank=True)
    #: Seconds its last finished check took on the worker: its owner's build time
    #: (``bots.build_quota``, counted in the hour after ``check_started_at``).
    check_seconds = models.FloatField(default=0)
    #: Its language, a key of ``sandbox.languages.LANGUAGES`` (every bot before was Python).
    language = models.CharField(max_length=16, default="python")
    #: A compiled language's build (the built folder as a zip), made once by the worker's
    #: check, or the folder of files that could be several languages' bots marked with the
    #: chosen one; workers run it instead of the upload. Empty otherwise.
    artifact = models.FileField(upload_to=_artifact_to, blank=True)
    #: Hex SHA-256 of ``artifact``: a worker verifies what it fetches against it.
    artifact_sha256 = models.CharField(max_length=64, blank=True)

    class Meta:
        ordering = ["bot", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["bot", "number"], name="botversion_unique_number"),
        ]
        indexes = [models.Index(fields=["status", "bot"], name="botversion_status")]

    def __str__(self) -> str:
        return f"{self.bot.name} v{self.number}"

    @property
    def is_active(self) -> bool:
        return self.status == VersionStatus.ACTIVE

    @property
    def label(self) -> str:
        return f"{self.bot.name} v{self.number}"

    @property
    def language_name(self) -> str:
        """Its language as people read it ("C++20 (g++ 12)"), from ``sandbox.languages``."""
        lang = LANGUAGES.get(self.language)
        return lang.name if lang is not None else self.language

    def runner_spec(self) -> str:
        """What the referee runs: ``builtin:NAME`` or the absolute path of the uploaded file."""
        if self.builtin_name:
            return builtin_bot(self.builtin_name)
        return str(Path(self.code.path).resolve())
