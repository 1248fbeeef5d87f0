"""Checking an uploaded version's code on a worker, never in a web request.

The upload stores the file after the cheap structural check (``bots.validation``) and sends
``bots.check_version`` (``bots.tasks``, by name: ``bots.check_sending``) once committed. On a
worker, the task fetches the code through the storage API, checks it again and compiles
``main.py`` in a child process with memory and CPU limits (``sandbox.compile_check``); another
language's code is built (or syntax-checked) once, in a Docker build container or with the
host's toolchain
(``sandbox.build_upload``), and a compiled language's build stored as the version's artifact
(``bots.stored_code``). A version that passes becomes ``uploaded``
and ``bots.signals.version_checked`` tells the ladder to qualify it; one that does not becomes
``failed``, with the compiler's message for its owner. This task is the one place for a step
that prepares a version's code once.
"""

from __future__ import annotations

import hashlib
import logging
import tempfile
from typing import BinaryIO

from django.conf import settings
from django.db import transaction

from arena.bot_code import BundleError, build_upload_to, check_code, check_upload, get_language
from bots.holds import hold_for_storage_fault
from bots.models import BotVersion, VersionStatus
from bots.services import set_version_status
from bots.signals import version_checked
from bots.stored_code import fetch_version_code, store_artifact

log = logging.getLogger(__name__)

#: Characters of a failure's reason kept (a compiler's output is already cut to its first lines).
REASON_CAP = 8000


def run_check(version_id: int) -> str:
    """The task's work: check one ``checking`` version; returns its new status (or
    ``"skipped"``, or ``"held"``). A failure of the platform (storage, a child that cannot
    start, no Docker engine nor toolchain for its language) raises and leaves the version
    ``checking`` for a retry; stored code that no longer matches its hash holds it for staff
    (no retry mends that); the bot's faults (its code does not compile or build) end it
    ``failed``."""
    version = BotVersion.objects.filter(pk=version_id).only("status", "sha256", "language").first()
    if version is None or version.status != VersionStatus.CHECKING:
        return "skipped"
    data, suffix = fetch_version_code(version_id)
    if hashlib.sha256(data).hexdigest() != version.sha256:
        # A storage fault no retry mends: staff are told, the check ends (``bots.holds``).
        hold_for_storage_fault(version_id, "its stored code does not match its SHA-256")
        return "held"
    stored = stored_name(suffix, version.language)
    # The build's artifact goes to a temporary file, then to storage in chunks: never whole in
    # this worker's memory.
    with tempfile.TemporaryFile() as artifact:
        try:
            if get_language(version.language).checked_by_compiling:
                check_code(stored, data)
            else:
                # The upload check again (the build follows, in a build sandbox).
                check_upload(stored, data, language=version.language, max_bytes=len(data))
            # Other languages' build or syntax check; the chosen language of ambiguous files.
            built = build_upload_to(
                stored, data, version.language, artifact, sandbox=settings.ARENA_SANDBOX
            )
        except BundleError as exc:
            return _conclude(version_id, VersionStatus.FAILED, _capped(str(exc)))
        return _conclude(version_id, VersionStatus.UPLOADED, "", artifact if built else None)


def stored_name(suffix: str, language: str) -> str:
    """The name an upload is checked under: ``bot.zip``, or its language's source file."""
    if suffix == ".zip":
        return "bot.zip"
    return get_language(language).source


def _capped(reason: str) -> str:
    if len(reason) <= REASON_CAP:
        return reason
    return reason[:REASON_CAP] + "\n... (cut)"


@transaction.atomic
def _conclude(
    version_id: int, status: VersionStatus, reason: str, artifact: BinaryIO | None = None
) -> str:
    version = BotVersion.objects.select_for_update().get(pk=version_id)
    if version.status != VersionStatus.CHECKING:  # a second delivery got here first
        return "skipped"
    if artifact is not None:
        store_artifact(version, artifact)
    set_version_status(version, status, reason=reason)
    if status == VersionStatus.UPLOADED:
        transaction.on_commit(
            lambda: version_checked.send(sender=BotVersion, version=version), robust=True
        )
    return str(status)
