"""The client's address is trusted only from the configured number of proxies (0 by default:
the socket's peer), for the API throttles, the log-in lockout and the logs alike; and the
throttles count every hit, also when two server processes count at once.

The server tests run the deployment's gunicorn with two worker processes and Redis as the
cache, as production does (deploy/SECURITY.md, "Client addresses")."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from django.test import RequestFactory
from foundation.client_address import (
    ClientAddressFilter,
    client_address,
    client_ip,
    counted_address,
)

from tests.conftest import REPO
from tests.security.servers import gunicorn, http, prepare_site, production_env

# Exact counts against rates of a day, never split across two windows (conftest.one_window).
pytestmark = pytest.mark.usefixtures("one_window")

# -- the rule, unit by unit


@pytest.mark.parametrize(
    ("proxies", "forwarded", "expected"),
    [
        (0, None, "192.0.2.1"),
        (0, "203.0.113.9", "192.0.2.1"),  # nobody trusted: the header is the client's claim
        (0, "203.0.113.9, 198.51.100.2", "192.0.2.1"),
        (1, None, "192.0.2.1"),  # no header at all: the peer
        (1, "203.0.113.9", "203.0.113.9"),
        (1, "6.6.6.6, 203.0.113.9", "203.0.113.9"),  # what the client wrote is left of it
        (1, "6.6.6.6,203.0.113.9 ", "203.0.113.9"),
        (2, "6.6.6.6, 203.0.113.9, 10.0.0.5", "203.0.113.9"),
        (2, "203.0.113.9", "203.0.113.9"),  # fewer entries than proxies: the outermost one
        (1, "not-an-address", "192.0.2.1"),  # a proxy writing junk: count by the peer
        (1, "[2001:db8::1]:443", "2001:db8::1"),
        (1, "203.0.113.9:5555", "203.0.113.9"),
    ],
)
def test_client_address_trusts_only_the_configured_proxies(
    settings: Any, proxies: int, forwarded: str | None, expected: str
) -> None:
    settings.NUM_PROXIES = proxies
    headers = {} if forwarded is None else {"HTTP_X_FORWARDED_FOR": forwarded}
    request = RequestFactory().get("/", REMOTE_ADDR="192.0.2.1", **headers)
    assert client_address(request) == expected
    assert client_ip(request) == expected


@pytest.mark.parametrize(
    ("peer", "counted"),
    [
        ("192.0.2.1", "192.0.2.1"),
        ("2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"),  # any address of one /64: one count
        ("2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"),
        ("2001:db8:1:3::1", "2001:db8:1:3::/64"),
        ("::ffff:192.0.2.9", "192.0.2.9"),  # an IPv4 client seen through an IPv6 socket
        ("", ""),
    ],
)
def test_limits_count_an_ipv6_client_by_its_network(settings: Any, peer: str, counted: str) -> None:
    settings.NUM_PROXIES = 0
    assert counted_address(RequestFactory().get("/", REMOTE_ADDR=peer)) == counted


def test_client_ip_is_none_for_what_is_not_an_address(settings: Any) -> None:
    settings.NUM_PROXIES = 0
    assert client_ip(RequestFactory().get("/", REMOTE_ADDR="")) is None


def test_log_records_about_a_request_name_the_trusted_client(settings: Any) -> None:
    settings.NUM_PROXIES = 0
    request = RequestFactory().get("/", REMOTE_ADDR="192.0.2.7", HTTP_X_FORWARDED_FOR="6.6.6.6")
    record = logging.LogRecord("django.request", logging.WARNING, "", 0, "x", (), None)
    record.request = request
    assert ClientAddressFilter().filter(record) and record.client == "192.0.2.7"
    bare = logging.LogRecord("x", logging.INFO, "", 0, "x", (), None)
    assert ClientAddressFilter().filter(bare) and bare.client == "-"


# -- a production server: gunicorn, two workers, Redis


@pytest.fixture(scope="module")
def site(tmp_path_factory: Any) -> Iterator[Path]:
    """A migrated production site with one user, ``alice``; servers start on it per test."""
    tmp = tmp_path_factory.mktemp("site")
    env = production_env(tmp, SECURE_PROXY_SSL_HEADER="X-Forwarded-Proto")
    prepare_site(env)
    subprocess.run(
        [
            sys.executable,
            "manage.py",
            "shell",
            "-c",
            "from django.contrib.auth.models import User;"
            "User.objects.create_user('alice', password='pw-alice-123')",
        ],
        cwd=REPO,
        env=env,
        check=True,
        timeout=120,
    )
    yield tmp


@pytest.fixture
def serve(site: Path, redis_url: str, tmp_path: Path) -> Any:
    """Start gunicorn on the site with Redis as the cache (emptied first) and ``env``."""
    import redis

    def start(**env: str) -> Any:
        redis.Redis.from_url(redis_url).flushdb()
        full = production_env(
            site, SECURE_PROXY_SSL_HEADER="X-Forwarded-Proto", CACHE_URL=redis_url, **env
        )
        full["DATABASE_URL"] = f"sqlite:///{site / 'db.sqlite3'}"
        return gunicorn(full, tmp_path / "gunicorn.log", workers=2)

    return start


def _statuses(base: str, n: int, forwarded: list[str]) -> list[int]:
    return [
        http(base + "/api/games/", **{"X-Forwarded-For": forwarded[i % len(forwarded)]})[0]
        for i in range(n)
    ]


@pytest.mark.redis
def test_forged_forwarded_for_does_not_pass_the_anonymous_limit(serve: Any) -> None:
    with serve(THROTTLE_ANON="5/day") as base:
        forged = [f"198.51.100.{i}" for i in range(1, 40)]
        statuses = _statuses(base, 12, forged)
    assert statuses == [200] * 5 + [429] * 7


@pytest.mark.redis
def test_behind_one_proxy_the_proxys_entry_counts(serve: Any) -> None:
    with serve(THROTTLE_ANON="4/day", NUM_PROXIES="1") as base:
        # The client forges the left part; the proxy's entry (the last) stays the same.
        same_client = [f"6.6.6.{i}, 203.0.113.5" for i in range(1, 40)]
        assert _statuses(base, 6, same_client) == [200] * 4 + [429] * 2
        # Another client behind the same proxy has a count of its own.
        assert _statuses(base, 1, ["203.0.113.6"]) == [200]


@pytest.mark.redis
def test_concurrent_requests_are_each_counted(serve: Any) -> None:
    """Two server processes, 16 clients at once: exactly the limit gets through (a
    read-modify-write counter loses hits and lets more through)."""
    with serve(THROTTLE_ANON="100/day") as base:
        http(base + "/api/games/")  # warm both workers' first request
        with ThreadPoolExecutor(16) as pool:
            statuses = list(pool.map(lambda _: http(base + "/api/games/")[0], range(150)))
    assert statuses.count(200) == 99, statuses.count(200)
    assert statuses.count(429) == 51


@pytest.mark.redis
def test_forged_forwarded_for_neither_escapes_nor_lifts_a_lockout(serve: Any) -> None:
    def token(password: str, forged: str) -> int:
        body = json.dumps({"username": "alice", "password": password}).encode()
        return http(
            base + "/api/auth/token/",
            data=body,
            **{"Content-Type": "application/json", "X-Forwarded-For": forged},
        )[0]

    with serve(AXES_FAILURE_LIMIT="3", THROTTLE_LOGIN="100/min") as base:
        # The third failure locks (alice, this address) out, whatever each header said.
        assert [token("wrong", f"198.51.100.{i}") for i in range(3)] == [400, 400, 429]
        # A forged header does not lift it, not even with the right password.
        assert token("pw-alice-123", "198.51.100.77") == 429
        assert token("pw-alice-123", "") == 429
