"""The ladder's Celery tasks: the matchmaker tick (on a schedule, Celery beat) and the
qualification of one upload (sent when it is committed)."""

from __future__ import annotations

from typing import Any

from bots.models import BotVersion
from celery import shared_task

from ladder import qualification, services
from ladder.sending import QUALIFY_TASK


@shared_task(name="ladder.tick", ignore_result=True)
def tick() -> list[dict[str, Any]]:
    """One matchmaker tick of every game's ladder (Celery beat sends it every few seconds)."""
    return [vars(r) for r in services.run_ladders()]


@shared_task(name=QUALIFY_TASK, ignore_result=True)
def qualify(version_id: int) -> int | None:
    """Start the qualification match of one uploaded version."""
    version = BotVersion.objects.filter(pk=version_id).first()
    if version is None:
        return None
    match = qualification.start_qualification(version)
    return match.pk if match else None
