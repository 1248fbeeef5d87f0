"""Checking an uploaded version's code on a worker, never in a web request.

The upload stores the file after the cheap structural check (``bots.validation``) and sends
``bots.check_version`` (``bots.tasks``) once committed. On a worker, the task fetches the code
through the storage API, checks it again and compiles ``main.py`` in a child process with
memory and CPU limits (``sandbox.compile_check``). A version that passes becomes ``uploaded``
and ``bots.signals.version_checked`` tells the ladder to qualify it; one that does not becomes
``failed``, with the compiler's message for its owner. This task is the one place for a step
that prepares a version's code once (building bots in other languages belongs here).
"""

from __future__ import annotations

import hashlib
import logging
from datetime import datetime, timedelta

from catalog.models import Game
from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from arena.bot_code import BundleError, check_code
from bots.code_store import fetch_version_code
from bots.models import BotVersion, VersionStatus
from bots.services import set_version_status
from bots.signals import version_checked

log = logging.getLogger(__name__)

#: Versions whose check one tick sends again, at most.
RESEND_BATCH = 20


def send_check(version_id: int) -> bool:
    """Send the check of one version to a worker and note when; False (logged) when the
    broker cannot take it: the ladder's tick sends it again."""
    from bots.tasks import check_version

    try:
        check_version.delay(version_id)
    except Exception:
        log.warning("check of version %s not sent", version_id, exc_info=True)
        return False
    BotVersion.objects.filter(pk=version_id).update(check_sent_at=timezone.now())
    return True


def resend_lost_checks(game: Game, now: datetime) -> list[int]:
    """Send again the checks of ``game``'s versions never sent, or sent longer ago than
    ``ARENA_QUEUE_PATIENCE_S`` (a lost message, a worker that died): the versions sent."""
    patience = timedelta(seconds=settings.ARENA_QUEUE_PATIENCE_S)
    lost = list(
        BotVersion.objects.filter(bot__game=game, status=VersionStatus.CHECKING)
        .filter(Q(check_sent_at__isnull=True) | Q(check_sent_at__lt=now - patience))
        .order_by("pk")
        .values_list("pk", flat=True)[:RESEND_BATCH]
    )
    return [pk for pk in lost if send_check(pk)]


def run_check(version_id: int) -> str:
    """The task's work: check one ``checking`` version; returns its new status (or
    ``"skipped"``). A failure of the platform (storage, a child that cannot start) raises
    and leaves the version ``checking`` for a retry; the bot's faults end it ``failed``."""
    version = BotVersion.objects.filter(pk=version_id).only("status", "sha256").first()
    if version is None or version.status != VersionStatus.CHECKING:
        return "skipped"
    data, suffix = fetch_version_code(version_id)
    if hashlib.sha256(data).hexdigest() != version.sha256:
        raise RuntimeError(f"the stored code of version {version_id} does not match its hash")
    try:
        check_code("main.py" if suffix == ".py" else "bot.zip", data)
    except BundleError as exc:
        return _conclude(version_id, VersionStatus.FAILED, str(exc))
    return _conclude(version_id, VersionStatus.UPLOADED, "")


@transaction.atomic
def _conclude(version_id: int, status: VersionStatus, reason: str) -> str:
    version = BotVersion.objects.select_for_update().get(pk=version_id)
    if version.status != VersionStatus.CHECKING:  # a second delivery got here first
        return "skipped"
    set_version_status(version, status, reason=reason)
    if status == VersionStatus.UPLOADED:
        transaction.on_commit(
            lambda: version_checked.send(sender=BotVersion, version=version), robust=True
        )
    return str(status)
