"""The notifications page, "mark all read", the menu badge (one query, signed-in users only),
and the settings page's switches."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from notifications.models import Notification, NotificationKind, NotificationPreference
from notifications.services import notify

pytestmark = pytest.mark.django_db
K = NotificationKind.VERSION_FAILED


def _signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _badge(html: str) -> str | None:
    found = re.search(r'<a class="bell"[^>]*>.*?(?:<span class="count">(\d+)</span>)?</a>', html)
    assert found, "no notifications link in the menu"
    return found.group(1)


def test_the_page_lists_ones_own_newest_first_and_marks_unread(user: Any, other_user: Any) -> None:
    notify(user, K, "old one", "/bots/1/", body="line one\nline two")
    notify(user, K, "new one", "/bots/2/")
    notify(other_user, K, "not yours", "/bots/3/")
    Notification.objects.filter(title="old one").update(read_at="2026-01-01T00:00:00Z")
    html = _signed_in(user).get("/notifications/").content.decode()
    assert html.index("new one") < html.index("old one") and "not yours" not in html
    assert html.count('class="badge unread"') == 1
    assert 'href="/bots/2/"' in html and "line one<br>line two" in html
    assert "Mark all read" in html


def test_the_page_needs_a_sign_in_and_pages(client: Client, user: Any) -> None:
    answer = client.get("/notifications/")
    assert answer.status_code == 302 and answer["Location"].startswith("/accounts/login/")
    for i in range(31):
        notify(user, K, f"n{i}", "/")
    page2 = _signed_in(user).get("/notifications/?page=2").content.decode()
    assert "n0" in page2 and "n30" not in page2 and "page 2 of 2" in page2
    assert _signed_in(user).get("/notifications/?page=x").status_code == 200


def test_mark_all_read(client: Client, user: Any, other_user: Any) -> None:
    notify([user, other_user], K, "a", "/")
    assert client.post("/notifications/read/").status_code == 302  # to the log-in page
    web = _signed_in(user)
    assert web.get("/notifications/read/").status_code == 405
    assert web.post("/notifications/read/").status_code == 302
    assert not Notification.objects.filter(user=user, read_at__isnull=True).exists()
    assert Notification.objects.filter(user=other_user, read_at__isnull=True).exists()
    assert "Mark all read" not in web.get("/notifications/").content.decode()


def test_the_menu_badge_counts_unread_in_one_query(client: Client, user: Any) -> None:
    web = _signed_in(user)
    assert _badge(web.get("/games/").content.decode()) is None
    notify(user, K, "a", "/")
    notify(user, K, "b", "/")
    web.get("/games/")  # warm: caches as a server's would be
    with CaptureQueriesContext(connection) as ctx:
        html = web.get("/games/").content.decode()
    assert _badge(html) == "2"
    counts = [q["sql"] for q in ctx.captured_queries if "notifications_notification" in q["sql"]]
    assert len(counts) == 1 and "COUNT" in counts[0].upper()
    # Anonymous visitors get no link and cost no query for it.
    with CaptureQueriesContext(connection) as anon:
        html = client.get("/games/").content.decode()
    assert 'class="bell"' not in html
    assert not any("notifications_" in q["sql"] for q in anon.captured_queries)


def test_the_settings_page_switches_each_channel(user: Any) -> None:
    web = _signed_in(user)
    html = web.get("/accounts/settings/").content.decode()
    assert 'id="notifications"' in html and "alice@example.com" in html
    assert html.count('type="checkbox"') == 2 * len(NotificationKind)
    assert 'aria-label="A challenge you sent was played: by email"' in html
    # Everything on but the email of challenges and the site list of suspensions.
    on = {f"{k}__{c}": "on" for k in NotificationKind.values for c in ("site", "email")}
    del on["challenge_played__email"], on["bot_suspended__site"]
    answer = web.post("/notifications/preferences/", on)
    assert answer.status_code == 302 and answer["Location"] == "/accounts/settings/#notifications"
    prefs = {p.kind: (p.site, p.email) for p in NotificationPreference.objects.filter(user=user)}
    assert prefs["challenge_played"] == (True, False) and prefs["bot_suspended"] == (False, True)
    assert prefs["version_failed"] == (True, True)
    html = web.get("/accounts/settings/").content.decode()
    unticked = re.search(r'<input[^>]*name="challenge_played__email"[^>]*>', html)
    assert unticked and "checked" not in unticked.group(0)
    assert Client().post("/notifications/preferences/", on).status_code == 302  # log in first
    assert web.get("/notifications/preferences/").status_code == 405
