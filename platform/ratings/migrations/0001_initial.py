# Rating moves here from competitions (same table, same rows); RatingChange is new.

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("bots", "0001_initial"),
        ("catalog", "0001_initial"),
        ("competitions", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Rating",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("elo", models.FloatField(default=1500.0)),
                        ("mu", models.FloatField(default=25.0)),
                        ("sigma", models.FloatField(default=8.333333333333334)),
                        ("ordinal", models.FloatField(db_index=True, default=0.0)),
                        ("matches_played", models.PositiveIntegerField(default=0)),
                        ("provisional", models.BooleanField(default=True)),
                        ("updated_at", models.DateTimeField(auto_now=True)),
                        ("bot", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="ratings", to="bots.bot")),
                        ("game", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="ratings", to="catalog.game")),
                    ],
                    options={
                        "db_table": "competitions_rating",
                        "ordering": ["-ordinal", "-elo"],
                        "constraints": [models.UniqueConstraint(fields=("bot", "game"), name="rating_unique_bot_game")],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
