# Count the stats of every rated match already stored into the new counters (in batches of
# rating changes, in the order the ratings moved): ratings/stat_backfill.py.

from django.db import migrations


def count_history(apps, schema_editor):  # type: ignore[no-untyped-def]
    from ratings.stat_backfill import backfill

    backfill(apps.get_model)


def forget(apps, schema_editor):  # type: ignore[no-untyped-def]
    for name in ("SeatStat", "OpponentStat", "VersionPeriod"):
        apps.get_model("ratings", name).objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0004_result_counters"),
        ("matches", "0008_seat_stderr_marks"),
    ]

    operations = [migrations.RunPython(count_history, forget)]
