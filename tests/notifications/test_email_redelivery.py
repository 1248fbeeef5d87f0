"""A worker killed after it sent an email and before it acknowledged the task: the message goes
back to the queue, a second worker gets it, and the user still has one email.

Real parts: a redis-server of the test's own, two ``celery -A meeple worker`` processes
(acks_late, as the platform runs them), the test's PostgreSQL database, and a mail server of
the test's own (``SmtpOutbox``) that SIGKILLs the first worker when it says QUIT: the server
has taken the message, the worker has not acknowledged it."""

from __future__ import annotations

import os
import re
import signal
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tests.conftest import celery_on
from tests.notifications.outbox import SmtpOutbox
from tests.resilience.waits import wait_for

pytestmark = [
    pytest.mark.worker,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(600),
]


def _handled(worker: Any) -> list[str]:
    """How each email task the worker finished ended (``succeeded in 0.01s: False``...)."""
    log = worker.log.read_text(errors="replace")
    found = re.findall(r"Task notifications\.send_notification_email\[[0-9a-f-]+\] (.*)", log)
    return [how for how in found if not how.startswith("received")]


def _requeue_unacknowledged(url: str) -> int:
    """What the Redis transport does with a message left unacknowledged once its visibility
    timeout has passed (an hour and more here: deploy/SCALING.md): back on its queue. Done by
    kombu's own code with a timeout of 0 rather than waiting the hour."""
    from kombu import Connection

    with Connection(url, transport_options={"visibility_timeout": 0}) as conn:
        channel: Any = conn.default_channel
        before = int(channel.client.hlen(channel.unacked_key))
        channel.qos.restore_visible(num=100)
        return before - int(channel.client.hlen(channel.unacked_key))


def test_a_worker_killed_after_sending_and_before_its_ack_sends_one_email(
    redis_server: Any, workers: Any
) -> None:
    import meeple.celery  # noqa: F401  the app configured from Django's settings first
    from notifications.models import NotificationKind
    from notifications.services import notify

    redis = redis_server()
    outbox = SmtpOutbox()
    mail_env = {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(outbox.port),
        "EMAIL_USE_TLS": "false",
        "ARENA_SITE_URL": "https://arena.example",
    }
    first = workers(redis.url, name="doomed", **mail_env)
    killed: list[int] = []

    def kill_the_sender() -> None:
        if not killed:  # the first worker only; the second may say goodbye
            os.kill(first.pid, signal.SIGKILL)
            killed.append(first.pid)

    outbox.on_quit = kill_the_sender
    user = get_user_model().objects.create_user("dora", email="dora@example.com")
    with celery_on(redis.url):
        notify(user, NotificationKind.COMPETITION_ENDED, "Class cup has ended", "/t/1/")
    try:
        wait_for("the first worker to be killed", lambda: first.proc.poll() is not None, 120)
        assert killed == [first.pid], first.logs()
        assert len(outbox.taken()) == 1
        # Killed before its ack: the message is still the broker's, unacknowledged.
        assert _requeue_unacknowledged(redis.url) == 1, "the message was acknowledged"

        second = workers(redis.url, name="fresh", **mail_env)
        wait_for("the redelivery to be handled", lambda: _handled(second), logs=second.logs)
        assert redis.queued_messages() == 0
    finally:
        outbox.close()
    [email] = outbox.taken()
    assert "To: dora@example.com" in email and "Class cup has ended" in email
    [handled] = _handled(second)
    assert handled.startswith("succeeded") and handled.endswith(": False"), second.logs()
    from notifications.models import EmailDelivery, EmailStatus

    assert EmailDelivery.objects.get(user=user).status == EmailStatus.SENT
