"""The stand-in for a person (each game's ``human`` version, status ``person``) seats people
on the play page and nowhere else: no bot list, ladder, qualification, tournament or match of
bots ever picks it, since its seat would wait for a person nobody sent."""

from __future__ import annotations

from typing import Any

import pytest
from bots.models import BotVersion, VersionStatus
from bots.selectors import bots_for_game, bots_search
from bots.services import person_version
from catalog.models import Game
from competitions.tournaments.forms import TournamentForm
from django.core.exceptions import ValidationError
from django.utils import timezone
from ladder import entries, qualification
from ladder import services as ladder
from ladder.models import LadderEntry
from matches.models import MatchKind
from matches.services import create_match
from play.selectors import opponents
from rest_framework.test import APIClient


@pytest.fixture
def person(trnd: Game, builtin_versions: list[BotVersion]) -> BotVersion:
    version = person_version(trnd)
    assert version.status == VersionStatus.PERSON and version == person_version(trnd)
    return version


def test_no_list_shows_it(person: BotVersion, trnd: Game, user: Any) -> None:
    assert person.bot not in bots_for_game(trnd)
    assert person.bot not in bots_search(game="trnd")
    assert person not in opponents(trnd)
    assert {b.pk for b in bots_for_game(trnd)} == {v.bot_id for v in opponents(trnd)}
    api = APIClient()
    names = [b["name"] for b in api.get("/api/bots/?game=trnd").json()["results"]]
    assert names and "human" not in names
    entrants = TournamentForm(game=trnd).fields["entrants"].queryset  # type: ignore[attr-defined]
    assert "human" not in [v.bot.name for v in entrants]


def test_no_ladder_or_qualification_picks_it(person: BotVersion, trnd: Game) -> None:
    entries.ensure_entries(trnd)
    assert LadderEntry.objects.filter(game=trnd).exists()
    assert not LadderEntry.objects.filter(bot=person.bot).exists()
    seated = {c.bot_id for c in ladder.candidates(trnd, timezone.now())}
    assert person.bot_id not in seated
    for _ in range(5):
        assert person not in qualification._qualification_opponents(trnd, 3)


def test_only_a_match_with_people_seats_it(
    person: BotVersion, trnd: Game, builtin_versions: list[BotVersion], user: Any
) -> None:
    bots = builtin_versions[:2]
    for kind in (None, MatchKind.LADDER, MatchKind.QUALIFICATION):
        with pytest.raises(ValidationError, match="play page"):
            create_match(game=trnd, versions=[person, *bots], kind=kind)
    match = create_match(game=trnd, versions=[person, *bots], kind=MatchKind.HUMAN, rated=False)
    assert match.seats.get(seat=0).bot_version == person
    # The API of organisers: a clear 400, no tournament.
    user.is_staff = True
    user.save()
    api = APIClient()
    api.force_authenticate(user)
    r = api.post(
        "/api/tournaments/",
        {"game": "trnd", "name": "with a ghost", "entrants": [person.pk, *(v.pk for v in bots)]},
        format="json",
    )
    assert r.status_code == 400 and "entrants" in r.json(), r.content
