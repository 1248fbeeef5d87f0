"""A worker that cannot fetch or unpack a version's code records a match error that names no
path, member or exception text (the detail goes to the worker's log): issue 18, item 8."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena import codestore
from arena.contract import MatchSpec, SeatSpec
from arena.tasks import play
from sandbox.code import UNPACK_FAILED, BotCodeError, prepare_bot
from tests.security.badfiles import GOOD_MAIN, zip_of

SECRET_PATH = "/srv/arena/media/bots/7/v3.zip"


@pytest.fixture
def fetcher(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("ARENA_CODE_CACHE", str(tmp_path / "cache"))

    def missing(version_id: int) -> tuple[bytes, str]:
        raise FileNotFoundError(2, "No such file or directory", SECRET_PATH)

    codestore.register_fetcher(missing)
    yield
    codestore.register_fetcher(None)


def _spec(version_id: int = 3) -> MatchSpec:
    seat = SeatSpec(bot=f"version:{version_id}", sha256="ab" * 32, trusted=False)
    return MatchSpec(
        game="trnd",
        seats=(seat, SeatSpec(bot="builtin:random"), SeatSpec(bot="builtin:greedy")),
        seed=1,
        match_id="41",
    )


def test_a_failed_fetch_is_a_public_error_without_the_storages_words(
    fetcher: None, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="arena.codestore"):
        outcome = play(_spec(), sandbox="process", allow_unsafe=True)
    assert outcome.status == "error"
    public = "the code of version:3 could not be fetched on the worker"
    assert outcome.error == f"match refused: {public}"
    assert "/srv" not in outcome.error and "FileNotFound" not in outcome.error
    # The worker's log keeps the detail for its operator.
    assert SECRET_PATH in caplog.text


def test_a_version_whose_bytes_changed_is_refused_publicly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ARENA_CODE_CACHE", str(tmp_path / "cache"))
    codestore.register_fetcher(lambda _id: (b"print(1)\n", ".py"))
    try:
        with pytest.raises(codestore.CodeFetchError) as caught:
            codestore.resolve(_spec().seats[0])
    finally:
        codestore.register_fetcher(None)
    assert "does not match its hash" in str(caught.value)
    assert caught.value.public == "the code of version:3 could not be fetched on the worker"


def test_a_host_failure_while_unpacking_names_no_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full disk while a zip is written: the uploader's zip is fine, the error's text (with
    this machine's paths) stays out of what others see."""
    monkeypatch.setenv("ARENA_BOT_DIR", str(tmp_path / "bots"))
    path = tmp_path / "bot.zip"
    path.write_bytes(zip_of({"main.py": GOOD_MAIN, "secret-plan/x.py": b"X = 1\n"}))
    real_mkdir = Path.mkdir

    def full_disk(self: Path, *args: object, **kwargs: object) -> None:
        if self.name == "secret-plan":
            raise OSError(28, "No space left on device", str(self))
        real_mkdir(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Path, "mkdir", full_disk)
    with pytest.raises(BotCodeError) as caught:
        prepare_bot(path)
    assert "No space left" in str(caught.value)
    assert caught.value.public == UNPACK_FAILED
    assert "secret" not in caught.value.public and str(tmp_path) not in caught.value.public
    assert list((tmp_path / "bots").iterdir()) == []  # nothing half-written left behind


def test_the_cache_is_used_once_fetched(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARENA_CODE_CACHE", str(tmp_path / "cache"))
    calls: list[int] = []

    def fetch(version_id: int) -> tuple[bytes, str]:
        calls.append(version_id)
        return GOOD_MAIN, ".py"

    seat = SeatSpec(bot="version:5", sha256=hashlib.sha256(GOOD_MAIN).hexdigest())
    codestore.register_fetcher(fetch)
    try:
        first, second = codestore.resolve(seat), codestore.resolve(seat)
    finally:
        codestore.register_fetcher(None)
    assert first == second and Path(first).read_bytes() == GOOD_MAIN and calls == [5]
