"""Reading settings from the environment, with the embedded defaults documented in README."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from django.core.exceptions import ImproperlyConfigured

from arena.bot_code import sandbox_names

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


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or not raw.strip():
        return default
    if not raw.strip().isascii() or not raw.strip().isdigit():
        raise ImproperlyConfigured(f"{name} must be a whole number, got {raw!r}")
    return int(raw.strip())


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
    """``ARENA_SANDBOX``, one of the backends the sandbox's registry names (default auto)."""
    value = os.environ.get("ARENA_SANDBOX", "auto").strip().lower() or "auto"
    if value not in sandbox_names():
        raise ImproperlyConfigured(
            f"ARENA_SANDBOX must be one of {', '.join(sandbox_names())}, got {value!r}"
        )
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


def code_storage(environ: Mapping[str, str]) -> dict[str, Any]:
    """Django's default storage (uploaded bot code): the filesystem under MEDIA_ROOT, or
    S3-compatible object storage through django-storages when ``ARENA_S3_BUCKET`` is set
    (deploy/SCALING.md, "Bot code")."""
    bucket = environ.get("ARENA_S3_BUCKET", "")
    if not bucket:
        return {"BACKEND": "django.core.files.storage.FileSystemStorage"}
    return {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": bucket,
            # Empty: AWS itself; else MinIO, Ceph, Garage, R2... (http://minio:9000).
            "endpoint_url": environ.get("ARENA_S3_ENDPOINT_URL") or None,
            "region_name": environ.get("ARENA_S3_REGION") or None,
            # Empty: boto3's own chain (AWS_ACCESS_KEY_ID..., an instance role).
            "access_key": environ.get("ARENA_S3_ACCESS_KEY_ID") or None,
            "secret_key": environ.get("ARENA_S3_SECRET_ACCESS_KEY") or None,
            "location": environ.get("ARENA_S3_PREFIX", ""),  # a key prefix, if the bucket is shared
            # Uploads are private (no ACL, signed URLs) and never overwritten.
            "default_acl": None,
            "querystring_auth": True,
            "file_overwrite": False,
        },
    }
