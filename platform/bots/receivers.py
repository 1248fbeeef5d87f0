"""The games' bot counters follow every bot created or deleted (admin, services, scripts)."""

from __future__ import annotations

from typing import Any

from catalog.services import count_bots
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from bots.models import Bot


@receiver(post_save, sender=Bot, dispatch_uid="bots.count_created")
def _created(sender: Any, instance: Bot, created: bool, raw: bool = False, **_: Any) -> None:
    if created and not raw:
        count_bots(instance.game_id, 1)


@receiver(post_delete, sender=Bot, dispatch_uid="bots.count_deleted")
def _deleted(sender: Any, instance: Bot, **_: Any) -> None:
    count_bots(instance.game_id, -1)
