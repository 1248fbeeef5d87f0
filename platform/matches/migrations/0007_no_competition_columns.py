"""A match no longer holds its tournament, league or round: competitions keeps them in its own
table (``competitions.0006`` copies them there first, and runs before this one)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0006_league_indexes"),
    ]

    operations = [
        migrations.RemoveIndex(model_name="match", name="match_league_round"),
        migrations.RemoveIndex(model_name="match", name="match_league_id"),
        migrations.RemoveField(model_name="match", name="league"),
        migrations.RemoveField(model_name="match", name="round"),
        migrations.RemoveField(model_name="match", name="tournament"),
    ]
