"""Fixtures for the tests of the ladder: the site's (tests/site_fixtures.py)."""

# Every fixture of the site's tests, the list in one place (site_fixtures.FIXTURES).
from tests.site_fixtures import *  # noqa: F403
