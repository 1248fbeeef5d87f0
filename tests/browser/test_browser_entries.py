"""A class's private tournament in a real browser under the site's CSP: a pupil opens the
invitation link, logs in, lands back on it, joins and enters a bot with the page's form; the
organiser copies the link with the Copy button and makes a new one."""

from __future__ import annotations

from typing import Any

from bots.models import Bot
from catalog.services import sync_games
from competitions.entries.membership import invite_code
from competitions.models import EntryPolicy, Visibility
from competitions.tournaments.services import create_tournament
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from playwright.sync_api import expect

PASSWORD = "pw-for-the-class-123"


def _log_in_from_here(page: Any, username: str) -> None:
    """The log-in page the site sent the browser to; it comes back to ``next``."""
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="Log in").click()


def test_a_pupil_joins_by_the_link_and_enters_a_bot(csp_page: Any, transactional_db: None) -> None:
    page = csp_page
    trnd = {g.slug: g for g in sync_games()}["trnd"]
    users = get_user_model().objects
    teacher = users.create_user("teacher", password=PASSWORD)
    teacher.groups.add(Group.objects.get_or_create(name="organisers")[0])
    pupil = users.create_user("pupil", password=PASSWORD)
    version = Bot.objects.create(owner=pupil, game=trnd, name="pupil-bot").versions.create(
        number=1, builtin_name="random"
    )
    t = create_tournament(
        organiser=teacher,
        game=trnd,
        name="Class 4B",
        players_per_match=3,
        visibility=Visibility.PRIVATE,
        entry_policy=EntryPolicy.MEMBERS,
    )
    page.goto(f"/tournaments/join/{invite_code(t)}/")
    assert "/accounts/login/" in page.url
    _log_in_from_here(page, "pupil")
    page.get_by_role("button", name="Join the tournament").click()
    page.wait_for_url(f"**/tournaments/{t.pk}/")
    expect(page.get_by_text("You are a member of Class 4B.")).to_be_visible()
    page.select_option("#entry-version", str(version.pk))
    page.locator("#my-entry").get_by_role("button", name="Enter").click()
    expect(page.get_by_text("pupil-bot v1 is entered.")).to_be_visible()
    assert list(t.entrants.all()) == [version]

    page.context.clear_cookies()
    page.goto(f"/tournaments/{t.pk}/")
    assert "/accounts/login/" not in page.url  # a 404 page, not a log-in: it does not exist
    page.goto(f"/accounts/login/?next=/tournaments/{t.pk}/")
    _log_in_from_here(page, "teacher")
    page.wait_for_url(f"**/tournaments/{t.pk}/")
    link = page.locator(f"#invite-link-{t.pk}")
    expect(link).to_have_value(
        f"{page.url.split('/tournaments/')[0]}/tournaments/join/{invite_code(t)}/"
    )
    page.locator("#members").get_by_role("button", name="Copy").click()
    expect(page.locator("#members [data-copied]")).to_be_visible()
    expect(page.locator("#members")).to_contain_text("pupil")
    old = invite_code(t)
    page.get_by_role("button", name="Make a new link").click()
    t.refresh_from_db()
    assert invite_code(t) != old
    expect(page.locator(f"#invite-link-{t.pk}")).to_have_value(
        f"{page.url.split('/tournaments/')[0]}/tournaments/join/{invite_code(t)}/"
    )
