"""Marking a match ``running`` when a worker picks up its ``arena.run_match`` task.

The referee's task knows nothing of Django; this hook, loaded in Django-aware workers
(``celery -A meeple worker``), sees the spec's ``match_id`` as the task starts.
"""

from __future__ import annotations

from typing import Any

from celery.signals import task_prerun


@task_prerun.connect
def _match_started(sender: Any = None, args: Any = None, **_: Any) -> None:
    if getattr(sender, "name", "") != "arena.run_match" or not args:
        return
    spec = args[0] if isinstance(args[0], dict) else {}
    match_id = spec.get("match_id")
    if match_id and str(match_id).isdigit():
        from matches.services import mark_running

        mark_running(int(match_id))
