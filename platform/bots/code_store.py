"""How a worker gets an uploaded version's code: read through Django's storage API (the
filesystem by default, S3-compatible object storage when configured), so that a worker needs
the database and the storage, never the web host's disk. ``arena.codestore`` verifies the hash
and caches the file by it."""

from __future__ import annotations

from pathlib import Path

from bots.models import BotVersion


def fetch_version_code(version_id: int) -> tuple[bytes, str]:
    version = BotVersion.objects.only("code").get(pk=version_id)
    if not version.code:
        raise FileNotFoundError(f"version {version_id} has no uploaded code")
    with version.code.open("rb") as fh:
        data = fh.read()
    return data, Path(version.code.name).suffix.lower()
