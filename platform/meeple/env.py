"""Reading settings from the environment, with the embedded defaults documented in README."""

from __future__ import annotations

import os
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_DATA_DIR = REPO_ROOT / "data"
INSECURE_SECRET_KEY = "django-insecure-meeple-arena-development-key-do-not-use-in-production"

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, got {raw!r}")


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def data_dir() -> Path:
    path = Path(os.environ.get("ARENA_DATA_DIR", DEFAULT_DATA_DIR))
    path.mkdir(parents=True, exist_ok=True)
    return path


def database_url() -> str:
    return os.environ.get("DATABASE_URL") or f"sqlite:///{data_dir() / 'arena.sqlite3'}"


def sandbox_choice() -> str:
    value = os.environ.get("ARENA_SANDBOX", "auto").strip().lower() or "auto"
    if value not in {"auto", "docker", "process"}:
        raise ImproperlyConfigured(f"ARENA_SANDBOX must be docker, process or auto, got {value!r}")
    return value


def secret_key(debug: bool) -> str:
    key = os.environ.get("SECRET_KEY", "")
    if key and key != INSECURE_SECRET_KEY:
        return key
    if not debug:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set: production settings (DEBUG=false) refuse the built-in "
            "development key. Set SECRET_KEY to a long random string, e.g. "
            "python -c 'import secrets; print(secrets.token_urlsafe(50))'"
        )
    return INSECURE_SECRET_KEY
