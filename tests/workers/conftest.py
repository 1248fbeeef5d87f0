"""The real-worker tests: each starts Celery worker processes (with Redis and PostgreSQL) or
the site's embedded workers (``manage.py serve``, ``demo --serve``) and watches them play."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import mark_folder


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test here is a real-worker test: ``-m worker`` selects them, ``-m "not worker"``
    leaves them out."""
    mark_folder(items, Path(__file__).parent, "worker")
