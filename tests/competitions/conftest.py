"""Fixtures for the competitions' tests: the platform's (real rows, uploads in a temporary
MEDIA_ROOT, matches played inline), and the people of a competition."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from tests.site_fixtures import (  # noqa: F401  (fixtures, found by name)
    _celery_inline,
    _media_root,
    builtin_versions,
    games,
    inline,
    other_user,
    three_versions,
    trnd,
    user,
)


@pytest.fixture
def organiser(db: None) -> Any:
    """A member of the ``organisers`` group."""
    olga = get_user_model().objects.create_user("olga", password="pw-olga-123")
    group, _ = Group.objects.get_or_create(name="organisers")
    olga.groups.add(group)
    return olga
