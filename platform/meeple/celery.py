"""The Celery app as the Django site and its workers use it: ``celery -A meeple worker``.

The app itself lives in ``arena.celery_app`` (the referee's tasks need no Django); here it is
configured from Django's settings and learns the platform's tasks.
"""

from __future__ import annotations

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "meeple.settings")

from arena.celery_app import app

app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

__all__ = ["app"]
