"""How a worker gets an uploaded version's code: read through Django's storage API (the
filesystem by default, S3-compatible object storage when configured), so that a worker needs
the database and the storage, never the web host's disk. ``arena.codestore`` verifies the hash
and caches the file by it."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import BinaryIO

from django.core.files import File

from bots.models import BotVersion

#: Bytes read at a time when a stored build is hashed.
CHUNK = 1 << 20


def fetch_version_code(version_id: int) -> tuple[bytes, str]:
    version = BotVersion.objects.only("code").get(pk=version_id)
    if not version.code:
        raise FileNotFoundError(f"version {version_id} has no uploaded code")
    with version.code.open("rb") as fh:
        data = fh.read()
    return data, Path(version.code.name).suffix.lower()


def store_artifact(version: BotVersion, artifact: BinaryIO) -> None:
    """Keep a version's build (a file, read from its start in chunks, never whole) through the
    storage API, by its SHA-256 (saved with the row)."""
    digest = hashlib.sha256()
    artifact.seek(0)
    for chunk in iter(lambda: artifact.read(CHUNK), b""):
        digest.update(chunk)
    artifact.seek(0)
    version.artifact_sha256 = digest.hexdigest()
    version.artifact.save("built.zip", File(artifact), save=False)
    version.save(update_fields=["artifact", "artifact_sha256"])


def artifact_digest(version_id: int) -> str:
    """The SHA-256 of a version's build, "" when it has none (an interpreted language's
    version, a built-in): one indexed read."""
    row = BotVersion.objects.filter(pk=version_id).values_list("artifact_sha256", flat=True)
    return row.first() or ""


def fetch_artifact(version_id: int) -> bytes:
    """A version's build, through the storage API (its caller verifies the hash)."""
    version = BotVersion.objects.only("artifact").get(pk=version_id)
    if not version.artifact:
        raise FileNotFoundError(f"version {version_id} has no build")
    with version.artifact.open("rb") as fh:
        return fh.read()
