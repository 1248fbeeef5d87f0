"""An upload's check is sent by the task's name (``bots.check_sending``), below the services
that send it and the check that runs it (``bots.upload_check``, on top of the services)."""

from __future__ import annotations

from typing import Any

import pytest
from bots import check_sending, upload_check
from bots.models import BotVersion, VersionStatus
from bots.services import create_bot, system_user, upload_version
from bots.tasks import check_version
from catalog.services import sync_games

SOURCE = b"import sys\nfor line in sys.stdin:\n    pass\n"


@pytest.fixture
def version(db: None, settings: Any, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    settings.MEDIA_ROOT = tmp_path / "media"
    monkeypatch.setattr(check_sending, "send_by_name", lambda *a, **k: True)  # no send yet
    game = next(g for g in sync_games() if g.slug == "trnd")
    bot = create_bot(owner=system_user(), game=game, name="sent-by-name")
    return upload_version(bot=bot, filename="main.py", data=SOURCE)


def test_the_check_is_sent_by_the_name_of_the_task_that_runs_it(
    version: BotVersion, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent: list[tuple[str, Any]] = []

    def send_by_name(name: str, args: Any) -> bool:
        sent.append((name, args))
        return True

    monkeypatch.setattr(check_sending, "send_by_name", send_by_name)
    assert check_sending.send_check(version.pk) is True
    assert sent == [(check_sending.CHECK_TASK, [version.pk])]
    assert check_version.name == check_sending.CHECK_TASK
    version.refresh_from_db()
    assert version.check_sent_at is not None  # noted before the send: a fast worker is after it


def test_a_send_the_broker_refused_is_left_to_the_sweeper(
    version: BotVersion, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(check_sending, "send_by_name", lambda name, args: False)
    assert check_sending.send_check(version.pk) is False
    version.refresh_from_db()
    assert version.check_sent_at is None and version.status == VersionStatus.CHECKING


def test_the_check_itself_runs_on_top_of_the_services(version: BotVersion) -> None:
    """``run_check`` (the task's work) moves the version with ``bots.services``."""
    assert upload_check.run_check(version.pk) == VersionStatus.UPLOADED
    assert upload_check.run_check(version.pk) == "skipped"  # a second delivery does nothing
