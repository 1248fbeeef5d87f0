"""The top menu of a signed-in person: one line at 1280 px (the width a laptop shows), with the
notifications bell showing its widest unread count, and on a phone every item reachable
without the page scrolling sideways."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from .conftest import shoot

PASSWORD = "pw-for-the-menu-123"
#: The longest user name the sign-up form takes (150), shown in the menu: it must not wrap it.
LONG_NAME = "a-rather-long-user-name-x"

NAV_ITEMS = """() => Array.from(document.querySelectorAll('header.site nav > *')).map(el => {
  const r = el.getBoundingClientRect();
  return {text: el.innerText.trim(), top: r.top, bottom: r.bottom, left: r.left, right: r.right,
          visible: r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden'};
})"""


@pytest.fixture
def signed_in(page: Any, transactional_db: None, settings: Any) -> Any:
    from notifications.models import Notification, NotificationKind

    user = get_user_model().objects.create_user(LONG_NAME, password=PASSWORD)
    # The bell at its widest: as many unread notifications as a user keeps (three digits).
    kept = settings.ARENA_NOTIFICATIONS_KEPT
    Notification.objects.bulk_create(
        Notification(user=user, kind=NotificationKind.CHALLENGE_PLAYED, title=f"n{i}", url="/")
        for i in range(kept)
    )
    page.goto("/accounts/login/")
    page.fill("#id_username", LONG_NAME)
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url("**/")
    return page


def _one_line(items: list[dict[str, Any]]) -> bool:
    """Every item's box overlaps the first one's vertically: a single row."""
    first = items[0]
    return all(i["top"] < first["bottom"] and i["bottom"] > first["top"] for i in items)


@pytest.mark.parametrize("width", [1280, 1366, 1920])
def test_the_signed_in_menu_is_one_line(signed_in: Any, width: int, settings: Any) -> None:
    page = signed_in
    page.set_viewport_size({"width": width, "height": 800})
    page.goto("/bots/")
    items = page.evaluate(NAV_ITEMS)
    texts = [i["text"] for i in items]
    assert LONG_NAME in " ".join(texts) and "Log out" in " ".join(texts)
    assert "My bots" in texts and "Leagues" in texts
    bell = page.locator("header.site a.bell")
    assert bell.locator(".count").inner_text() == str(settings.ARENA_NOTIFICATIONS_KEPT)
    assert _one_line(items), [(i["text"], i["top"]) for i in items]
    assert all(i["visible"] for i in items)
    if width == 1280:
        shoot(page, "menu-1280")


def test_on_a_phone_every_menu_item_is_reachable(signed_in: Any) -> None:
    page = signed_in
    page.set_viewport_size({"width": 390, "height": 800})
    page.goto("/bots/")
    items = page.evaluate(NAV_ITEMS)
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page scrolls sideways by {overflow}px"
    for item in items:
        assert item["visible"] and item["left"] >= 0 and item["right"] <= 390, item
    # No two items overlap: each can be tapped on its own.
    for a, b in itertools.combinations(items, 2):
        apart = a["right"] <= b["left"] or b["right"] <= a["left"]
        assert apart or a["bottom"] <= b["top"] or b["bottom"] <= a["top"], (a, b)
    page.locator("header.site").get_by_role("link", name="My bots", exact=True).click()
    page.wait_for_url("**/bots/mine/")
    shoot(page, "menu-phone")
