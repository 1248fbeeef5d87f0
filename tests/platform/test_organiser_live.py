"""The organisers' pages that follow and explain: a started tournament's page ("Starting",
then its status JSON), and the one points explanation shared by the tournament and league
pages (the league form's: tests/competitions/leagues/test_league_form.py)."""

from __future__ import annotations

from typing import Any

import pytest
from catalog.models import Game
from competitions import tasks
from competitions.leagues.services import create_league
from competitions.live import STARTING_SECONDS
from competitions.models import League, Tournament, TournamentStatus
from competitions.tournaments import services as tournament_services
from competitions.tournaments.services import create_tournament, start_tournament
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

POINTS_NOTE = "(seats beaten + ½ × seats tied) ÷ (seats − 1), so 2nd of 4 earns ⅔"


@pytest.fixture
def organiser(db: None) -> Any:
    user = get_user_model().objects.create_user("olga", password="pw-olga-123")
    group, _ = Group.objects.get_or_create(name="organisers")
    user.groups.add(group)
    return user


@pytest.fixture
def draft(organiser: Any, trnd: Game, three_versions) -> Tournament:
    return create_tournament(
        organiser=organiser,
        game=trnd,
        name="Spring Cup",
        entrants=three_versions,
        players_per_match=3,
        games_per_pairing=2,
        seed=7,
    )


def test_start_asked_shows_starting_until_the_worker_starts_it(
    client: Client,
    organiser: Any,
    draft: Tournament,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
    inline: Any,
) -> None:
    held: list[int] = []
    monkeypatch.setattr(tournament_services, "send_by_name", lambda name, args: held.extend(args))
    client.force_login(organiser)
    url = f"/tournaments/{draft.pk}/"
    before = client.get(f"{url}status.json").json()
    assert before == {"status": "draft", "starting": False, "live": False, "stamp": before["stamp"]}

    with django_capture_on_commit_callbacks(execute=True):
        r = client.post(f"{url}start/")
    assert r.status_code == 302 and held == [draft.pk]
    html = client.get(url).content.decode()
    assert '<span class="badge running">Starting</span>' in html
    assert "Start the tournament" not in html and "data-live" in html
    assert "foundation/live_region.js" in html
    starting = client.get(f"{url}status.json").json()
    assert starting["starting"] and starting["live"] and starting["stamp"] != before["stamp"]

    inline(start_tournament, draft)  # the worker's part (matches run inline)
    done = client.get(f"{url}status.json").json()
    assert done["status"] == TournamentStatus.FINISHED and not done["live"]
    assert done["stamp"] != starting["stamp"]
    html = client.get(url).content.decode()
    assert "Starting" not in html and "data-live" not in html and "reload" not in html.lower()


def test_a_start_the_worker_refuses_brings_the_button_back(
    client: Client,
    organiser: Any,
    draft: Tournament,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    held: list[int] = []
    monkeypatch.setattr(tournament_services, "send_by_name", lambda name, args: held.extend(args))
    client.force_login(organiser)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/tournaments/{draft.pk}/start/")
    assert held == [draft.pk]
    assert "Start the tournament" not in client.get(f"/tournaments/{draft.pk}/").content.decode()
    draft.entrants.clear()  # the draft changed before the worker got to it
    monkeypatch.undo()
    assert tasks.start_tournament_task(draft.pk) == 0
    assert "Start the tournament" in client.get(f"/tournaments/{draft.pk}/").content.decode()
    assert STARTING_SECONDS >= 60  # a lost task hides the button for minutes, not for ever


def test_status_json_costs_the_same_queries_at_any_size(
    client: Client, draft: Tournament, organiser: Any, trnd: Game, three_versions, inline: Any
) -> None:
    inline(start_tournament, draft)

    def queries(t: Tournament) -> int:
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(f"/tournaments/{t.pk}/status.json").status_code == 200
        return len(ctx.captured_queries)

    bigger = create_tournament(
        organiser=organiser,
        game=trnd,
        name="Big",
        entrants=three_versions,
        players_per_match=3,
        games_per_pairing=6,
        seed=8,
    )
    inline(start_tournament, bigger)
    assert bigger.matches.count() == 3 * draft.matches.count()
    assert queries(draft) == queries(bigger)
    assert client.get("/tournaments/999999/status.json").status_code == 404


def test_both_tables_explain_points_with_the_same_words(
    client: Client, draft: Tournament, trnd: Game, inline: Any
) -> None:
    inline(start_tournament, draft)
    league: League = create_league(game=trnd, name="Weekly", every_hours=12, players_per_match=3)
    tournament_html = client.get(f"/tournaments/{draft.pk}/").content.decode()
    league_html = client.get(f"/tournaments/leagues/{league.pk}/").content.decode()
    for html in (tournament_html, league_html):
        assert html.count(POINTS_NOTE) == 1
    assert "then the opponents' points (Buchholz)" in tournament_html
    assert "Ranked by points, then the conservative skill" in league_html


def test_a_running_page_counts_against_every_planned_match(
    client: Client, organiser: Any, trnd: Game
) -> None:
    from competitions.management.commands.demo import demo_entrants

    t = create_tournament(
        organiser=organiser,
        game=trnd,
        name="Four rounds",
        entrants=demo_entrants(trnd, 3),  # four bots at 3 seats: one table a round
        players_per_match=3,
        games_per_pairing=1,
        seed=2,
    )
    start_tournament(t)  # round 1 scheduled; its match is not played (no commit here)
    t.refresh_from_db()
    assert t.status == TournamentStatus.RUNNING and t.planned_matches == 4
    html = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert '<progress max="4" value="0"' in html and "<b>0/1</b>" in html
    assert "4 planned in all: each round is scheduled when the one before it ends" in html
