"""Uploads' checks and builds have their own queue and workers (deploy/SCALING.md, "Builds"): a
worker of the default queue (as deploy/ runs the match workers) never takes a check, so a flood
of uploads never delays a match; a ``-Q builds`` worker checks them. Real worker processes
(prefork, as in production), Redis and the same PostgreSQL database."""

from __future__ import annotations

import subprocess
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import celery_on
from tests.workers.test_people_queue import _wait, start_worker

__all__ = ["start_worker"]

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True)]

#: Uploads sent to be checked before the match: on one queue, a one-process worker would check
#: them all before it played the match.
FLOOD = 4

BOT = b"""import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        print(json.dumps({"type": "ready"}), flush=True)
    elif msg["type"] == "act":
        print(json.dumps({"action_index": 0, "turn": msg["turn"]}), flush=True)
    else:
        break
"""


def test_a_flood_of_checks_waits_for_a_builds_worker_and_never_delays_a_match(
    start_worker: Callable[..., subprocess.Popen[bytes]],
    redis_url: str,
    settings: Any,
    tmp_path: Path,
) -> None:
    import redis
    from bots.models import BotVersion, VersionStatus
    from bots.services import create_bot, ensure_builtin_bots, upload_version
    from catalog.services import sync_games
    from django.contrib.auth import get_user_model
    from django.db.models import Q
    from matches.models import MatchStatus
    from matches.services import create_match, dispatch_match

    settings.MEDIA_ROOT = tmp_path / "media"  # where the workers (ARENA_DATA_DIR) read uploads
    game = {g.slug: g for g in sync_games()}["tri-area"]
    builtins = [v for b in ensure_builtin_bots(game) if (v := b.latest_version())][:2]
    owner = get_user_model().objects.create_user("uploader", password="pw-uploader-1")
    suffix = uuid.uuid4().hex[:6]
    match_worker = f"matches-{suffix}"
    # The production layout's match worker: a plain `celery -A meeple worker`, one process.
    start_worker(match_worker)

    with celery_on(redis_url):
        uploads = [
            upload_version(
                bot=create_bot(owner=owner, game=game, name=f"flood-{i}"),
                filename="main.py",
                data=BOT + f"# upload {i}\n".encode(),
            )
            for i in range(FLOOD)
        ]  # each sent to be checked as it commits, before the match
        match = dispatch_match(create_match(game=game, versions=builtins, seed=7))

        def played() -> bool:
            match.refresh_from_db()
            return match.status in (MatchStatus.FINISHED, MatchStatus.ERROR)

        _wait("the match was not played", played, tmp_path)
        assert match.status == MatchStatus.FINISHED, match.error
        assert match.worker.startswith(match_worker), match.worker
        # The match worker played it and took no check: every upload is still waiting, its
        # message in the builds queue (before, the one process checked all four first).
        waiting = BotVersion.objects.filter(pk__in=[v.pk for v in uploads])
        assert set(waiting.values_list("status", flat=True)) == {VersionStatus.CHECKING}
        assert not waiting.filter(check_started_at__isnull=False).exists()
        assert redis.Redis.from_url(redis_url).llen(settings.BUILDS_QUEUE) == FLOOD

        # A builds worker checks them.
        start_worker(f"builds-{suffix}", "-Q", settings.BUILDS_QUEUE)

        def checked() -> bool:
            # Ended and counted: the status is written by the check, its duration just after
            # (``bots.build_quota.run_counted``); a read between the two saw 0 s (CI, 1 of 2,944).
            return not waiting.filter(
                Q(status=VersionStatus.CHECKING) | Q(check_seconds=0)
            ).exists()

        _wait("the uploads were not checked", checked, tmp_path)
    for version in waiting:
        assert version.status != VersionStatus.FAILED, version.status_reason
        assert version.check_started_at is not None and version.check_seconds > 0
