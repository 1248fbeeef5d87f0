"""Production settings and the production web server: `check --deploy` has nothing to say, and
gunicorn with deploy/gunicorn.conf.py serves the site with its limits and security headers."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO
from tests.security.servers import gunicorn as serve
from tests.security.servers import prepare_site, production_env


def test_check_deploy_has_no_warning(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=REPO,
        env=production_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "System check identified no issues" in out.stdout


def test_production_settings_values(tmp_path: Path) -> None:
    code = (
        "import meeple.settings as s; print(s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS, "
        "s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_PROXY_SSL_HEADER)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO,
        env=production_env(tmp_path, SECURE_PROXY_SSL_HEADER="X-Forwarded-Proto"),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.stdout.split() == [
        "True",
        "31536000",
        "True",
        "True",
        "('HTTP_X_FORWARDED_PROTO',",
        "'https')",
    ], out.stderr


@pytest.fixture(scope="module")
def gunicorn(tmp_path_factory: Any) -> Iterator[str]:
    tmp = tmp_path_factory.mktemp("gunicorn")
    # Behind a TLS proxy in production; here plain HTTP on loopback, the proxy header says https.
    env = production_env(tmp, SECURE_PROXY_SSL_HEADER="X-Forwarded-Proto")
    prepare_site(env)
    with serve(env, tmp / "gunicorn.log") as base:
        yield base


def _get(url: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers={"Host": "127.0.0.1", **headers})
    try:
        with urllib.request.urlopen(request, timeout=20) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read()


def test_gunicorn_serves_with_security_headers(gunicorn: str) -> None:
    status, headers, _ = _get(gunicorn + "/api/docs/", **{"X-Forwarded-Proto": "https"})
    assert status == 200
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    assert headers["Strict-Transport-Security"].startswith("max-age=31536000")
    assert headers["X-Frame-Options"] == "DENY"
    # Plain HTTP (no proxy header) is sent to https, but for the health probe of a load
    # balancer or orchestrator, which speaks plain HTTP inside the network.
    assert _get(gunicorn + "/healthz")[0] == 200
    plain = urllib.request.Request(gunicorn + "/games/", headers={"Host": "127.0.0.1"})

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: Any, **kwargs: Any) -> None:
            return None

    try:
        urllib.request.build_opener(NoRedirect).open(plain, timeout=20)
        pytest.fail("expected a redirect to https")
    except urllib.error.HTTPError as e:
        assert e.code == 301 and e.headers["Location"].startswith("https://")


def test_gunicorn_refuses_long_request_lines(gunicorn: str) -> None:
    status, _, _ = _get(gunicorn + "/healthz?" + "x" * 5000, **{"X-Forwarded-Proto": "https"})
    assert status == 414  # URI too long: gunicorn's limit_request_line, before Django


def test_oversized_body_refused_without_reading_it(gunicorn: str) -> None:
    """Declares 400 MB, sends none of it: the answer comes at once, nothing waited for."""
    host, port = gunicorn.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=20) as s:
        s.sendall(
            b"POST /api/bots/ HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-Proto: https\r\n"
            b"Content-Type: application/json\r\nContent-Length: 419430400\r\n\r\n{"
        )
        started = time.monotonic()
        chunks = []
        while chunk := s.recv(65536):
            chunks.append(chunk)
        reply = b"".join(chunks).decode("latin-1")
    assert reply.startswith("HTTP/1.1 400"), reply[:200]
    assert "requests are limited to" in reply
    assert time.monotonic() - started < 15  # not the 30 s worker timeout
