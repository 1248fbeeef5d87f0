"""What a visitor sees: the home page's games and links, a game's leaderboard, the match list."""

from __future__ import annotations

import re
from typing import Any

import pytest
from bots.services import ensure_builtin_bots
from catalog.services import sync_games
from competitions.management.commands.demo import demo_entrants
from competitions.tournaments.services import create_tournament, start_tournament
from matches.models import Match, MatchStatus
from matches.services import create_match, dispatch_match
from ratings.models import Rating

from .conftest import shoot

GAME_NAMES = ("TRND", "Tri*Area", "Trishaw Frenzy", "Manhattan TraffIQ")


@pytest.fixture
def tri_match(transactional_db: None) -> Match:
    games = {g.slug: g for g in sync_games()}
    versions = [b.latest_version() for b in ensure_builtin_bots(games["tri-area"])]
    match = dispatch_match(create_match(game=games["tri-area"], versions=versions, seed=4))
    assert match.status == MatchStatus.FINISHED
    return match


def test_home_shows_the_four_games_and_its_links_work(page: Any, tri_match: Match) -> None:
    page.goto("/")
    shoot(page, "home")
    cards = page.locator(".game-card")
    assert sorted(cards.locator("h3").all_inner_texts()) == sorted(GAME_NAMES)
    assert "arena new-bot" in page.locator("main").inner_text()

    # A game's card leads to its page.
    page.get_by_role("link", name="Tri*Area", exact=True).first.click()
    page.wait_for_url("**/games/tri-area/")
    assert page.locator("h1").inner_text().startswith("Tri*Area")

    # The latest match on the home page opens the match.
    page.goto("/")
    page.locator(f'a[href="/matches/{tri_match.pk}/"]').first.click()
    page.wait_for_url(f"**/matches/{tri_match.pk}/")
    assert f"Match #{tri_match.pk}" in page.locator("h1").inner_text()

    # Every link of the top bar answers with a page that has a title, never an error.
    for name, heading in (
        ("Games", "Games"),
        ("Matches", "Matches"),
        ("Tournaments", "Tournaments"),
    ):
        page.locator("header.site").get_by_role("link", name=name, exact=True).click()
        page.wait_for_load_state()
        assert page.locator("h1").inner_text() == heading
    page.locator("header.site .brand").click()
    page.wait_for_url(re.compile(r"/$"))
    assert page.locator(".game-card").count() == 4


def test_leaderboard_after_a_tournament(page: Any, transactional_db: None) -> None:
    game = next(g for g in sync_games() if g.slug == "tri-area")
    entrants = demo_entrants(game, players=2)
    tournament = create_tournament(
        organiser=entrants[0].bot.owner,
        game=game,
        name="Cup",
        entrants=entrants,
        players_per_match=2,
        seed=7,
    )
    matches = start_tournament(tournament)
    assert matches and all(
        m.status == MatchStatus.FINISHED
        for m in Match.objects.filter(competition_link__tournament=tournament)
    )

    page.goto("/games/tri-area/")
    shoot(page, "game")
    rows = page.locator("table.leaderboard tbody tr")
    expected = list(Rating.objects.filter(game=game).order_by("-ordinal", "-elo", "bot__name"))
    assert rows.count() == len(expected) == len(entrants)
    for row, rating in zip(rows.all(), expected, strict=True):
        cells = row.locator("td")
        assert rating.bot.name in cells.nth(1).inner_text()
        assert cells.nth(3).inner_text() == f"{rating.elo:.0f}"
        assert cells.nth(-1).inner_text() == str(rating.matches_played)
    skills = [float(t.replace("−", "-")) for t in rows.locator("td.skill").all_inner_texts()]
    assert skills == sorted(skills, reverse=True)

    # The matches count links to that bot's matches; the bot's name to its page.
    best = expected[0]
    rows.first.locator("td").nth(-1).get_by_role("link").click()
    page.wait_for_url(f"**/matches/?bot={best.bot_id}")
    shown = page.locator("table.matches tbody tr")
    assert shown.count() == best.matches_played
    page.go_back()
    rows.first.get_by_role("link", name=best.bot.name).click()
    page.wait_for_url(f"**/bots/{best.bot_id}/")
    assert best.bot.name in page.locator("h1").inner_text()


def test_match_list_filters_by_game(page: Any, tri_match: Match) -> None:
    from catalog.models import Game

    trnd = Game.objects.get(slug="trnd")
    versions = demo_entrants(trnd, players=trnd.min_players)[: trnd.min_players]
    trnd_match = dispatch_match(create_match(game=trnd, versions=versions, seed=1))
    page.goto("/matches/")
    shoot(page, "matches")
    links = page.locator("table.matches tbody tr td:first-child a")
    assert set(links.all_inner_texts()) == {f"#{tri_match.pk}", f"#{trnd_match.pk}"}
    page.select_option("#f-game", label="Tri*Area")
    page.get_by_role("button", name="Filter").click()
    page.wait_for_url("**game=tri-area**")
    assert links.all_inner_texts() == [f"#{tri_match.pk}"]
    assert page.locator("#f-game").input_value() == "tri-area"
