"""The production path of an email: the transaction that tells a user commits, Redis carries
the task, a separate Celery worker process sends the email through the configured backend
(here Django's file backend, so that this process can read what the worker sent)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from notifications.models import Notification, NotificationKind
from notifications.services import notify

from tests.conftest import WorkerProcess, celery_on, missing_service
from tests.notifications.outbox import sent

pytestmark = [pytest.mark.worker, pytest.mark.redis, pytest.mark.django_db(transaction=True)]


def _database_url() -> str:
    from django.db import connection

    s = connection.settings_dict
    if s["ENGINE"] != "django.db.backends.postgresql":
        missing_service("this test needs DATABASE_URL to name a PostgreSQL server")
    return f"postgres://{s['USER']}:{s['PASSWORD']}@{s['HOST']}:{s['PORT']}/{s['NAME']}"


@pytest.fixture
def outbox(tmp_path: Path) -> Path:
    return tmp_path / "outbox"


@pytest.fixture
def worker(request: pytest.FixtureRequest, tmp_path: Path, outbox: Path) -> WorkerProcess:
    request.node.worker_env = {
        "DATABASE_URL": _database_url(),
        "ARENA_DATA_DIR": str(tmp_path),
        "EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
        "EMAIL_FILE_PATH": str(outbox),
        "ARENA_SITE_URL": "https://arena.example",
    }
    return request.getfixturevalue("celery_worker_process")


def _wait_for_emails(outbox: Path, n: int, worker: WorkerProcess) -> list[str]:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        emails = sent(outbox, n)
        if emails is not None:
            return emails
        time.sleep(0.3)
    raise AssertionError(f"no email from the worker: {worker.stderr_tail()}")


def test_a_worker_sends_the_email_after_the_commit(
    redis_url: str, worker: WorkerProcess, outbox: Path
) -> None:
    user = get_user_model().objects.create_user("carol", email="carol@example.com")
    with celery_on(redis_url):
        with transaction.atomic():
            notify(user, NotificationKind.COMPETITION_ENDED, "Class cup has ended", "/t/1/")
            time.sleep(1)  # a worker that got the task early would find nothing yet
            assert not outbox.exists()
        [email] = _wait_for_emails(outbox, 1, worker)
    assert "To: carol@example.com" in email
    assert "Subject: Meeple Arena: Class cup has ended" in email
    assert "https://arena.example/t/1/" in email
    assert Notification.objects.filter(user=user).count() == 1
