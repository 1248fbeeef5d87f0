"""Writing bots: creating them, storing uploaded versions, registering the built-ins."""

from __future__ import annotations

import hashlib

from catalog.models import Game
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.files.base import ContentFile
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from arena.botspec import HUMAN
from bots.check_sending import send_check
from bots.models import Bot, BotVersion, VersionStatus
from bots.notices import version_failed
from bots.validation import validate_upload

#: The system account that owns every built-in bot.
SYSTEM_USERNAME = "arena"


def trusted_owner(owner: User) -> bool:
    """The operator's own code (staff, or the platform's ``arena`` user) may run in any
    sandbox; everyone else's uploads are strangers' code and need a security boundary."""
    return bool(owner.is_staff or owner.get_username() == SYSTEM_USERNAME)


def system_user() -> User:
    """The ``arena`` user (created without a usable password on first use)."""
    user_model = get_user_model()
    user, created = user_model.objects.get_or_create(username=SYSTEM_USERNAME)
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


def create_bot(*, owner: User, game: Game, name: str, description: str = "") -> Bot:
    """A new (empty) bot; a clear ValidationError when the owner already has that name."""
    name = name.strip()
    if not name:
        raise ValidationError("A bot needs a name.")
    if not game.is_active:
        raise ValidationError(f"{game.name} is not open for new bots.")
    try:
        with transaction.atomic():
            return Bot.objects.create(owner=owner, game=game, name=name, description=description)
    except IntegrityError as exc:
        raise ValidationError(f"You already have a bot named {name!r} for {game.name}.") from exc


class DuplicateUpload(ValidationError):
    """The very same bytes as an existing version of the bot: no new version is made."""

    def __init__(self, existing: BotVersion) -> None:
        super().__init__(
            f"This file is identical to v{existing.number} (same SHA-256): no new version was "
            "made.",
            code="duplicate",
        )
        self.existing = existing


@transaction.atomic
def upload_version(
    *, bot: Bot, filename: str, data: bytes, language: str | None = None
) -> BotVersion:
    """Check the file's structure (cheap: no compiling here) and store it as a new version of
    ``bot`` (number = last + 1, status ``checking``).

    Once committed, a worker checks its code (``bots.upload_check``: compiling ``main.py`` with
    limits); a version that passes then qualifies. The same bytes as an earlier version of
    this bot raise :class:`DuplicateUpload`. ``language``: the uploader's choice, needed only
    when the files could be several languages' bots."""
    if bot.is_builtin:
        raise ValidationError("Built-in bots cannot receive uploads.")
    bundle, lang = validate_upload(filename, data, settings.ARENA_UPLOAD_MAX_BYTES, language)
    # Lock the bot so that two uploads at once cannot take the same number (or both pass the
    # duplicate check).
    Bot.objects.select_for_update().filter(pk=bot.pk).first()
    sha256 = hashlib.sha256(data).hexdigest()
    existing = bot.versions.filter(sha256=sha256).order_by("number").first()
    if existing is not None:
        raise DuplicateUpload(existing)
    number = (bot.versions.aggregate(n=Max("number"))["n"] or 0) + 1
    version = BotVersion(
        bot=bot,
        number=number,
        sha256=sha256,
        size_bytes=len(data),
        status=VersionStatus.CHECKING,
        status_changed_at=timezone.now(),
        language=lang,
    )
    version.code.save(bundle.stored_name, ContentFile(data), save=False)
    version.save()
    transaction.on_commit(lambda: send_check(version.pk), robust=True)
    return version


def set_version_status(
    version: BotVersion, status: VersionStatus, *, reason: str = "", stderr: str = ""
) -> BotVersion:
    """Move a version along its life (``checking -> uploaded -> qualifying -> active``, any of
    them ``-> failed``, or ``waiting_sandbox``), with the reason and stderr its owner sees;
    the owner is notified when it fails (``bots.notices``)."""
    was = version.status
    version.status = status
    version.status_reason = reason
    version.failure_stderr = stderr
    version.status_changed_at = timezone.now()
    version.save(update_fields=["status", "status_reason", "failure_stderr", "status_changed_at"])
    if status == VersionStatus.FAILED and was != VersionStatus.FAILED:
        version_failed(version, was)
    return version


def pin_version(*, bot: Bot, by: User, version: BotVersion | None) -> Bot:
    """Make ``bot`` play with ``version`` (None: back to its latest active version). Only its
    owner may, and only with an active (qualified) version of this bot. On the ladder, pin
    through ``ladder.pinning.pin``, which also lifts a suspension the pin answers."""
    if bot.owner_id != by.pk:
        raise PermissionDenied("Only the bot's owner may choose its version.")
    if version is not None:
        version.refresh_from_db(fields=["status"])
        if version.bot_id != bot.pk:
            raise ValidationError(f"v{version.number} is not a version of {bot.name}.")
        if version.status != VersionStatus.ACTIVE:
            raise ValidationError(
                f"v{version.number} is {version.get_status_display().lower()}: only a qualified "
                "version can be pinned."
            )
    bot.pinned_version = version
    bot.save(update_fields=["pinned_version"])
    return bot


def _system_version(
    game: Game, *, name: str, builtin_name: str, status: str, description: str
) -> BotVersion:
    """Version 1 of the system user's bot ``name`` in ``game`` (both made once)."""
    bot, _ = Bot.objects.get_or_create(
        owner=system_user(),
        game=game,
        name=name,
        defaults={"is_builtin": True, "description": description},
    )
    version, _ = BotVersion.objects.get_or_create(
        bot=bot, number=1, defaults={"builtin_name": builtin_name, "status": status}
    )
    return version


@transaction.atomic
def ensure_builtin_bot(*, game: Game, builtin_name: str) -> Bot:
    """The system user's bot for one built-in (created once; version 1 names the built-in)."""
    return _system_version(
        game,
        name=builtin_name,
        builtin_name=builtin_name,
        status=VersionStatus.ACTIVE,
        description=f"The built-in {builtin_name!r} bot shipped with {game.name}.",
    ).bot


def ensure_builtin_bots(game: Game) -> list[Bot]:
    return [ensure_builtin_bot(game=game, builtin_name=n) for n in game.builtin_bots]


#: The name of each game's stand-in for a person (the play page's seats).
PERSON_BOT_NAME = "human"


@transaction.atomic
def person_version(game: Game) -> BotVersion:
    """The version a person's seat holds in ``game`` (``builtin_name="human"``, status
    ``person``): a bot row because every seat names a version, but one that no list, ladder,
    tournament or qualification ever picks (only ``MatchKind.HUMAN`` matches seat it)."""
    return _system_version(
        game,
        name=PERSON_BOT_NAME,
        builtin_name=HUMAN,
        status=VersionStatus.PERSON,
        description="A person playing in the browser (the play page). Never rated.",
    )
