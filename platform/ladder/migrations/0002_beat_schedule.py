"""The matchmaker's schedule for Celery beat (``celery -A meeple beat -S django``): the
``ladder.tick`` task every ``ARENA_LADDER_TICK_SECONDS`` (at least one second)."""

from django.conf import settings
from django.db import migrations

NAME = "ladder: matchmaker tick"


def create(apps, schema_editor):
    IntervalSchedule = apps.get_model("django_celery_beat", "IntervalSchedule")
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    every = max(1, int(round(settings.ARENA_LADDER_TICK_SECONDS)))
    schedule, _ = IntervalSchedule.objects.get_or_create(every=every, period="seconds")
    PeriodicTask.objects.update_or_create(
        name=NAME,
        defaults={"task": "ladder.tick", "interval": schedule, "enabled": True},
    )


def remove(apps, schema_editor):
    apps.get_model("django_celery_beat", "PeriodicTask").objects.filter(name=NAME).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("ladder", "0001_initial"),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
    ]

    operations = [migrations.RunPython(create, remove)]
