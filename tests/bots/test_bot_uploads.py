"""Upload validation and storage of bot versions."""

from __future__ import annotations

import hashlib

import pytest
from bots.services import create_bot, upload_version
from bots.validation import validate_bot_file
from django.core.exceptions import ValidationError

from tests.site_fixtures import BOT_SOURCE, make_zip

CAP = 10_000


def test_python_file_accepted() -> None:
    assert validate_bot_file("main.py", BOT_SOURCE, CAP) == "py"


def test_zip_with_main_accepted() -> None:
    data = make_zip({"main.py": BOT_SOURCE, "lib/helper.py": b"X = 1\n"})
    assert validate_bot_file("bot.ZIP", data, CAP) == "zip"


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("main.py", b"", "empty"),
        ("main.py", b"x" * (CAP + 1), "limited to"),
        ("bot.exe", b"MZ", "neither a bot's source file"),
        ("main.py", b"\xff\xfe\x00", "not UTF-8"),
        ("bot.zip", b"PK-not-really", "not a valid zip"),
        (
            "bot.zip",
            make_zip({"src/main.py": b"pass\n", "lib/x.py": b""}),
            "at its top level",
        ),
        ("bot.zip", make_zip({"main.py": b"pass\n", "../evil.py": b"x"}), "outside its folder"),
    ],
)
def test_bad_uploads_have_clear_messages(name: str, data: bytes, message: str) -> None:
    # Structure only: whether main.py compiles is a worker's check (test_upload_check.py).
    with pytest.raises(ValidationError, match=message):
        validate_bot_file(name, data, CAP)


def test_upload_numbers_versions_and_stores_file(user_bot, settings) -> None:
    v1 = upload_version(bot=user_bot, filename="main.py", data=BOT_SOURCE)
    v2 = upload_version(bot=user_bot, filename="b.zip", data=make_zip({"main.py": BOT_SOURCE}))
    assert (v1.number, v2.number) == (1, 2)
    assert v1.sha256 == hashlib.sha256(BOT_SOURCE).hexdigest()
    assert v1.size_bytes == len(BOT_SOURCE)
    path = v1.runner_spec()
    assert path.startswith(str(settings.MEDIA_ROOT)) and path.endswith(".py")
    with open(path, "rb") as fh:
        assert fh.read() == BOT_SOURCE
    assert v2.runner_spec().endswith(".zip")
    assert user_bot.latest_version() == v2


def test_upload_respects_setting_cap(user_bot, settings) -> None:
    settings.ARENA_UPLOAD_MAX_BYTES = 10
    with pytest.raises(ValidationError, match="limited to"):
        upload_version(bot=user_bot, filename="main.py", data=BOT_SOURCE)
    assert not user_bot.versions.exists()


def test_duplicate_bot_name_is_a_clear_error(user, trnd) -> None:
    create_bot(owner=user, game=trnd, name="Zed")
    with pytest.raises(ValidationError, match="already have a bot named 'Zed'"):
        create_bot(owner=user, game=trnd, name="Zed")


def test_builtin_bots_refuse_uploads(builtin_versions) -> None:
    bot = builtin_versions[0].bot
    assert bot.is_builtin and builtin_versions[0].runner_spec().startswith("builtin:")
    with pytest.raises(ValidationError, match="Built-in"):
        upload_version(bot=bot, filename="main.py", data=BOT_SOURCE)
