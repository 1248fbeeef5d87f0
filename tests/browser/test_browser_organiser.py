"""An organiser in a real browser: "Start" turns the tournament page into a running one
without a reload, and the league form's players field follows the chosen game."""

from __future__ import annotations

from typing import Any

import pytest
from catalog.services import sync_games
from competitions.management.commands.demo import demo_entrants
from competitions.models import League, Tournament, TournamentStatus
from competitions.tournaments import services as tournament_services
from competitions.tournaments.services import create_tournament, start_tournament
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from playwright.sync_api import expect

from .conftest import shoot

PASSWORD = "pw-for-the-organiser-123"


@pytest.fixture
def organiser(transactional_db: None) -> Any:
    user = get_user_model().objects.create_user("olga", password=PASSWORD)
    group, _ = Group.objects.get_or_create(name="organisers")
    user.groups.add(group)
    return user


def log_in(page: Any, username: str) -> None:
    page.goto("/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url("**/")


def test_start_turns_the_page_to_running_without_a_reload(
    csp_page: Any, organiser: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = csp_page
    game = {g.slug: g for g in sync_games()}["manhattan-traffiq"]
    t = create_tournament(
        organiser=organiser,
        game=game,
        name="Autumn Cup",
        entrants=demo_entrants(game, 2)[:3],
        players_per_match=2,
        games_per_pairing=1,
        seed=5,
    )
    # The worker has not picked the start up yet (as with a real broker): the task is held
    # here and run by the test once the page shows "Starting".
    held: list[int] = []
    monkeypatch.setattr(tournament_services, "send_by_name", lambda name, args: held.extend(args))
    log_in(page, "olga")
    page.goto(f"/tournaments/{t.pk}/")
    badge = page.locator("#tournament-live h1 .badge")
    expect(badge).to_have_text("Draft")
    page.get_by_role("button", name="Start the tournament").click()
    page.wait_for_url(f"**/tournaments/{t.pk}/")
    expect(badge).to_have_text("Starting")
    expect(page.get_by_role("button", name="Start the tournament")).to_have_count(0)
    assert held == [t.pk]

    # Any later navigation would drop this marker: the page must update in place.
    page.evaluate("window.__notReloaded = true")
    start_tournament(Tournament.objects.get(pk=t.pk))  # the worker's part; matches run inline
    assert Tournament.objects.get(pk=t.pk).status == TournamentStatus.FINISHED
    expect(badge).to_have_text("Finished")
    live = page.locator("#tournament-live")
    expect(live.locator("progress")).to_have_attribute("value", "3")
    standings = live.get_by_role("table", name="Standings")
    expect(standings).to_contain_text(demo_entrants(game, 2)[0].bot.name)
    assert page.evaluate("window.__notReloaded") is True
    expect(page.get_by_role("button", name="Start the tournament")).to_have_count(0)
    shoot(page, "tournament-started")


def test_league_form_players_default_follows_the_game(page: Any, organiser: Any) -> None:
    games = {g.slug: g for g in sync_games()}
    log_in(page, "olga")
    page.goto("/tournaments/leagues/new/")
    players = page.locator("#id_players_per_match")
    # The first game listed (by name) is Manhattan TraffIQ, for 2-4 players.
    expect(page.locator("#id_game")).to_have_value(str(games["manhattan-traffiq"].pk))
    expect(players).to_have_value("2")
    page.select_option("#id_game", str(games["trnd"].pk))  # TRND: 3-5 players
    expect(players).to_have_value("3")
    expect(players).to_have_attribute("min", "3")
    expect(page.locator("#id_players_per_match_helptext")).to_have_text(
        "TRND is played by 3–5 players."
    )
    page.fill("#id_name", "Nightly TRND")
    page.get_by_role("button", name="Create the league").click()
    page.wait_for_url("**/tournaments/leagues/*/")
    league = League.objects.get(name="Nightly TRND")
    assert league.players_per_match == 3 and league.game.slug == "trnd"

    # A number the organiser typed stays when it suits the next game; one that does not
    # is replaced by that game's default.
    page.goto("/tournaments/leagues/new/")
    page.select_option("#id_game", str(games["trnd"].pk))
    players.fill("5")
    page.select_option("#id_game", str(games["tri-area"].pk))  # 1-4 players
    expect(players).to_have_value("2")
    players.fill("4")
    page.select_option("#id_game", str(games["trishaw-frenzy"].pk))  # 1-4 players
    expect(players).to_have_value("4")
    shoot(page, "league-new")
