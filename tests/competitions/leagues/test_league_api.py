"""The leagues' API: the list (paged, filtered by game; create for organisers), one league with
its seasons, its latest round and its table, the whole table paged, "play a round now", with
the league pages' permission rules; and the OpenAPI schema that documents them."""

from __future__ import annotations

from typing import Any

import pytest
from bots.services import create_bot
from competitions.leagues import services as league_services
from competitions.leagues.services import ROUND_NOW_TASK, create_league, run_league_round
from competitions.management.commands.demo import demo_entrants
from competitions.models import League, LeagueStanding
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import connection
from django.test.utils import CaptureQueriesContext
from foundation.pagination import StrictPageNumberPagination
from rest_framework.test import APIClient


@pytest.fixture
def api() -> APIClient:
    return APIClient()


def organiser_named(name: str) -> Any:
    user = get_user_model().objects.create_user(name, password=f"pw-{name}-123")
    group, _ = Group.objects.get_or_create(name="organisers")
    user.groups.add(group)
    return user


@pytest.fixture
def olga(db: None) -> Any:
    return organiser_named("olga")


@pytest.fixture
def league(games: dict[str, Any], olga: Any) -> League:
    return create_league(game=games["trnd"], name="Weekly", organiser=olga, players_per_match=3)


def as_user(api: APIClient, user: Any) -> APIClient:
    api.force_authenticate(user)
    return api


def add_rows(league: League, n: int, start: int = 0) -> None:
    """``n`` bots of the league's game with stored all-time lines (points 100, 99, ...)."""
    owner = league.organiser
    for i in range(start, start + n):
        bot = create_bot(owner=owner, game=league.game, name=f"bot-{i:02d}")
        LeagueStanding.objects.create(
            league=league, season=None, bot=bot, points=100 - i, matches=3, wins=1
        )


def test_the_list_pages_and_filters_by_game(
    api: APIClient, games: dict[str, Any], olga: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("A", "B", "C"):
        create_league(game=games["trnd"], name=name, organiser=olga, players_per_match=3)
    create_league(game=games["tri-area"], name="Tri", organiser=olga, players_per_match=3)
    monkeypatch.setattr(StrictPageNumberPagination, "page_size", 2)
    first = api.get("/api/leagues/?game=trnd").json()
    assert first["count"] == 3 and [lg["name"] for lg in first["results"]] == ["A", "B"]
    second = api.get(first["next"]).json()
    assert [lg["name"] for lg in second["results"]] == ["C"] and second["next"] is None
    row = second["results"][0]
    assert row["game"] == "trnd" and row["organiser"] == "olga" and row["is_active"] is True
    assert row["players_per_match"] == 3 and row["next_round_at"] is not None
    assert api.get("/api/leagues/?page=x").status_code == 404
    assert api.get("/api/leagues/?game=a%00b").status_code == 400
    assert api.get("/api/leagues/?game=tri-area").json()["count"] == 1


def test_detail_has_seasons_latest_round_and_table(
    api: APIClient, league: League, django_capture_on_commit_callbacks: Any
) -> None:
    demo_entrants(league.game, 3)  # three bots: one TRND table a round
    with django_capture_on_commit_callbacks(execute=True):  # the round's matches, played
        matches = run_league_round(league)
    assert matches
    body = api.get(f"/api/leagues/{league.pk}/").json()
    assert body["name"] == "Weekly" and body["rounds_played"] == 1
    assert body["current_season"] == 1
    assert [s["number"] for s in body["seasons"]] == [1]
    assert body["seasons"][0]["rounds_played"] == 1
    assert body["latest_round"] == {
        "number": 1,
        "total": len(matches),
        "finished": len(matches),
        "failed": 0,
        "pending": 0,
    }
    assert body["standings_season"] is None and body["standings"]
    table = body["standings"]
    assert [r["position"] for r in table] == list(range(1, len(table) + 1))
    assert sum(r["matches"] for r in table) == 3 * len(matches)
    points = [r["points"] for r in table]
    assert points == sorted(points, reverse=True)
    season = api.get(f"/api/leagues/{league.pk}/?season=1").json()
    assert season["standings_season"] == 1 and len(season["standings"]) == len(table)

    missing = api.get(f"/api/leagues/{league.pk}/?season=9")
    assert missing.status_code == 404 and "no season 9" in missing.json()["detail"]
    bad = api.get(f"/api/leagues/{league.pk}/?season=x")
    assert bad.status_code == 400 and "season" in bad.json()
    assert api.get("/api/leagues/999999/").status_code == 404


def test_the_detail_costs_the_same_queries_with_a_bigger_table(
    api: APIClient, league: League
) -> None:
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert api.get(f"/api/leagues/{league.pk}/").status_code == 200
        return len(captured.captured_queries)

    add_rows(league, 2)
    few = queries()
    add_rows(league, 8, start=2)
    assert queries() == few


def test_standings_page_through_the_whole_table(
    api: APIClient, league: League, monkeypatch: pytest.MonkeyPatch
) -> None:
    add_rows(league, 5)
    monkeypatch.setattr(StrictPageNumberPagination, "page_size", 2)
    first = api.get(f"/api/leagues/{league.pk}/standings/").json()
    assert first["count"] == 5
    assert [(r["position"], r["bot"]) for r in first["results"]] == [(1, "bot-00"), (2, "bot-01")]
    last = api.get(f"/api/leagues/{league.pk}/standings/?page=3").json()
    assert [(r["position"], r["bot"], r["points"]) for r in last["results"]] == [(5, "bot-04", 96)]
    assert last["results"][0]["owner"] == "olga" and last["results"][0]["wins"] == 1
    assert api.get(f"/api/leagues/{league.pk}/standings/?season=1").json()["count"] == 0
    assert api.get(f"/api/leagues/{league.pk}/standings/?season=2").status_code == 404


def test_create_needs_an_organiser_and_checks_as_the_form(
    api: APIClient, games: dict[str, Any], olga: Any, user: Any
) -> None:
    data = {"game": "trnd", "name": "Nightly", "every_hours": 12}
    assert api.post("/api/leagues/", data, format="json").status_code == 401
    denied = as_user(api, user).post("/api/leagues/", data, format="json")
    assert denied.status_code == 403 and "organisers" in denied.json()["detail"]

    made = as_user(api, olga).post("/api/leagues/", data, format="json")
    assert made.status_code == 201
    body = made.json()
    # 2 players is not a TRND table: the form's default, the nearest the game allows
    assert body["organiser"] == "olga" and body["players_per_match"] == 3
    assert body["every_hours"] == 12 and body["rounds_per_season"] == 30
    league = League.objects.get(pk=body["id"])
    assert league.seasons.count() == 1

    two = {**data, "players_per_match": 2}
    wrong = as_user(api, olga).post("/api/leagues/", two, format="json")
    assert wrong.status_code == 400
    assert wrong.json()["players_per_match"] == ["TRND is played by 3–5 players, not 2."]
    slow = as_user(api, olga).post("/api/leagues/", {**data, "every_hours": 0}, format="json")
    assert slow.status_code == 400 and "every_hours" in slow.json()


@pytest.mark.parametrize(
    ("who", "code"), [("anonymous", 401), ("user", 403), ("other", 403), ("olga", 202)]
)
def test_play_a_round_as_the_page_allows(
    api: APIClient,
    league: League,
    user: Any,
    who: str,
    code: int,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    sent: list[tuple[int, int]] = []
    monkeypatch.setattr(
        league_services, "send_by_name", lambda name, args: sent.append((name, *args))
    )
    callers = {"user": user, "other": organiser_named("oscar"), "olga": league.organiser}
    if who in callers:
        as_user(api, callers[who])
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(f"/api/leagues/{league.pk}/play/")
    assert response.status_code == code
    if code == 202:
        assert response.json()["round"] == 1 and sent == [(ROUND_NOW_TASK, league.pk, 1)]
    else:
        assert sent == []


def test_staff_may_play_any_round(
    api: APIClient, league: League, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(league_services, "send_by_name", lambda name, args: None)
    staff = get_user_model().objects.create_user("root", password="pw-root-123", is_staff=True)
    assert as_user(api, staff).post(f"/api/leagues/{league.pk}/play/").status_code == 202
    assert as_user(api, staff).get(f"/api/leagues/{league.pk}/play/").status_code == 405


def test_the_schema_documents_the_league_endpoints(api: APIClient, db: None) -> None:
    schema = api.get("/api/schema/?format=json").json()
    paths = schema["paths"]
    assert {"get", "post"} <= set(paths["/api/leagues/"])
    assert set(paths["/api/leagues/{id}/"]) == {"get"}
    assert set(paths["/api/leagues/{id}/standings/"]) == {"get"}
    assert set(paths["/api/leagues/{id}/play/"]) == {"post"}
    detail = paths["/api/leagues/{id}/"]["get"]
    assert "season" in {p["name"] for p in detail["parameters"]}
    ref = detail["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    props = schema["components"]["schemas"][ref.rsplit("/", 1)[1]]["properties"]
    assert {"seasons", "latest_round", "standings", "standings_season", "next_round_at"} <= set(
        props
    )
    standings = paths["/api/leagues/{id}/standings/"]["get"]
    assert {"season", "page"} <= {p["name"] for p in standings["parameters"]}
