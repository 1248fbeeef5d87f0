"""A competition's own settings (issue 22, item 4 and the new fields of item 1): checked when
it is created, defaults as documented, and its time control and options carried to every
match it schedules."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from bots.models import Bot, BotVersion
from catalog.models import Game
from competitions.models import EntryPolicy, Visibility
from competitions.tournaments.services import create_tournament, start_tournament
from competitions.tournaments.settings import MAX_MOVE_MS
from django.core.exceptions import ValidationError
from django.utils import timezone

TIME = {"start_ms": 3000, "move_ms": 250, "bank_ms": 4000}


def make(organiser: Any, game: Game, **kw: Any) -> Any:
    return create_tournament(organiser=organiser, game=game, name="Cup", players_per_match=3, **kw)


def test_defaults(organiser: Any, trnd: Game) -> None:
    t = make(organiser, trnd)
    assert (t.visibility, t.entry_policy, t.entries_per_user) == ("public", "organiser", 1)
    assert t.time_control == {} and t.rated_on_ladder is True
    assert t.start_at is None and t.max_entries is None and t.round_spacing_hours == 0


def test_the_start_defaults_to_the_close_of_entries(organiser: Any, trnd: Game) -> None:
    closes = timezone.now() + timedelta(days=2)
    t = make(organiser, trnd, entries_close_at=closes, entry_policy=EntryPolicy.ANYONE)
    assert t.start_at == closes
    later = closes + timedelta(hours=3)
    assert make(organiser, trnd, entries_close_at=closes, start_at=later).start_at == later


def test_private_is_unrated_on_the_ladder_unless_asked(organiser: Any, trnd: Game) -> None:
    assert make(organiser, trnd, visibility=Visibility.PRIVATE).rated_on_ladder is False
    rated = make(organiser, trnd, visibility=Visibility.PRIVATE, rated_on_ladder=True)
    assert rated.rated_on_ladder is True


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"visibility": "secret"}, "Unknown visibility"),
        ({"entry_policy": "everyone"}, "Unknown entry policy"),
        ({"entries_open_at": "+2", "entries_close_at": "+1"}, "open before they close"),
        ({"entries_close_at": "-1"}, "close before the tournament exists"),
        ({"start_at": "-1"}, "in the past"),
        ({"entries_close_at": "+2", "start_at": "+1"}, "cannot start before entries close"),
        ({"max_entries": 2}, "entry cap must be from 3"),
        ({"entries_per_user": 0}, "Entries per user"),
        ({"round_spacing_hours": 10_000}, "at most 336 hours"),
        ({"time_control": {"move_ms": -1}}, "move_ms must be a non-negative integer"),
        ({"time_control": {"think_ms": 5}}, "unknown keys"),
        ({"time_control": {"move_ms": 0, "bank_ms": 0}}, "cannot both be 0"),
        ({"time_control": {"move_ms": MAX_MOVE_MS + 1}}, "move_ms is at most"),
        ({"time_control": {"bank_ms": 10**9}}, "bank_ms is at most"),
    ],
)
def test_bad_settings_are_refused_with_a_reason(
    organiser: Any, trnd: Game, given: dict[str, Any], message: str
) -> None:
    now = timezone.now()
    for key, value in given.items():
        if isinstance(value, str) and value[0] in "+-":
            given[key] = now + timedelta(hours=int(value))
    with pytest.raises(ValidationError, match=message):
        make(organiser, trnd, **given)


def test_entrants_over_the_cap_are_refused(
    organiser: Any, trnd: Game, three_versions: list[BotVersion]
) -> None:
    fourth = Bot.objects.create(owner=organiser, game=trnd, name="fourth")
    four = [*three_versions, fourth.versions.create(number=1, builtin_name="random")]
    with pytest.raises(ValidationError, match="more than the cap"):
        make(organiser, trnd, entrants=four, max_entries=3)


def test_time_control_and_options_reach_every_match(
    organiser: Any, trnd: Game, three_versions: list[BotVersion]
) -> None:
    options = {"target_score": 0, "max_rounds": 12, "scoring": "linear"}
    t = make(organiser, trnd, entrants=three_versions, time_control=TIME, options=options)
    assert t.time_control == TIME
    matches = start_tournament(t, dispatch=False)
    assert matches
    for m in matches:
        m.refresh_from_db()
        assert m.time_control == TIME
        assert m.options["max_rounds"] == 12


def test_a_partial_time_control_is_stored_whole(organiser: Any, trnd: Game) -> None:
    t = make(organiser, trnd, time_control={"move_ms": 200})
    assert t.time_control == {"start_ms": 5000, "move_ms": 200, "bank_ms": 10000}
