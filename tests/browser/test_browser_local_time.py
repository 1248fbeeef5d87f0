"""Times in the viewer's zone in a real browser, under the site's CSP: ``{% local_time %}``
elements rewritten by ``foundation/local_time.js``, a league's first round typed in the
browser's zone (the hidden ``tz`` field filled by the script), and a UTC value of a
datetime-local field (also one added to the page later) rewritten in the browser's zone."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from catalog.services import sync_games
from competitions.leagues.services import create_league
from competitions.models import League
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from playwright.sync_api import expect

from .conftest import TIMEOUT_MS

PASSWORD = "pw-for-the-organiser-123"


@pytest.fixture
def tab_in(browser: Any, live_server: Any, transactional_db: None) -> Iterator[Any]:
    """``tab_in(zone, locale)``: a tab under the site's CSP whose browser lives in ``zone``;
    CSP reports and JavaScript errors fail the test."""
    contexts: list[Any] = []
    problems: list[str] = []

    def open_tab(zone: str, locale: str = "en-GB", bypass_csp: bool = False) -> Any:
        context = browser.new_context(
            base_url=live_server.url, timezone_id=zone, locale=locale, bypass_csp=bypass_csp
        )
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        tab = context.new_page()
        tab.on("pageerror", lambda exc: problems.append(str(exc)))
        tab.on(
            "console",
            lambda m: problems.append(m.text) if "Content Security Policy" in m.text else None,
        )
        return tab

    yield open_tab
    for context in contexts:
        context.close()
    assert not problems, problems


def a_league(starts_at: datetime) -> League:
    game = {g.slug: g for g in sync_games()}["manhattan-traffiq"]
    return create_league(game=game, name="Evenings", every_hours=24, starts_at=starts_at)


def test_times_are_shown_in_the_viewers_zone(tab_in: Any) -> None:
    lg = a_league(datetime(2030, 1, 15, 18, 0, tzinfo=UTC))
    paris = tab_in("Europe/Paris")
    paris.goto(f"/tournaments/leagues/{lg.pk}/")
    first = paris.locator('time[datetime="2030-01-15T18:00:00Z"]').first
    expect(first).to_have_text("2030-01-15 19:00 CET")
    expect(first).to_have_attribute("title", "2030-01-15 18:00 UTC")
    new_york = tab_in("America/New_York", "en-US")
    new_york.goto("/tournaments/leagues/")
    expect(new_york.locator('time[datetime="2030-01-15T18:00:00Z"]')).to_have_text(
        "2030-01-15 13:00 EST"
    )


def test_a_first_round_typed_in_tokyo_is_stored_in_utc(tab_in: Any) -> None:
    sync_games()
    olga = get_user_model().objects.create_user("olga", password=PASSWORD)
    olga.groups.add(Group.objects.get_or_create(name="organisers")[0])
    tab = tab_in("Asia/Tokyo")
    tab.goto("/accounts/login/")
    tab.fill("#id_username", "olga")
    tab.fill("#id_password", PASSWORD)
    tab.get_by_role("button", name="Log in").click()
    tab.wait_for_url("**/")
    tab.goto("/tournaments/leagues/new/")
    expect(tab.locator("input[name=tz]")).to_have_value("Asia/Tokyo")
    tab.fill("#id_name", "Tokyo nights")
    tab.fill("#id_starts_at", "2030-01-15T09:00")
    tab.get_by_role("button", name="Create the league").click()
    tab.wait_for_url(re.compile(r".*/tournaments/leagues/[0-9]+/$"))
    lg = League.objects.get(name="Tokyo nights")
    assert lg.starts_at == datetime(2030, 1, 15, 0, 0, tzinfo=UTC)  # 09:00 JST
    expect(tab.locator('time[datetime="2030-01-15T00:00:00Z"]').first).to_have_text(
        "2030-01-15 09:00 GMT+9"
    )


def test_a_utc_value_is_rewritten_in_the_browsers_zone(tab_in: Any) -> None:
    # An edit form's initial value comes in UTC with tz=UTC; here one is added to a page
    # after it loaded (as a live region's swap would), which the script follows too.
    tab = tab_in("Europe/Paris", bypass_csp=True)  # evaluate() is the test's, not the page's
    tab.goto("/tournaments/leagues/")
    tab.evaluate(
        """() => {
        const form = document.createElement("form");
        form.innerHTML = '<input type="datetime-local" id="when" value="2030-07-01T10:00">' +
          '<input type="hidden" name="tz" value="UTC" data-local-tz>' +
          '<time datetime="2030-07-01T10:00:00Z" data-local>2030-07-01 10:00 UTC</time>';
        document.querySelector("main").append(form);
    }"""
    )
    expect(tab.locator("#when")).to_have_value("2030-07-01T12:00")  # CEST
    expect(tab.locator("input[data-local-tz]")).to_have_value("Europe/Paris")
    expect(tab.locator('time[datetime="2030-07-01T10:00:00Z"]')).to_have_text(
        "2030-07-01 12:00 CEST"
    )
