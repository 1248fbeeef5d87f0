"""Rate limits and log-in lockout hold across processes: counts made by another process (a
second app server, here a subprocess with its own Redis client) stop requests in this one.
A per-process counter (locmem) would let every request below through."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.conftest import REPO
from tests.security.badfiles import GOOD_MAIN
from tests.security.conftest import World

# Exact counts against rates of a day, never split across two windows (conftest.one_window).
pytestmark = pytest.mark.usefixtures("one_window")

#: Run in another process: count ``n`` requests of one throttle for one client there.
OTHER_PROCESS = """
import json, os, sys
sys.path[:0] = [{repo!r}, {platform!r}]
os.environ["DJANGO_SETTINGS_MODULE"] = "meeple.settings"
import django
django.setup()
from django.test import RequestFactory
from foundation import throttles

args = json.loads(sys.argv[1])
request = RequestFactory().post("/", REMOTE_ADDR=args["ip"])
if args.get("user"):
    request.user = type("U", (), {{"pk": args["user"], "is_authenticated": True}})()
else:
    from django.contrib.auth.models import AnonymousUser
    request.user = AnonymousUser()
throttle = getattr(throttles, args["cls"])
print(json.dumps([throttle().allow_request(request, None) for _ in range(args["n"])]))
"""


@pytest.fixture
def redis_cache(settings: Any, redis_url: str) -> str:
    """Django's own Redis cache, as production configures it, under a prefix of this test."""
    prefix = f"arena-test-{uuid.uuid4().hex[:8]}"
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": redis_url,
            "KEY_PREFIX": prefix,
        }
    }
    return prefix


def other_process(redis_url: str, prefix: str, rates: dict[str, str], **args: Any) -> list[bool]:
    env = {
        **os.environ,
        "CACHE_URL": redis_url,
        **{f"THROTTLE_{k.upper()}": v for k, v in rates.items()},
    }
    # Same key prefix as this process: the settings module reads it from CACHES only, so patch.
    code = OTHER_PROCESS.format(repo=str(REPO), platform=str(REPO / "platform")).replace(
        "django.setup()",
        f"from django.conf import settings\nsettings.CACHES['default']['KEY_PREFIX'] = {prefix!r}"
        "\ndjango.setup()",
    )
    out = subprocess.run(
        [sys.executable, "-c", code, json.dumps(args)],
        env=env,
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def _rates(settings: Any, **rates: str) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], **rates},
    }


def test_cache_is_shared_never_per_process(settings: Any) -> None:
    backend = settings.CACHES["default"]["BACKEND"]
    assert backend in {
        "django.core.cache.backends.redis.RedisCache",
        "django.core.cache.backends.db.DatabaseCache",
    }


def test_redis_url_selects_djangos_redis_cache(tmp_path: Any) -> None:
    code = (
        "import sys; sys.path[:0]=['.', 'platform'];"
        "import meeple.settings as s; print(s.CACHES['default']['BACKEND'])"
    )
    for var in ("CACHE_URL", "REDIS_URL"):
        env = {**os.environ, var: "redis://127.0.0.1:1/0", "ARENA_DATA_DIR": str(tmp_path)}
        env.pop("CACHE_URL" if var == "REDIS_URL" else "REDIS_URL", None)
        out = subprocess.run(
            [sys.executable, "-c", code], env=env, cwd=REPO, capture_output=True, text=True
        )
        assert out.stdout.strip() == "django.core.cache.backends.redis.RedisCache", out.stderr


@pytest.mark.redis
def test_login_counts_of_another_process_stop_web_and_api_login(
    world: World, settings: Any, redis_url: str, redis_cache: str
) -> None:
    _rates(settings, login="5/day")
    ip = "203.0.113.7"
    assert (
        other_process(redis_url, redis_cache, {"login": "5/day"}, cls="LoginThrottle", ip=ip, n=5)
        == [True] * 5
    )
    web = world.web("anonymous").post(
        "/accounts/login/", {"username": "alice", "password": "pw-alice-123"}, REMOTE_ADDR=ip
    )
    assert web.status_code == 429
    assert "Too many requests; try again in" in web.content.decode()
    api = world.api("anonymous").post(
        "/api/auth/token/", {"username": "alice", "password": "pw-alice-123"}, REMOTE_ADDR=ip
    )
    assert api.status_code == 429 and "throttled" in api.json()["detail"]
    # Another address is not affected.
    ok = world.api("anonymous").post(
        "/api/auth/token/",
        {"username": "alice", "password": "pw-alice-123"},
        REMOTE_ADDR="203.0.113.8",
    )
    assert ok.status_code == 200 and ok.json()["token"]


@pytest.mark.redis
def test_upload_counts_are_one_counter_for_api_page_and_processes(
    world: World, settings: Any, redis_url: str, redis_cache: str
) -> None:
    _rates(settings, uploads="3/day")
    owner = world.users["owner"].pk
    # One upload counted in another process, one through the API, one through the page...
    assert other_process(
        redis_url,
        redis_cache,
        {"uploads": "3/day"},
        cls="UploadThrottle",
        ip="1.2.3.4",
        user=owner,
        n=1,
    ) == [True]
    api = world.api("owner").post(
        f"/api/bots/{world.bot.pk}/versions/",
        {"code": SimpleUploadedFile("main.py", GOOD_MAIN + b"# 1\n")},
    )
    assert api.status_code == 201
    web = world.web("owner").post(
        f"/bots/{world.bot.pk}/upload/",
        {"code": SimpleUploadedFile("main.py", GOOD_MAIN + b"# 2\n")},
    )
    assert web.status_code == 302
    # ... and the fourth is refused on both doors, with nothing stored.
    versions = world.bot.versions.count()
    api = world.api("owner").post(
        f"/api/bots/{world.bot.pk}/versions/",
        {"code": SimpleUploadedFile("main.py", GOOD_MAIN + b"# 3\n")},
    )
    assert api.status_code == 429 and "throttled" in api.json()["detail"]
    web = world.web("owner").post(
        f"/bots/{world.bot.pk}/upload/",
        {"code": SimpleUploadedFile("main.py", GOOD_MAIN + b"# 4\n")},
    )
    assert web.status_code == 429 and "Too many requests" in web.content.decode()
    assert web["Retry-After"].isdigit()
    assert world.bot.versions.count() == versions
    # Another user still may.
    assert other_process(
        redis_url,
        redis_cache,
        {"uploads": "3/day"},
        cls="UploadThrottle",
        ip="1.2.3.4",
        user=owner + 999,
        n=1,
    ) == [True]


@pytest.mark.redis
def test_anonymous_api_rate_holds_across_processes(
    world: World, settings: Any, redis_url: str, redis_cache: str
) -> None:
    _rates(settings, anon="4/day")
    ip = "198.51.100.4"
    # AnonThrottle counts every request (GET too): the other process takes the whole quota.
    code_cls = "AnonThrottle"
    assert (
        other_process(redis_url, redis_cache, {"anon": "4/day"}, cls=code_cls, ip=ip, n=4)
        == [True] * 4
    )
    response = world.api("anonymous").get("/api/games/", REMOTE_ADDR=ip)
    assert response.status_code == 429
    assert world.api("anonymous").get("/api/games/", REMOTE_ADDR="198.51.100.5").status_code == 200


def test_signup_is_throttled_per_address(world: World, settings: Any) -> None:
    _rates(settings, signup="2/day")
    ip = "192.0.2.77"
    client = world.web("anonymous")
    for i in range(2):
        r = client.post(
            "/accounts/signup/",
            {
                "username": f"new{i}",
                "password1": "a-long-pass-phrase-9",
                "password2": "a-long-pass-phrase-9",
            },
            REMOTE_ADDR=ip,
        )
        assert r.status_code == 302
        client.post("/accounts/logout/")
    r = client.post(
        "/accounts/signup/",
        {
            "username": "new9",
            "password1": "a-long-pass-phrase-9",
            "password2": "a-long-pass-phrase-9",
        },
        REMOTE_ADDR=ip,
    )
    assert r.status_code == 429 and "Too many requests" in r.content.decode()
    from django.contrib.auth import get_user_model

    assert not get_user_model().objects.filter(username="new9").exists()


def test_wrong_passwords_lock_web_and_api_login(world: World, settings: Any) -> None:
    settings.AXES_FAILURE_LIMIT = 3
    ip = "192.0.2.10"
    web = world.web("anonymous")
    statuses = [
        web.post(
            "/accounts/login/", {"username": "alice", "password": "wrong"}, REMOTE_ADDR=ip
        ).status_code
        for _ in range(3)
    ]
    assert statuses == [200, 200, 429]
    # Locked now: the right password does not help, on the page nor through the API.
    locked = web.post(
        "/accounts/login/", {"username": "alice", "password": "pw-alice-123"}, REMOTE_ADDR=ip
    )
    assert locked.status_code == 429
    assert "Too many failed log-ins" in locked.content.decode()
    assert "_auth_user_id" not in web.session
    api = world.api("anonymous").post(
        "/api/auth/token/", {"username": "alice", "password": "pw-alice-123"}, REMOTE_ADDR=ip
    )
    assert api.status_code == 429 and "Too many failed log-ins" in api.json()["detail"]
    # The same user from another address is not locked (no denial of service by user name).
    other = world.api("anonymous").post(
        "/api/auth/token/",
        {"username": "alice", "password": "pw-alice-123"},
        REMOTE_ADDR="192.0.2.11",
    )
    assert other.status_code == 200


def test_wrong_passwords_through_the_api_lock_too(world: World, settings: Any) -> None:
    settings.AXES_FAILURE_LIMIT = 2
    ip = "192.0.2.20"
    api = world.api("anonymous")
    first = api.post("/api/auth/token/", {"username": "bob", "password": "x"}, REMOTE_ADDR=ip)
    assert first.status_code == 400
    second = api.post("/api/auth/token/", {"username": "bob", "password": "x"}, REMOTE_ADDR=ip)
    assert second.status_code == 429 and "Too many failed log-ins" in second.json()["detail"]
    web = world.web("anonymous").post(
        "/accounts/login/", {"username": "bob", "password": "pw-bob-123"}, REMOTE_ADDR=ip
    )
    assert web.status_code == 429


def test_challenges_are_throttled_through_the_api_and_the_page_together(
    world: World, settings: Any
) -> None:
    """The documented ``challenge`` rate (``THROTTLE_CHALLENGE``) counts challenges sent from
    the bot page and through the API on one counter per user."""
    _rates(settings, challenge="2/day")
    settings.ARENA_CHALLENGES_PER_DAY = 100  # the daily allowance is not what is tested here
    target = world.builtin.bot
    page = world.web("owner").post(
        f"/bots/{target.pk}/challenge/", {"with": world.bot.pk}, REMOTE_ADDR="192.0.2.40"
    )
    assert page.status_code != 429
    api = world.api("owner")
    body = {"bot": world.bot.pk, "opponents": [target.pk, world.builtin2.bot.pk]}
    assert api.post("/api/challenges/", body, format="json").status_code != 429
    third = api.post("/api/challenges/", body, format="json")
    assert third.status_code == 429 and "throttled" in third.json()["detail"]
    again = world.web("owner").post(f"/bots/{target.pk}/challenge/", {"with": world.bot.pk})
    assert again.status_code == 429
    # Reading one's challenges is not sending one: never counted.
    assert api.get("/api/challenges/").status_code == 200


def test_rotating_ipv6_addresses_of_one_network_passes_no_limit(
    world: World, settings: Any
) -> None:
    """A client given an IPv6 /64 may send each request from another of its addresses: the
    anonymous limit counts the network (foundation.client_address.counted_address)."""
    _rates(settings, anon="3/day")
    api = world.api("anonymous")
    statuses = [
        api.get("/api/games/", REMOTE_ADDR=f"2001:db8:7:7::{i:x}").status_code for i in range(1, 6)
    ]
    assert statuses == [200, 200, 200, 429, 429]
    assert api.get("/api/games/", REMOTE_ADDR="2001:db8:7:8::1").status_code == 200


@pytest.mark.django_db(transaction=True)
def test_concurrent_hits_on_the_database_counter_are_each_counted(settings: Any) -> None:
    """Without Redis, each hit is one upsert on foundation.RateCount: eight threads with
    connections of their own hitting one counter let exactly the limit through."""
    from concurrent.futures import ThreadPoolExecutor

    from django.db import connection, connections
    from foundation import rate_counter

    if connection.vendor != "postgresql":
        pytest.skip("SQLite serialises writers itself; CI runs this on PostgreSQL")
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "c"}
    }

    def hit(_: int) -> bool:
        try:
            return rate_counter.take("test:concurrent", 30, 3600).allowed
        finally:
            connections.close_all()

    with ThreadPoolExecutor(8) as pool:
        allowed = list(pool.map(hit, range(60)))
    assert allowed.count(True) == 30


@pytest.mark.django_db
def test_expired_database_counters_are_swept_by_the_periodic_task() -> None:
    from datetime import timedelta

    from django.utils import timezone
    from django_celery_beat.models import PeriodicTask
    from foundation.models import RateCount
    from foundation.tasks import sweep_rate_counts

    now = timezone.now()
    RateCount.objects.create(key="old", hits=3, expires=now - timedelta(seconds=1))
    RateCount.objects.create(key="live", hits=3, expires=now + timedelta(hours=1))
    assert sweep_rate_counts() == 1
    assert list(RateCount.objects.values_list("key", flat=True)) == ["live"]
    assert PeriodicTask.objects.filter(task="foundation.sweep_rate_counts", enabled=True).exists()
