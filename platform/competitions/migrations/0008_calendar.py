"""The competitions' calendar: a tournament's ``start_problem`` (why it did not start by
itself), beat's entry for ``competitions.calendar_tick`` (every minute: tournaments due to
start, spaced rounds due, league rounds on their calendar), and a calendar for the leagues
made before it: their rounds keep falling ``every_hours`` after their last one."""

from django.db import migrations, models
from django.utils import timezone

NAME = "competitions: calendar tick"


def create(apps, schema_editor):
    IntervalSchedule = apps.get_model("django_celery_beat", "IntervalSchedule")
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    schedule, _ = IntervalSchedule.objects.get_or_create(every=1, period="minutes")
    PeriodicTask.objects.update_or_create(
        name=NAME,
        defaults={"task": "competitions.calendar_tick", "interval": schedule, "enabled": True},
    )
    League = apps.get_model("competitions", "League")
    for lg in League.objects.filter(starts_at__isnull=True).iterator():
        first = lg.seasons.order_by("number").first()
        lg.starts_at = lg.last_run_at or (first.starts_at if first else timezone.now())
        lg.save(update_fields=["starts_at"])


def remove(apps, schema_editor):
    apps.get_model("django_celery_beat", "PeriodicTask").objects.filter(name=NAME).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("competitions", "0007_competition_entries_privacy_schedule"),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="start_problem",
            field=models.CharField(blank=True, max_length=500),
        ),
        migrations.RunPython(create, remove),
    ]
