"""The ladder tells the worker's sandbox refusal from other platform errors by the match's
error kind (``arena.contract.ErrorKind``), never by its sentence: a refusal makes a
qualifying version wait for a sandbox and never counts toward a hold; any other platform
error counts, whatever its words."""

from __future__ import annotations

from typing import Any

import pytest
from bots.models import Bot, BotVersion, VersionStatus
from bots.services import ensure_builtin_bots
from catalog.models import Game
from catalog.services import sync_games
from django.contrib.auth import get_user_model
from ladder.error_streaks import count_match, error_limit
from ladder.models import LadderMatch
from ladder.qualification import qualification_done
from matches.models import ErrorKind, Match, MatchKind, MatchStatus
from matches.services import create_match

pytestmark = pytest.mark.django_db

REFUSAL = "match refused: the process sandbox is not a security boundary: it may only run yours"


@pytest.fixture
def trnd(db: None) -> Game:
    return next(g for g in sync_games() if g.slug == "trnd")


@pytest.fixture
def uploaded(trnd: Game) -> BotVersion:
    owner = get_user_model().objects.create_user("carol", password="pw-carol-123")
    bot = Bot.objects.create(owner=owner, game=trnd, name="mine")
    return bot.versions.create(number=1, status=VersionStatus.QUALIFYING)


def _errored(trnd: Game, version: BotVersion, error: str, kind: Any) -> Match:
    builtins = [b.latest_version() for b in ensure_builtin_bots(trnd)]
    match = create_match(
        game=trnd, versions=[version, *builtins[:2]], kind=MatchKind.QUALIFICATION, rated=False
    )
    Match.objects.filter(pk=match.pk).update(status=MatchStatus.ERROR, error=error, error_kind=kind)
    match.refresh_from_db()
    return match


def test_a_refusal_never_counts_toward_a_hold(trnd: Game, uploaded: BotVersion) -> None:
    BotVersion.objects.filter(pk=uploaded.pk).update(error_streak=error_limit() - 1)
    assert count_match(_errored(trnd, uploaded, REFUSAL, ErrorKind.NO_BOUNDARY)) == []
    uploaded.refresh_from_db()
    assert uploaded.error_streak == error_limit() - 1 and uploaded.held_at is None


@pytest.mark.parametrize("kind", [k for k in ErrorKind if k is not ErrorKind.NO_BOUNDARY])
def test_every_other_platform_error_counts_whatever_its_words(
    trnd: Game, uploaded: BotVersion, kind: ErrorKind
) -> None:
    """The same sentence with another kind (an engine's message quoting it, say) counts."""
    BotVersion.objects.filter(pk=uploaded.pk).update(error_streak=error_limit() - 1)
    assert count_match(_errored(trnd, uploaded, REFUSAL, kind)) == [uploaded.pk]


def test_a_refused_qualification_waits_for_a_sandbox(trnd: Game, uploaded: BotVersion) -> None:
    match = _errored(trnd, uploaded, REFUSAL, ErrorKind.NO_BOUNDARY)
    qualification_done(
        LadderMatch.objects.create(
            match=match, game=trnd, kind=MatchKind.QUALIFICATION, version=uploaded
        ),
        match,
    )
    uploaded.refresh_from_db()
    assert uploaded.status == VersionStatus.WAITING_SANDBOX
    assert uploaded.status_reason == REFUSAL


def test_another_failed_qualification_is_tried_again(trnd: Game, uploaded: BotVersion) -> None:
    match = _errored(trnd, uploaded, REFUSAL, ErrorKind.WORKER)
    qualification_done(
        LadderMatch.objects.create(
            match=match, game=trnd, kind=MatchKind.QUALIFICATION, version=uploaded
        ),
        match,
    )
    uploaded.refresh_from_db()
    assert uploaded.status == VersionStatus.UPLOADED
    assert "tried again" in uploaded.status_reason
