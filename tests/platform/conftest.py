"""Fixtures for the tests of the apps without a folder of their own: the site's
(tests/site_fixtures.py)."""

from tests.site_fixtures import (  # noqa: F401  fixtures, found by name
    _celery_inline,
    _media_root,
    builtin_versions,
    games,
    inline,
    other_user,
    rounds,
    three_versions,
    trnd,
    user,
    user_bot,
)
