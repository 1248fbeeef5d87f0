"""Bots in other languages on the production path: PostgreSQL, Redis, a real Celery worker and
beat, and Docker. Each language's starter bot (arena/starters/) is uploaded once through the
web form and once through the API; with no organiser action each is built in a Docker build
container by the worker's check, qualifies, and plays rated ladder matches, running the build
its worker fetched and verified. Marked ``docker`` and ``redis``."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from sandbox.languages import LANGUAGES as ALL_LANGUAGES
from sandbox.languages import get_language
from tests.conftest import REPO, WorkerProcess, celery_on

# ``beat``: the Python ladder test's beat (ladder.tick every second), on this module's site.
from tests.workers.test_ladder_worker import _database_url, beat, signed_up, wait_for  # noqa: F401

pytestmark = [pytest.mark.redis, pytest.mark.docker, pytest.mark.django_db(transaction=True)]

#: Every language sandbox/languages/ declares (a seventh is played here once it is added).
LANGUAGES = tuple(ALL_LANGUAGES)
ENV = {
    "ARENA_SANDBOX": "docker",
    "ARENA_LADDER_BUDGET": "3",
    "ARENA_LADDER_PLACEMENT": "1",
    "ARENA_LADDER_SUSPEND_AFTER": "3",
}


def _starter(key: str) -> tuple[str, bytes]:
    source = get_language(key).source
    return source, (REPO / "arena" / "starters" / key / source).read_bytes()


def _docker_images_or_fail() -> None:
    from sandbox.docker_engine import check_image, connect

    client = connect(10.0)
    for key in LANGUAGES:
        lang = get_language(key)
        for image in {lang.image, lang.build_image}:
            check_image(client, image)  # SandboxError: run deploy/build-runtime-image.sh


@pytest.fixture
def site(settings: Any, tmp_path: Any) -> dict[str, str]:
    _docker_images_or_fail()
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.ARENA_SANDBOX = "docker"
    for key in ("ARENA_LADDER_BUDGET", "ARENA_LADDER_PLACEMENT", "ARENA_LADDER_SUSPEND_AFTER"):
        setattr(settings, key, int(ENV[key]))
    settings.CELERY_TASK_ALWAYS_EAGER = False
    return {"DATABASE_URL": _database_url(), "ARENA_DATA_DIR": str(tmp_path), **ENV}


@pytest.fixture
def worker(request: pytest.FixtureRequest, site: dict[str, str]) -> WorkerProcess:
    request.node.worker_env = site
    return request.getfixturevalue("celery_worker_process")


@pytest.mark.usefixtures("beat")
def test_every_language_is_built_qualifies_and_plays_the_ladder(
    redis_url: str, worker: WorkerProcess
) -> None:
    from bots.models import Bot, BotVersion
    from bots.services import ensure_builtin_bots
    from catalog.models import Game

    trnd = Game.objects.get(slug="trnd")
    ensure_builtin_bots(trnd)
    with celery_on(redis_url):
        web = Client()
        api = signed_up(web, "polyglot")
        bots: dict[str, int] = {}
        for key in LANGUAGES:
            name, data = _starter(key)
            resp = web.post(
                "/bots/new/",
                {"game": trnd.pk, "name": f"web-{key}", "code": SimpleUploadedFile(name, data)},
            )
            assert resp.status_code == 302, resp.content[:800]
            bots[f"web-{key}"] = Bot.objects.get(name=f"web-{key}").pk
            made = api.post("/api/bots/", {"game": "trnd", "name": f"api-{key}"}).json()
            # Different bytes from the web's upload (the same bytes are refused as a duplicate).
            up = api.post(
                f"/api/bots/{made['id']}/versions/",
                {"code": SimpleUploadedFile(name, data + b"\n"), "language": key},
            )
            assert up.status_code == 201, up.content
            assert up.json()["language"] == key
            bots[f"api-{key}"] = made["id"]

        def all_rated() -> Any:
            board = Client().get("/api/games/trnd/ladder/").json()["entries"]
            rows = {e["bot"]: e for e in board}
            played = {n: rows.get(pk, {}).get("ladder_matches", 0) for n, pk in bots.items()}
            return all(v >= 1 for v in played.values()) and played

        wait_for("every language's ladder matches", all_rated, worker, limit=420)
        for label, pk in bots.items():
            version = BotVersion.objects.get(bot_id=pk)
            assert version.status == "active", (label, version.status_reason)
            key = label.split("-", 1)[1]
            assert version.language == key
            assert bool(version.artifact_sha256) == get_language(key).compiled, label
            _assert_rated_clean_ladder_match(label, version)


def _assert_rated_clean_ladder_match(label: str, version: Any) -> None:
    """The ladder's counter counts faulted seats too: ask for a finished, rated ladder match in
    which this very version played without a fault and its rating moved (a RatingChange)."""
    from matches.models import MatchSeat
    from ratings.models import RatingChange

    seats = MatchSeat.objects.filter(
        bot_version=version, match__kind="ladder", match__status="finished", match__rated=True
    )
    assert seats.exists(), f"{label}: no finished rated ladder match"
    faults = [(s.match_id, s.status) for s in seats if s.status != "ok"]
    assert not faults, f"{label}: faults in ladder matches {faults}"
    rated = RatingChange.objects.filter(
        bot_id=version.bot_id, match_id__in=seats.values("match_id")
    )
    assert rated.exists(), f"{label}: its ladder matches moved no rating"
