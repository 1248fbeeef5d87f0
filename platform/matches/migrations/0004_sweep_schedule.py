# The sweeper runs every minute under Celery beat (editable in the admin, "Periodic tasks").

from django.db import migrations


def add_schedule(apps, schema_editor):  # type: ignore[no-untyped-def]
    IntervalSchedule = apps.get_model("django_celery_beat", "IntervalSchedule")
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    every, _ = IntervalSchedule.objects.get_or_create(every=60, period="seconds")
    PeriodicTask.objects.get_or_create(
        name="Sweep lost matches",
        defaults={
            "task": "matches.sweep",
            "interval": every,
            "description": "Send again, or mark error, matches that no worker will finish "
            "(matches.services.sweep_matches).",
        },
    )


def remove_schedule(apps, schema_editor):  # type: ignore[no-untyped-def]
    apps.get_model("django_celery_beat", "PeriodicTask").objects.filter(
        name="Sweep lost matches"
    ).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0003_match_life_and_kind"),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
    ]

    operations = [migrations.RunPython(add_schedule, remove_schedule)]
