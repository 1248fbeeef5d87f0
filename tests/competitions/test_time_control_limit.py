"""A time control is checked against the match time limit wherever it is set (the rule:
``arena.contract.TimeControl.check_fits``): one whose worst case (the start, then one decision
spending its move time and the whole bank) cannot fit is refused with the reason, on the
tournament form (a form error), the API (a 400) and ``create_match``. Before, a tournament on a
site with a 20 s limit took ``move_ms=30000``, and one decision could hold a worker past it."""

from __future__ import annotations

from typing import Any

import pytest
from bots.models import BotVersion
from catalog.models import Game
from competitions.models import Tournament
from competitions.tournaments.services import create_tournament
from django.core.exceptions import ValidationError
from django.test import Client
from matches.models import Match
from matches.services import create_match
from rest_framework.test import APIClient

from arena.contract import TimeControl

LIMIT_S = 20
#: Within the site's own caps (a move 60 s, a bank the limit's share), past a 20 s match limit.
TOO_LONG = {"move_ms": 30_000, "bank_ms": 1000}
REASON = "does not fit the match time limit of 20 s"


@pytest.fixture
def short_limit(settings: Any) -> None:
    settings.ARENA_MATCH_TIME_LIMIT_S = LIMIT_S


@pytest.mark.parametrize(
    ("control", "fits"),
    [
        (TimeControl(), True),  # 16 s
        (TimeControl(start_ms=5000, move_ms=5000, bank_ms=10_000), True),  # exactly 20 s
        (TimeControl(start_ms=5000, move_ms=5001, bank_ms=10_000), False),
        (TimeControl(start_ms=0, move_ms=300_000, bank_ms=0), False),  # the finding's
        (TimeControl(start_ms=21_000, move_ms=1, bank_ms=0), False),
        (TimeControl(start_ms=0, move_ms=0, bank_ms=21_000), False),
    ],
)
def test_the_rule(control: TimeControl, fits: bool) -> None:
    if fits:
        control.check_fits(LIMIT_S)
    else:
        with pytest.raises(ValueError, match=REASON):
            control.check_fits(LIMIT_S)


def test_a_tournament_refuses_it(organiser: Any, trnd: Game, short_limit: None) -> None:
    with pytest.raises(ValidationError, match=REASON):
        create_tournament(
            organiser=organiser, game=trnd, name="Cup", players_per_match=3, time_control=TOO_LONG
        )
    assert not Tournament.objects.exists()
    fits = {"start_ms": 2000, "move_ms": 3000, "bank_ms": 5000}
    t = create_tournament(
        organiser=organiser, game=trnd, name="Cup", players_per_match=3, time_control=fits
    )
    assert t.time_control == fits


def test_the_api_answers_400(organiser: Any, trnd: Game, short_limit: None) -> None:
    client = APIClient()
    client.force_authenticate(organiser)
    data = {"game": "trnd", "name": "x", "players_per_match": 3, "time_control": TOO_LONG}
    answer = client.post("/api/tournaments/", data, format="json")
    assert answer.status_code == 400, answer.content
    assert REASON in answer.content.decode()
    assert not Tournament.objects.exists()


def test_the_form_says_why(organiser: Any, trnd: Game, short_limit: None) -> None:
    client = Client()
    client.force_login(organiser)
    answer = client.post(
        "/tournaments/new/?game=trnd",
        {
            "name": "Class 4B",
            "players_per_match": 3,
            "games_per_pairing": 1,
            "opt_target_score": 0,
            "opt_max_rounds": 30,
            "opt_scoring": "linear",
            "visibility": "public",
            "entry_policy": "anyone",
            "entries_close_at": "2031-03-01T18:00",
            "tz": "Europe/Paris",
            "entries_per_user": 1,
            "round_spacing_hours": 0,
            "time_move_ms": TOO_LONG["move_ms"],
            "time_bank_ms": TOO_LONG["bank_ms"],
        },
    )
    assert answer.status_code == 400
    assert REASON in answer.content.decode()
    assert not Tournament.objects.exists()


def test_create_match_refuses_it(
    trnd: Game, three_versions: list[BotVersion], short_limit: None
) -> None:
    versions = three_versions
    with pytest.raises(ValidationError, match=REASON):
        create_match(game=trnd, versions=versions, seed=1, time_control=TOO_LONG)
    assert not Match.objects.exists()
    # The site's default is the operator's own choice: never refused here.
    assert create_match(game=trnd, versions=versions, seed=1).time_control
