"""The new league's form: its players default follows the game, and it names the one thing
that plays the rounds (beat)."""

from __future__ import annotations

from typing import Any

from catalog.models import Game
from competitions.leagues.forms import LEAGUE_SCHEDULE_HELP, LeagueForm
from django.test import Client


def test_league_form_defaults_to_a_table_size_the_game_allows(games: dict[str, Game]) -> None:
    form = LeagueForm()
    first = form.fields["game"].queryset.first()  # type: ignore[attr-defined]
    assert form.fields["players_per_match"].initial == first.clamp_players(2)
    trnd = games["trnd"]
    sent = LeagueForm({"game": trnd.pk, "name": "L", "every_hours": 24, "is_active": "on"})
    assert sent.fields["players_per_match"].initial == 3
    assert sent.fields["players_per_match"].widget.attrs["min"] == 3
    assert sent.is_valid(), sent.errors
    assert sent.cleaned_data["players_per_match"] == 3  # blank: the game's default
    refused = LeagueForm({"game": trnd.pk, "name": "L", "every_hours": 24, "players_per_match": 2})
    assert not refused.is_valid()
    assert refused.errors["players_per_match"] == ["TRND is played by 3–5 players, not 2."]
    html = str(LeagueForm()["game"])
    assert f'value="{trnd.pk}" data-min="3" data-max="5" data-default="3"' in html


def test_league_form_names_one_thing_that_plays_the_rounds(client: Client, organiser: Any):
    client.force_login(organiser)
    html = client.get("/tournaments/leagues/new/").content.decode()
    assert "cron" not in html and "run_leagues" not in html
    assert "celery -A meeple beat" in html and "manage.py serve" in html
    assert "beat" in LEAGUE_SCHEDULE_HELP
    assert "cron" not in client.get("/tournaments/leagues/").content.decode()
