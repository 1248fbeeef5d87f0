"""The move of a match's tournament, league and round to ``competitions.CompetitionMatch``
keeps every row: migrate to the state before, write matches the old way, migrate forward and
find their links (in batches), then back again and find the columns restored."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test.utils import CaptureQueriesContext

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [
    ("competitions", "0005_existing_leagues_to_seasons"),
    ("matches", "0006_league_indexes"),
]
AFTER = [
    ("competitions", "0006_competitionmatch"),
    ("matches", "0007_no_competition_columns"),
]
MOVE = importlib.import_module("competitions.migrations.0006_competitionmatch")


def _migrate(targets: list[tuple[str, str]]) -> Any:
    """Migrate to ``targets``; the models as they were there."""
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


def _leaf() -> list[tuple[str, str]]:
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def test_links_are_copied_and_copied_back(games: Any, django_user_model: Any, monkeypatch: Any):
    from competitions.models import League, Tournament

    game = games["trnd"]
    organiser = django_user_model.objects.create_user("org")
    t = Tournament.objects.create(game=game, name="Cup", organiser=organiser)
    lg = League.objects.create(game=game, name="Weekly")
    monkeypatch.setattr(MOVE, "BATCH", 3)  # several batches and a last short one
    try:
        old = _migrate(BEFORE)
        OldMatch = old.get_model("matches", "Match")
        made = {
            "cup": [
                OldMatch.objects.create(game_id=game.pk, tournament_id=t.pk, round=r).pk
                for r in (0, 0, 1, 1, 2, 3, 3)
            ],
            "league": [
                OldMatch.objects.create(game_id=game.pk, league_id=lg.pk, round=r).pk
                for r in (1, 1, 2, 3, 4)
            ],
            # a match of no competition, and one whose league was deleted (its key set null)
            "none": [
                OldMatch.objects.create(game_id=game.pk).pk,
                OldMatch.objects.create(game_id=game.pk, kind="league", round=7).pk,
            ],
        }
        rounds = dict(OldMatch.objects.values_list("pk", "round"))

        with CaptureQueriesContext(connection) as forward:
            new = _migrate(AFTER)
        Link = new.get_model("competitions", "CompetitionMatch")
        links = {
            pk: (tournament, league, rnd)
            for pk, tournament, league, rnd in Link.objects.values_list(
                "match_id", "tournament_id", "league_id", "round"
            )
        }
        assert links == {
            **{pk: (t.pk, None, rounds[pk]) for pk in made["cup"]},
            **{pk: (None, lg.pk, rounds[pk]) for pk in made["league"]},
        }
        inserts = [
            q["sql"]
            for q in forward.captured_queries
            if q["sql"].startswith('INSERT INTO "competitions_competitionmatch"')
        ]
        assert len(inserts) == 4  # 12 links, 3 a query
        assert new.get_model("matches", "Match").objects.count() == 14

        old = _migrate(BEFORE)
        columns = old.get_model("matches", "Match").objects.values_list(
            "pk", "tournament_id", "league_id", "round"
        )
        back = {pk: (tournament, league, rnd) for pk, tournament, league, rnd in columns}
        assert {pk: v for pk, v in back.items() if pk not in made["none"]} == links
        assert back[made["none"][0]] == (None, None, 0)
    finally:
        _migrate(_leaf())
