"""The settings' embedded defaults and their environment overrides, read in a fresh process
each time (Django reads settings once per process)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO, platform_env

PROBE = """
import json, django
django.setup()
from django.conf import settings
from meeple.celery import app
db = settings.DATABASES["default"]
print(json.dumps({
    "engine": db["ENGINE"], "name": str(db["NAME"]), "debug": settings.DEBUG,
    "eager": settings.CELERY_TASK_ALWAYS_EAGER, "broker": settings.CELERY_BROKER_URL,
    "sandbox": settings.ARENA_SANDBOX, "hosts": settings.ALLOWED_HOSTS,
    "secret": settings.SECRET_KEY,
    # what the Celery app the site sends with really does (not only what settings say)
    "app_eager": app.conf.task_always_eager, "app_broker": app.conf.broker_url,
}))
"""

CLEAN = (
    "DATABASE_URL",
    "CELERY_BROKER_URL",
    "CELERY_RESULT_BACKEND",
    "ARENA_SANDBOX",
    "SECRET_KEY",
    "DEBUG",
    "ALLOWED_HOSTS",
    "ARENA_DATA_DIR",
)


def probe(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    base = platform_env(DJANGO_SETTINGS_MODULE="meeple.settings", ARENA_DATA_DIR=str(tmp_path))
    for name in CLEAN:
        if name != "ARENA_DATA_DIR":
            base.pop(name, None)
    base.update(env)
    return subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=REPO,
        env=base,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_defaults_need_no_service(tmp_path: Path) -> None:
    out = probe(tmp_path)
    assert out.returncode == 0, out.stderr
    s = json.loads(out.stdout)
    assert s["engine"] == "django.db.backends.sqlite3"
    assert s["name"] == str(tmp_path / "arena.sqlite3")
    assert s["debug"] is True
    # No broker service: a folder on this machine carries the tasks to the demo's worker.
    assert s["eager"] is False and s["broker"] == "filesystem://localhost/"
    # ... and the app sends there: no web request or command runs a task in its own process
    assert s["app_eager"] is False and s["app_broker"] == "filesystem://localhost/"
    assert s["sandbox"] == "auto"
    assert "127.0.0.1" in s["hosts"]


def test_environment_overrides(tmp_path: Path) -> None:
    out = probe(
        tmp_path,
        DATABASE_URL="postgres://u:p@db.example:5432/arena",
        CELERY_BROKER_URL="redis://broker:6379/0",
        ARENA_SANDBOX="docker",
        DEBUG="false",
        SECRET_KEY="s" * 50,
        ALLOWED_HOSTS="arena.example, www.arena.example",
    )
    assert out.returncode == 0, out.stderr
    s = json.loads(out.stdout)
    assert s["engine"] == "django.db.backends.postgresql"
    assert s["name"] == "arena"
    assert s["eager"] is False and s["broker"] == "redis://broker:6379/0"
    assert s["app_eager"] is False and s["app_broker"] == "redis://broker:6379/0"
    assert s["sandbox"] == "docker"
    assert s["debug"] is False
    assert s["hosts"] == ["arena.example", "www.arena.example"]


def test_production_refuses_default_secret_key(tmp_path: Path) -> None:
    out = probe(tmp_path, DEBUG="false")
    assert out.returncode != 0
    assert "SECRET_KEY is not set" in out.stderr
    assert "Traceback" in out.stderr  # Django's own ImproperlyConfigured, raised at start


def test_bad_values_are_named(tmp_path: Path) -> None:
    out = probe(tmp_path, ARENA_SANDBOX="chroot")
    assert (
        out.returncode != 0 and "ARENA_SANDBOX must be one of auto, docker, process" in out.stderr
    )
    out = probe(tmp_path, DEBUG="maybe")
    assert out.returncode != 0 and "DEBUG must be true or false" in out.stderr


def test_stdlib_platform_module_is_not_shadowed() -> None:
    env = platform_env()
    code = "import platform, uuid; print(platform.python_version()); uuid.uuid4()"
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True, timeout=30
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == ".".join(map(str, sys.version_info[:3]))
