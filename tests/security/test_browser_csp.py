"""In a real browser: the API documentation renders from the site's own files with every other
address blocked (no CDN), and the pages, the replay viewer among them, run under the site's
Content-Security-Policy without a single violation."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from bots.services import ensure_builtin_bots
from catalog.services import sync_games
from matches.models import Match, MatchStatus
from matches.services import create_match, dispatch_match
from playwright.sync_api import expect

from tests.browser.conftest import TIMEOUT_MS, _celery_inline, browser  # noqa: F401  fixtures

pytestmark = pytest.mark.browser  # chromium, as the tests in tests/browser

CSP_WORDS = ("Content Security Policy", "Content-Security-Policy")


@pytest.fixture
def strict_page(browser: Any, live_server: Any, transactional_db: None) -> Iterator[Any]:  # noqa: F811
    """A page that may reach only the live server, and records CSP violations and JS errors."""
    context = browser.new_context(base_url=live_server.url)
    context.set_default_timeout(TIMEOUT_MS)
    outside: list[str] = []

    def only_ours(route: Any) -> None:
        if route.request.url.startswith(live_server.url) or route.request.url.startswith("data:"):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    context.route("**/*", only_ours)
    tab = context.new_page()
    tab.violations = []
    tab.errors = []
    tab.on(
        "console",
        lambda m: tab.violations.append(m.text) if any(w in m.text for w in CSP_WORDS) else None,
    )
    tab.on("pageerror", lambda exc: tab.errors.append(str(exc)))
    try:
        yield tab
    finally:
        context.close()
    assert not outside, f"requests left the site: {outside}"
    assert not tab.violations, f"CSP violations: {tab.violations}"
    assert not tab.errors, f"JavaScript errors: {tab.errors}"


def test_api_docs_render_offline_under_the_csp(strict_page: Any) -> None:
    response = strict_page.goto("/api/docs/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    strict_page.wait_for_selector(".swagger-ui .info .title")
    assert "Meeple Arena API" in strict_page.locator(".swagger-ui .info .title").inner_text()
    # The operations are listed (the schema was fetched and drawn).
    strict_page.wait_for_selector(".opblock-summary-path")
    assert strict_page.locator(".opblock").count() >= 10


@pytest.fixture
def played(transactional_db: None) -> Match:
    game = next(g for g in sync_games() if g.slug == "trnd")
    versions = [b.latest_version() for b in ensure_builtin_bots(game)]
    versions.append(versions[0])
    match = dispatch_match(create_match(game=game, versions=versions[:3], seed=3))
    assert match.status == MatchStatus.FINISHED
    return match


def test_pages_and_replay_viewer_run_under_the_csp(strict_page: Any, played: Match) -> None:
    for path in ("/", "/games/", "/games/trnd/", "/matches/", "/tournaments/", "/accounts/login/"):
        assert strict_page.goto(path).ok, path
    strict_page.goto(f"/matches/{played.pk}/")
    strict_page.get_by_role("button", name="Next").click()
    # The step is fetched by the viewer's script (a static file under the CSP) and drawn.
    # (A locator, not wait_for_function: Playwright evaluates those strings, which the CSP
    # rightly forbids on this page.)
    expect(strict_page.locator('#replay [data-field="turn"]')).to_have_text(re.compile(r"^#\d+"))
    assert strict_page.locator('#replay [data-field="step"]').inner_text() == "1"
