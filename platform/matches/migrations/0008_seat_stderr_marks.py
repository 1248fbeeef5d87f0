"""Which part of a seat's stderr each decision wrote (issue 21: per-decision logs). Seats
recorded before have none: an empty list, as the replay format reads a missing ``log_marks``."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0007_no_competition_columns"),
    ]

    operations = [
        migrations.AddField(
            model_name="matchseat",
            name="stderr_marks",
            field=models.JSONField(blank=True, default=list),
        ),
    ]
