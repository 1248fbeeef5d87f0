"""The stand-in for a person at the table (the play page's ``human`` version of each game)
gets a status of its own, ``person``, instead of ``active``: an active version could be picked
as a ladder entrant, a qualification opponent or a tournament entrant, and its seat would then
wait for a person nobody sent."""

from django.db import migrations, models


def mark(apps, schema_editor):
    apps.get_model("bots", "BotVersion").objects.filter(builtin_name="human").update(
        status="person"
    )


def unmark(apps, schema_editor):
    apps.get_model("bots", "BotVersion").objects.filter(status="person").update(status="active")


class Migration(migrations.Migration):
    dependencies = [
        ("bots", "0003_description_limit"),
    ]

    operations = [
        migrations.AlterField(
            model_name="botversion",
            name="status",
            field=models.CharField(
                choices=[
                    ("uploaded", "Uploaded"),
                    ("qualifying", "Qualifying"),
                    ("active", "Active"),
                    ("failed", "Failed"),
                    ("waiting_sandbox", "Waiting for a sandbox"),
                    ("person", "A person's seat"),
                ],
                default="active",
                max_length=16,
            ),
        ),
        migrations.RunPython(mark, unmark),
    ]
