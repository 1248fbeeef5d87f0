"""The email settings' embedded default (the console: no service needed) and their environment
overrides (SMTP once EMAIL_HOST is set), read in a fresh process each time."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO, platform_env

NAMES = ("EMAIL_BACKEND", "EMAIL_HOST", "EMAIL_PORT", "EMAIL_USE_TLS", "EMAIL_USE_SSL",
         "DEFAULT_FROM_EMAIL", "ARENA_SITE_URL", "ARENA_NOTIFICATIONS_KEPT")  # fmt: skip
PROBE = f"""
import json, django
django.setup()
from django.conf import settings
print(json.dumps({{k: getattr(settings, k) for k in {NAMES!r}}}))
"""


def probe(tmp_path: Path, **env: str) -> dict[str, object]:
    base = platform_env(DJANGO_SETTINGS_MODULE="meeple.settings", ARENA_DATA_DIR=str(tmp_path))
    for name in NAMES:
        base.pop(name, None)
    base.update(env)
    out = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=REPO, env=base, capture_output=True, text=True,
        timeout=60,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    return dict(json.loads(out.stdout))


def test_the_default_prints_emails_and_needs_no_server(tmp_path: Path) -> None:
    s = probe(tmp_path)
    assert s["EMAIL_BACKEND"] == "django.core.mail.backends.console.EmailBackend"
    assert s["ARENA_SITE_URL"] == "http://127.0.0.1:8000" and s["ARENA_NOTIFICATIONS_KEPT"] == 200


def test_smtp_by_configuration(tmp_path: Path) -> None:
    s = probe(
        tmp_path,
        EMAIL_HOST="smtp.example.org",
        EMAIL_PORT="465",
        EMAIL_USE_SSL="true",
        DEFAULT_FROM_EMAIL="Arena <arena@example.org>",
        ARENA_SITE_URL="https://arena.example.org/",
    )
    assert s["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert s["EMAIL_HOST"] == "smtp.example.org" and s["EMAIL_PORT"] == 465
    assert s["EMAIL_USE_SSL"] is True and s["EMAIL_USE_TLS"] is False  # never both
    assert s["DEFAULT_FROM_EMAIL"] == "Arena <arena@example.org>"
    assert s["ARENA_SITE_URL"] == "https://arena.example.org"
    assert probe(tmp_path, EMAIL_HOST="smtp.example.org")["EMAIL_USE_TLS"] is True
