"""Bot code that travels: a worker turns ``version:ID`` into a local file by fetching the upload
from wherever the deployment keeps it, verifying its SHA-256, and caching it by that hash.

The arena knows no storage: whoever runs the worker registers a fetcher (the Django site does, in
``bots.apps``: Django's storage API, the filesystem or S3-compatible object storage). A worker
therefore needs no shared disk with the web host, only the fetcher's backend.
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
from collections.abc import Callable
from pathlib import Path, PurePosixPath

from arena.botspec import StoredCode
from arena.contract import SeatSpec
from sandbox.languages import LANGUAGES

log = logging.getLogger(__name__)

#: ``fetch(version_id) -> (file bytes, suffix such as ".py" or ".zip")``.
Fetcher = Callable[[int], tuple[bytes, str]]

#: ``digest(version_id) -> hex SHA-256 of its build, "" when it has none`` and
#: ``fetch(version_id) -> the build's bytes``: a compiled language's version runs its build.
ArtifactDigest = Callable[[int], str]
ArtifactFetch = Callable[[int], bytes]

_fetcher: Fetcher | None = None
_artifacts: tuple[ArtifactDigest, ArtifactFetch] | None = None

#: What a fetched upload may be: a zip or one language's single source file.
SUFFIXES = (".zip", *dict.fromkeys(PurePosixPath(lg.source).suffix for lg in LANGUAGES.values()))


class CodeFetchError(RuntimeError):
    """The code of a version could not be had, or was not what its hash says (a platform
    failure: the match is an ``error``, not a bot's fault). ``str()`` is for the worker's log
    (it may name paths and the storage's own error); ``public`` names only the seat's
    ``version:ID``, which replays show anyway."""

    def __init__(self, message: str, *, bot: str) -> None:
        super().__init__(message)
        self.public = f"the code of {bot} could not be fetched on the worker"


def register_fetcher(
    fetcher: Fetcher | None, *, builds: tuple[ArtifactDigest, ArtifactFetch] | None = None
) -> None:
    """Install how this worker fetches uploaded versions (None removes it) and, from the same
    storage, their builds (``builds``: how to find a version's build's hash, and fetch it;
    a fetcher registered without them fetches uploads only)."""
    global _fetcher, _artifacts
    _fetcher = fetcher
    _artifacts = builds


def cache_dir() -> Path:
    """Where fetched code is kept, one file per content hash (``ARENA_CODE_CACHE``)."""
    root = os.environ.get("ARENA_CODE_CACHE") or os.path.join(
        tempfile.gettempdir(), f"meeple-arena-code-{os.getuid()}"
    )
    path = Path(root)
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    return path


def seat_code(seat: SeatSpec) -> str | StoredCode:
    """What the referee runs for ``seat``: ``builtin:NAME``, ``human``, a path, or an uploaded
    version's cached file as a :class:`StoredCode` that carries what the spec says of it (its
    language; whether it is the version's build, verified against the spec's hash)."""
    if seat.version_id is None:
        return seat.bot
    path, build = _fetched(seat, seat.version_id)
    return StoredCode(path=path, language=seat.language or None, built=build)


def resolve(seat: SeatSpec) -> str:
    """The file (or ``builtin:NAME``, a path) the referee runs for ``seat``: an uploaded
    version's cached file (fetched once per hash, verified every time it is fetched)."""
    version = seat.version_id
    if version is None:
        return seat.bot
    return _fetched(seat, version)[0]


def _fetched(seat: SeatSpec, version: int) -> tuple[str, bool]:
    """The cached file of an uploaded version, and whether it is its stored build."""
    built = _resolve_artifact(seat, version)
    if built is not None:
        return built, True
    return _resolve_upload(seat, version), False


def _resolve_upload(seat: SeatSpec, version: int) -> str:
    suffix_hits = [p for p in cache_dir().glob(f"{seat.sha256}.*") if p.suffix in SUFFIXES]
    if suffix_hits:
        return str(suffix_hits[0])
    if _fetcher is None:
        raise CodeFetchError(
            f"this worker cannot fetch uploaded code ({seat.bot}): no code fetcher is registered",
            bot=seat.bot,
        )
    try:
        data, suffix = _fetcher(version)
    except Exception as exc:  # storage down, file missing: a platform failure
        # The storage's own words (paths, buckets) go to this worker's log, not to the match.
        log.warning("could not fetch the code of %s", seat.bot, exc_info=True)
        raise CodeFetchError(
            f"could not fetch {seat.bot}: {type(exc).__name__}: {exc}", bot=seat.bot
        ) from exc
    digest = hashlib.sha256(data).hexdigest()
    if digest != seat.sha256:
        raise CodeFetchError(f"{seat.bot}: the stored code does not match its hash", bot=seat.bot)
    if suffix not in SUFFIXES:
        raise CodeFetchError(f"{seat.bot}: unexpected file type {suffix!r}", bot=seat.bot)
    return keep_file(data, cache_dir() / f"{digest}{suffix}")


def _resolve_artifact(seat: SeatSpec, version: int) -> str | None:
    """The cached build of a compiled language's version (fetched once per hash, verified
    when fetched), or None when the version has no build. The spec names the build's hash;
    one from before specs named it (no ``language``) has it looked up through the fetcher."""
    if _artifacts is None:
        return None
    digest_of, fetch = _artifacts
    try:
        expected = seat.artifact_sha256 or ("" if seat.language else digest_of(version))
        if not expected:
            return None
        target = cache_dir() / f"{expected}.built.zip"
        if target.is_file():
            return str(target)
        data = fetch(version)
    except Exception as exc:  # storage down, file missing: a platform failure
        log.warning("could not fetch the build of %s", seat.bot, exc_info=True)
        raise CodeFetchError(
            f"could not fetch the build of {seat.bot}: {type(exc).__name__}: {exc}", bot=seat.bot
        ) from exc
    if hashlib.sha256(data).hexdigest() != expected:
        raise CodeFetchError(f"{seat.bot}: the stored build does not match its hash", bot=seat.bot)
    return keep_file(data, target)


def keep_file(data: bytes, target: Path) -> str:
    # Write then rename: two matches fetching the same version at once both end with a whole file.
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".fetch-")
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
    os.chmod(tmp, 0o644)
    os.replace(tmp, target)
    return str(target)
