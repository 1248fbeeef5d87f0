"""The draft's Start button says what pressing it early does: a tournament that starts by
itself says when (pressing Start need not wait for it), and one whose users enter their own
bots says that starting closes entries; an organisers' field with no start time says neither."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from catalog.models import Game
from competitions.models import EntryPolicy
from competitions.tournaments.services import create_tournament
from django.test import Client
from django.utils import timezone


def start_note(organiser: Any, game: Game, **kw: Any) -> str:
    t = create_tournament(
        organiser=organiser, game=game, name="Friday cup", players_per_match=3, **kw
    )
    client = Client()
    client.force_login(organiser)
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert "Start the tournament" in page
    return page.split("Start the tournament", 1)[1].split("</form>", 1)[0]


def test_the_start_button_says_it_closes_entries_and_when_it_would_start(
    organiser: Any, trnd: Game
) -> None:
    when = timezone.now() + timedelta(days=3)
    note = start_note(
        organiser, trnd, entry_policy=EntryPolicy.ANYONE, entries_close_at=when, start_at=when
    )
    assert "Or wait: it starts by itself at" in note and when.strftime("%Y-%m-%d") in note
    assert "Starting closes entries." in note


def test_an_organisers_field_without_a_start_time_says_neither(organiser: Any, trnd: Game) -> None:
    note = start_note(organiser, trnd)
    assert "starts by itself" not in note and "closes entries" not in note
