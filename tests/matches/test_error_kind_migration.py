"""Matches stored before error kinds had only their sentence: the migration that adds
``Match.error_kind`` reads each stored error's kind from it, once, so that the ladder and the
site read the kind alone afterwards."""

from __future__ import annotations

import importlib

import pytest
from catalog.services import sync_games
from django.apps import apps
from matches.errors import PLAY_FAILED, SETUP_FAILED, took_too_long
from matches.models import ErrorKind, Match, MatchStatus

pytestmark = pytest.mark.django_db

migration = importlib.import_module("matches.migrations.0011_match_error_kind")


def test_stored_errors_get_their_kind_from_their_sentence() -> None:
    game = next(g for g in sync_games() if g.slug == "trnd")
    stored = {
        "match refused: the process sandbox is not a security boundary: ...": "no_boundary",
        "match refused: the bot's code could not be unpacked": "refused",
        took_too_long(900): "time_limit",
        SETUP_FAILED: "setup",
        "no worker finished this match in 3 attempts": "lost",
        PLAY_FAILED: "",  # its kind was never told: unknown
    }
    for error in stored:
        Match.objects.create(game=game, status=MatchStatus.ERROR, error=error)
    Match.objects.create(game=game, status=MatchStatus.QUEUED, error="match refused: earlier")
    migration.kinds_from_sentences(apps, None)
    got = dict(Match.objects.filter(status=MatchStatus.ERROR).values_list("error", "error_kind"))
    assert got == stored
    assert Match.objects.get(status=MatchStatus.QUEUED).error_kind == ""
    assert {k for k in stored.values() if k} <= {k.value for k in ErrorKind}
