"""An upload is stored after a cheap structural check, and its code is compiled on a worker
(bots.upload_check, the ``bots.check_version`` task) before it qualifies: a version that does not
compile ends ``failed`` with the compiler's message for its owner (lost checks:
test_check_sweeper.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from bots import upload_check
from bots.models import Bot, VersionStatus
from bots.services import upload_version
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from matches.models import Match

from tests.site_fixtures import BOT_SOURCE, make_zip

BROKEN = b"import sys\n\ndef broken(:\n    pass\n"


@pytest.fixture(autouse=True)
def _ladder_settings(settings: Any) -> None:
    settings.ARENA_SANDBOX = "process"
    settings.ARENA_ALLOW_UNSAFE_SANDBOX = True


def _no_compiling(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_: Any, **__: Any) -> None:
        raise AssertionError("compiled in the web request")

    monkeypatch.setattr("sandbox.compile_check.compile_limited", refuse)
    monkeypatch.setattr("sandbox.bundle.try_compile", refuse)


def test_the_web_request_stores_without_compiling(
    user: Any, user_bot: Bot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page answers at once: the file is stored, its version waits for its check."""
    _no_compiling(monkeypatch)
    client = Client()
    client.force_login(user)
    response = client.post(
        f"/bots/{user_bot.pk}/upload/", {"code": SimpleUploadedFile("main.py", BROKEN)}
    )
    assert response.status_code == 302
    version = user_bot.versions.get()
    assert version.status == VersionStatus.CHECKING
    assert version.check_sent_at is None  # sent once the upload commits


@pytest.mark.parametrize(
    ("name", "data"),
    [("main.py", BROKEN), ("bot.zip", make_zip({"mine/main.py": BROKEN, "mine/x.py": b""}))],
)
def test_code_that_does_not_compile_fails_with_its_line(
    user: Any,
    other_user: Any,
    user_bot: Bot,
    builtin_versions: Any,
    inline: Callable[..., Any],
    name: str,
    data: bytes,
) -> None:
    version = inline(upload_version, bot=user_bot, filename=name, data=data)
    version.refresh_from_db()
    assert version.status == VersionStatus.FAILED
    assert version.status_reason.startswith("main.py has a syntax error on line 3")
    assert version.check_sent_at is not None
    assert not Match.objects.filter(seats__bot_version=version).exists()
    # Its owner reads why on the bot's page; others see only that it failed.
    client = Client()
    client.force_login(user)
    assert "syntax error on line 3" in client.get(f"/bots/{user_bot.pk}/").content.decode()
    client.force_login(other_user)
    page = client.get(f"/bots/{user_bot.pk}/").content.decode()
    assert "Failed" in page and "syntax error" not in page


def test_code_that_compiles_is_checked_then_qualifies(
    user_bot: Bot, builtin_versions: Any, inline: Callable[..., Any]
) -> None:
    version = upload_version(bot=user_bot, filename="main.py", data=BOT_SOURCE)
    assert not Match.objects.exists()  # not before its check
    assert inline(upload_check.run_check, version.pk) == VersionStatus.UPLOADED
    version.refresh_from_db()
    # version_checked, sent on commit, qualified it (the qualification is played inline).
    assert version.status == VersionStatus.ACTIVE, version.status_reason
    assert Match.objects.filter(ladder__version=version).exists()
    assert upload_check.run_check(version.pk) == "skipped"  # a second delivery does nothing


def test_a_platform_failure_leaves_it_checking(
    user_bot: Bot, monkeypatch: pytest.MonkeyPatch
) -> None:
    version = upload_version(bot=user_bot, filename="main.py", data=BOT_SOURCE)

    def storage_down(_: int) -> tuple[bytes, str]:
        raise OSError("storage unreachable")

    monkeypatch.setattr("bots.upload_check.fetch_version_code", storage_down)
    with pytest.raises(OSError):
        upload_check.run_check(version.pk)
    version.refresh_from_db()
    assert version.status == VersionStatus.CHECKING and version.status_reason == ""
