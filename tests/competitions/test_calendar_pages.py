"""The calendar where people see and set it: a league's first round typed in the organiser's
zone (form and API), the pages' times written for the viewer's zone, a tournament that did not
start by itself says why."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

from competitions.calendar import run_calendar
from competitions.leagues.services import create_league
from competitions.models import League, Tournament
from competitions.tournaments.services import create_tournament
from django.test import Client
from django.utils import timezone
from foundation.templatetags.local_time import local_time
from rest_framework.test import APIClient

TIME = re.compile(r'<time datetime="([0-9T:-]+Z)" data-local>([0-9 :-]+) UTC</time>')


def next_year() -> int:
    return timezone.now().year + 1


def test_the_league_form_reads_the_first_round_in_the_organisers_zone(
    client: Client, organiser: Any, games: dict[str, Any]
) -> None:
    client.force_login(organiser)
    form = client.get("/tournaments/leagues/new/").content.decode()
    assert 'type="datetime-local" name="starts_at"' in form
    assert '<input type="hidden" name="tz" value="UTC" data-local-tz>' in form
    year = next_year()
    r = client.post(
        "/tournaments/leagues/new/",
        {
            "game": games["manhattan-traffiq"].pk,
            "name": "Evenings",
            "every_hours": 24,
            "starts_at": f"{year}-01-15T19:00",
            "tz": "Europe/Paris",
            "is_active": "on",
        },
    )
    assert r.status_code == 302, r.content.decode()[:2000]
    lg = League.objects.get()
    assert lg.starts_at == datetime(year, 1, 15, 18, 0, tzinfo=UTC)  # 19:00 CET
    page = client.get(f"/tournaments/leagues/{lg.pk}/").content.decode()
    assert f'<time datetime="{year}-01-15T18:00:00Z" data-local>{year}-01-15 18:00 UTC</time>' in (
        page
    )  # the first round, "from" in the schedule and as the next round
    assert page.count(f'datetime="{year}-01-15T18:00:00Z"') == 2
    listed = client.get("/tournaments/leagues/").content.decode()
    assert f'datetime="{year}-01-15T18:00:00Z"' in listed


def test_a_skipped_wall_time_is_a_form_error_not_a_league(
    client: Client, organiser: Any, games: dict[str, Any]
) -> None:
    client.force_login(organiser)
    r = client.post(
        "/tournaments/leagues/new/",
        {
            "game": games["manhattan-traffiq"].pk,
            "name": "Spring",
            "every_hours": 24,
            "starts_at": "2030-03-31T02:30",  # Paris skips 02:00-03:00 that night
            "tz": "Europe/Paris",
        },
    )
    assert r.status_code == 200
    html = r.content.decode()
    assert "2030-03-31 02:30 does not exist in Europe/Paris" in html
    assert 'value="2030-03-31T02:30"' in html and 'name="tz" value="Europe/Paris"' in html
    assert not League.objects.exists()


def test_the_league_api_takes_and_shows_the_calendar(organiser: Any, games: Any) -> None:
    api = APIClient()
    api.force_authenticate(organiser)
    year = next_year()
    r = api.post(
        "/api/leagues/",
        {
            "game": "manhattan-traffiq",
            "name": "Api",
            "every_hours": 12,
            "starts_at": f"{year}-06-01T08:00:00+02:00",
        },
        format="json",
    )
    assert r.status_code == 201, r.json()
    body = r.json()
    assert body["starts_at"] == f"{year}-06-01T06:00:00Z"
    assert body["next_round_at"] == f"{year}-06-01T06:00:00Z"
    bad = api.post(
        "/api/leagues/",
        {"game": "manhattan-traffiq", "name": "Bad", "starts_at": "soon"},
        format="json",
    )
    assert bad.status_code == 400 and "starts_at" in bad.json()


def test_a_league_page_writes_its_times_for_the_viewer(client: Client, games: Any) -> None:
    lg = create_league(game=games["manhattan-traffiq"], name="Now", every_hours=6)
    lg.refresh_from_db()
    page = client.get(f"/tournaments/leagues/{lg.pk}/").content.decode()
    shown = dict(TIME.findall(page))
    assert lg.starts_at is not None
    starts = lg.starts_at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    assert starts in shown  # the calendar's start, and its first round, due now


def test_a_tournament_that_did_not_start_says_why(client: Client, games: Any) -> None:
    from competitions.management.commands.demo import demo_entrants

    (only,) = demo_entrants(games["manhattan-traffiq"], 1)[:1]
    t = create_tournament(
        organiser=only.bot.owner,
        game=games["manhattan-traffiq"],
        name="Lonely",
        entrants=[only],
        start_at=timezone.now() + timedelta(hours=1),
    )
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert "starts by itself at <time" in page and "not started" not in page
    assert f"starts {local_time(t.start_at)}" in client.get("/tournaments/").content.decode()
    run_calendar(timezone.now() + timedelta(hours=1), dispatch=False)
    t = Tournament.objects.get(pk=t.pk)
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    i = page.find("<th>Start")
    assert "did not start by itself at its time" in page, page[i - 100 : i + 900]
    assert "needs at least 2 entrants (it has 1)" in page
    body = APIClient().get(f"/api/tournaments/{t.pk}/").json()
    assert body["start_at"] is None and "needs at least 2 entrants" in body["start_problem"]
