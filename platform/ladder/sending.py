"""How the ladder sends its matches: through the normal path (broker, worker, sandbox) once
the transaction that made them commits, so that no web request plays one."""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from matches.models import Match
from matches.services import dispatch_match

#: The qualification of one checked upload (``ladder.tasks``), sent by name.
QUALIFY_TASK = "ladder.qualify"


def send_on_commit(match: Match) -> None:
    """Send ``match`` to the workers once the transaction that made it commits."""
    transaction.on_commit(lambda: dispatch_match(match))


def local_worker() -> bool:
    """True when matches are played on this machine with this configuration (the embedded
    broker, or inline): then this process can tell whether a sandbox would refuse."""
    return bool(settings.CELERY_TASK_ALWAYS_EAGER or getattr(settings, "EMBEDDED_BROKER", False))
