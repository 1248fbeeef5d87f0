"""Bot code that travels: workers that share nothing with the web host but the database, the
broker and the storage (each its own data folder, media folder and code cache, one of them
named as another host) play uploaded bots fetched through Django's storage API, and share a
tournament's matches, each recorded once.

The S3 path runs against moto's S3 server, a test double of Amazon S3 (a real HTTP server on
127.0.0.1 speaking the S3 API, through django-storages and boto3 as in production); no real
object store runs here. The filesystem path stands for a folder every worker mounts."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arena.newbot import STARTER
from tests.conftest import free_port
from tests.resilience.arena_matches import wait_status
from tests.resilience.invariants import assert_ratings_serial, assert_recorded_once
from tests.resilience.waits import wait_for

pytestmark = [
    pytest.mark.worker,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(600),
]

BUCKET = "arena-test-code"


@pytest.fixture
def s3_double() -> Iterator[dict[str, str]]:
    """moto's S3 server (the test double) with an empty bucket; yields the worker's env."""
    import boto3
    from moto.server import ThreadedMotoServer

    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    env = {
        "ARENA_S3_BUCKET": BUCKET,
        "ARENA_S3_ENDPOINT_URL": f"http://127.0.0.1:{port}",
        "ARENA_S3_REGION": "us-east-1",
        "ARENA_S3_ACCESS_KEY_ID": "test-double",
        "ARENA_S3_SECRET_ACCESS_KEY": "test-double",
    }
    boto3.client(
        "s3",
        endpoint_url=env["ARENA_S3_ENDPOINT_URL"],
        region_name="us-east-1",
        aws_access_key_id="test-double",
        aws_secret_access_key="test-double",
    ).create_bucket(Bucket=BUCKET)
    try:
        yield env
    finally:
        server.stop()


def s3_keys(env: dict[str, str]) -> list[str]:
    import boto3

    client = boto3.client(
        "s3",
        endpoint_url=env["ARENA_S3_ENDPOINT_URL"],
        region_name="us-east-1",
        aws_access_key_id="test-double",
        aws_secret_access_key="test-double",
    )
    return [o["Key"] for o in client.list_objects_v2(Bucket=BUCKET).get("Contents", [])]


@pytest.mark.parametrize("storage", ["filesystem", "s3"])
def test_workers_without_shared_disk_share_a_tournament(
    storage: str,
    redis_server: Any,
    workers: Any,
    arena: Any,
    settings: Any,
    request: Any,
    tmp_path: Path,
) -> None:
    from competitions.tournaments.services import create_tournament, start_tournament
    from matches.models import Match
    from meeple.env import code_storage

    from tests.conftest import celery_on
    from tests.resilience.arena_matches import _configured

    env: dict[str, str] = {}
    if storage == "s3":
        env = request.getfixturevalue("s3_double")
        # The web host stores uploads in the bucket too (the same settings block as workers).
        settings.STORAGES = {**settings.STORAGES, "default": code_storage(env)}
        settings.MEDIA_ROOT = str(tmp_path / "web-media")
    redis = redis_server()
    homes = {name: tmp_path / f"media-{name}" for name in ("w1", "w2")}
    for folder in homes.values():
        folder.mkdir()
    media = {} if storage == "filesystem" else {"w1": str(homes["w1"]), "w2": str(homes["w2"])}
    w1 = workers(
        redis.url, name="w1", **env, **({"ARENA_MEDIA_ROOT": media["w1"]} if media else {})
    )
    w2 = workers(
        redis.url,
        name="w2",
        host="otherhost",
        **env,
        **({"ARENA_MEDIA_ROOT": media["w2"]} if media else {}),
    )

    starter = STARTER.read_bytes()
    slowish = starter.replace(b"import random\n", b"import random\nimport time\n").replace(
        b"    return random.randrange(len(legal_actions))",
        b"    time.sleep(0.02)\n    return random.randrange(len(legal_actions))",
    )
    assert slowish != starter
    uploads = [arena.upload("starter", starter), arena.upload("slowish", slowish)]
    if storage == "s3":
        keys = s3_keys(env)
        assert sorted(keys) == sorted(v.code.name for v in uploads), keys
        # Nothing reached the web host's disk: the bucket is the only copy.
        assert not Path(settings.MEDIA_ROOT).exists()

    tournament = create_tournament(
        organiser=arena.owner,
        game=arena.game,
        name="travel",
        entrants=[*uploads, *arena.builtins],
        games_per_pairing=2,
        seed=5,
    )
    _configured()
    with celery_on(redis.url):
        first_round = start_tournament(tournament)
    assert len(first_round) == 4  # a round robin of 4, two games a pairing: 3 rounds of 4

    # Each later round is scheduled by the worker that records the round's last match.
    def tournament_done() -> bool:
        tournament.refresh_from_db()
        return tournament.status == "finished"

    wait_for("the tournament to finish", tournament_done, logs=lambda: w1.logs() + w2.logs())
    ids = list(
        Match.objects.filter(competition_link__tournament=tournament).values_list("pk", flat=True)
    )
    assert len(ids) == 12
    wait_status(ids, {"finished", "error"}, w1, w2)

    played = list(Match.objects.filter(pk__in=ids))
    assert all(m.status == "finished" for m in played), [m.error for m in played]
    nodes = {m.worker.rsplit(":", 1)[0] for m in played}
    assert any(n.startswith("w1@") for n in nodes), nodes
    assert "w2@otherhost" in nodes, nodes  # both workers took some
    assert_recorded_once(ids)
    assert assert_ratings_serial(arena.game) == len(ids)

    # Each worker fetched the uploads into its own cache, verified by hash; in the S3 case its
    # own media folder stayed empty (nothing came from a shared disk).
    hashes = {hashlib.sha256(v.code.open("rb").read()).hexdigest() for v in uploads}
    assert hashes == {v.sha256 for v in uploads}
    for worker in (w1, w2):
        cached = {p.stem for p in (worker.log.parent / "cache").iterdir()}
        assert cached <= hashes and cached, (worker.name, cached)
    if storage == "s3":
        assert not any(any(folder.iterdir()) for folder in homes.values())
