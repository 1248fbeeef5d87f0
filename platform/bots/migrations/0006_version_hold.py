"""A version's streak of matches that ended in a platform error, and its hold for staff
review once the streak reaches ``ARENA_VERSION_ERROR_LIMIT`` (``ladder.holds``)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("bots", "0005_version_check"),
    ]

    operations = [
        migrations.AddField(
            model_name="botversion",
            name="error_streak",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="botversion",
            name="held_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="botversion",
            name="held_reason",
            field=models.TextField(blank=True),
        ),
    ]
