"""The Celery app as the Django site and its workers use it: ``celery -A meeple worker``.

The app itself lives in ``arena.celery_app`` (the referee's tasks need no Django); here it is
configured from Django's settings and learns the platform's tasks.
"""

from __future__ import annotations

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "meeple.settings")

from django.conf import settings

from arena.celery_app import app

app.config_from_object("django.conf:settings", namespace="CELERY")
# arena.celery_app set these from the environment for use without Django (with no broker it
# runs tasks eagerly, in the caller), and values set that way outrank a configuration source.
# The site decides them here: its embedded default is the filesystem broker, never eager, so
# that no web request or command plays a match, with or without services.
app.conf.update(
    broker_url=settings.CELERY_BROKER_URL,
    broker_transport_options=settings.CELERY_BROKER_TRANSPORT_OPTIONS,
    result_backend=settings.CELERY_RESULT_BACKEND,
    task_always_eager=settings.CELERY_TASK_ALWAYS_EAGER,
)
app.autodiscover_tasks()

__all__ = ["app"]
