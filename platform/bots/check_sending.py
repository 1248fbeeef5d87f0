"""Sending an uploaded version's check to a builds worker, by the task's name: below
``bots.services`` (which sends it once an upload commits) and ``bots.check_sweeper`` (which
sends a lost one again), and never importing the check itself (``bots.upload_check``, run by
``bots.tasks``)."""

from __future__ import annotations

from django.utils import timezone
from foundation.task_sending import send_by_name

from bots.models import BotVersion

#: The check's task (``bots.tasks``), sent by name.
CHECK_TASK = "bots.check_version"


def send_check(version_id: int) -> bool:
    """Send the check of one version to a builds worker, noting when first (a worker that
    starts it at once starts after the send); False (logged, the note taken back) when the
    broker cannot take it: the next sweep sends it again (``bots.check_sweeper``)."""
    now = timezone.now()
    BotVersion.objects.filter(pk=version_id).update(check_sent_at=now)
    if deliver_check(version_id):
        return True
    BotVersion.objects.filter(pk=version_id, check_sent_at=now).update(check_sent_at=None)
    return False


def deliver_check(version_id: int) -> bool:
    """Put one check's message on the broker, by task name (routed to ``settings.BUILDS_QUEUE``
    by ``CELERY_TASK_ROUTES``); inline when tasks run eagerly. False (logged) when it failed."""
    return send_by_name(CHECK_TASK, [version_id])
