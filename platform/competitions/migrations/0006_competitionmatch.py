"""A match's tournament or league (and round) moves from the match's row to this app's
CompetitionMatch, rows kept: the table is created, every linked match's link copied in batches
(bounded memory at any size), then ``matches.0007`` drops the match's columns. Backwards, the
links are copied back onto the matches before the table goes."""

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import Q

import competitions.models

#: Rows read and written per query.
BATCH = 2000


def link_matches(apps, schema_editor):
    Match = apps.get_model("matches", "Match")
    CompetitionMatch = apps.get_model("competitions", "CompetitionMatch")
    db = schema_editor.connection.alias
    rows = (
        Match.objects.using(db)
        .filter(Q(tournament__isnull=False) | Q(league__isnull=False))
        .order_by("pk")
        .values_list("pk", "tournament_id", "league_id", "round")
    )
    batch = []
    for pk, tournament_id, league_id, round_ in rows.iterator(chunk_size=BATCH):
        # Exactly one competition per link: no code ever set both; a tournament would win.
        batch.append(
            CompetitionMatch(
                match_id=pk,
                tournament_id=tournament_id,
                league_id=None if tournament_id else league_id,
                round=round_,
            )
        )
        if len(batch) == BATCH:
            CompetitionMatch.objects.using(db).bulk_create(batch)
            batch = []
    CompetitionMatch.objects.using(db).bulk_create(batch)


def unlink_matches(apps, schema_editor):
    Match = apps.get_model("matches", "Match")
    CompetitionMatch = apps.get_model("competitions", "CompetitionMatch")
    db = schema_editor.connection.alias
    links = (
        CompetitionMatch.objects.using(db)
        .order_by("pk")
        .values_list("pk", "tournament_id", "league_id", "round")
    )
    batch = []
    for pk, tournament_id, league_id, round_ in links.iterator(chunk_size=BATCH):
        batch.append(Match(pk=pk, tournament_id=tournament_id, league_id=league_id, round=round_))
        if len(batch) == BATCH:
            Match.objects.using(db).bulk_update(batch, ["tournament", "league", "round"])
            batch = []
    Match.objects.using(db).bulk_update(batch, ["tournament", "league", "round"])


class Migration(migrations.Migration):
    dependencies = [
        ("competitions", "0005_existing_leagues_to_seasons"),
        ("matches", "0006_league_indexes"),
    ]
    # The copy reads the match's columns: it runs before matches drops them (declared here, so
    # that matches' own migration names no competitions migration).
    run_before = [("matches", "0007_no_competition_columns")]

    operations = [
        migrations.CreateModel(
            name="CompetitionMatch",
            fields=[
                (
                    "match",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="competition_link",
                        serialize=False,
                        to="matches.match",
                    ),
                ),
                ("round", models.PositiveIntegerField(default=0)),
                (
                    "league",
                    models.ForeignKey(
                        blank=True,
                        db_index=False,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="match_links",
                        to="competitions.league",
                    ),
                ),
                (
                    "tournament",
                    models.ForeignKey(
                        blank=True,
                        db_index=False,
                        null=True,
                        on_delete=competitions.models.delete_with_matches,
                        related_name="match_links",
                        to="competitions.tournament",
                    ),
                ),
            ],
            options={
                "indexes": [
                    models.Index(fields=["tournament", "round"], name="competitionmatch_t_round"),
                    models.Index(fields=["league", "round"], name="competitionmatch_l_round"),
                    models.Index(fields=["league", "-match"], name="competitionmatch_l_match"),
                ],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(
                            models.Q(("league__isnull", True), ("tournament__isnull", False)),
                            models.Q(("league__isnull", False), ("tournament__isnull", True)),
                            _connector="OR",
                        ),
                        name="competitionmatch_one_competition",
                    )
                ],
            },
        ),
        migrations.RunPython(link_matches, unlink_matches, elidable=False),
    ]
