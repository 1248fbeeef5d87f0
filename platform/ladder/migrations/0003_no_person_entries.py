"""Stand-ins for people (``bots`` 0004: versions with status ``person``) leave the ladder: an
entry made for one while it still counted as active would keep scheduling matches that wait
for a person nobody sent."""

from django.db import migrations


def drop(apps, schema_editor):
    apps.get_model("ladder", "LadderEntry").objects.filter(
        bot__versions__status="person"
    ).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("ladder", "0002_beat_schedule"),
        ("bots", "0004_person_status"),
    ]

    operations = [migrations.RunPython(drop, migrations.RunPython.noop)]
