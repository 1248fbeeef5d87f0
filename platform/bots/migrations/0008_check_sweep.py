"""Checks have a sweeper of their own (``bots.sweep_checks``, every minute under Celery beat,
editable in the admin, "Periodic tasks"), and each check's start and duration are kept: the
sweeper's patience runs from the start, the owner's build time counts the duration."""

from django.db import migrations, models

NAME = "Sweep lost checks"


def add_schedule(apps, schema_editor):  # type: ignore[no-untyped-def]
    IntervalSchedule = apps.get_model("django_celery_beat", "IntervalSchedule")
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    every, _ = IntervalSchedule.objects.get_or_create(every=60, period="seconds")
    PeriodicTask.objects.get_or_create(
        name=NAME,
        defaults={
            "task": "bots.sweep_checks",
            "interval": every,
            "description": "Send again the code checks that a dead worker or a failed send "
            "lost (bots.check_sweeper.sweep_checks).",
        },
    )


def remove_schedule(apps, schema_editor):  # type: ignore[no-untyped-def]
    apps.get_model("django_celery_beat", "PeriodicTask").objects.filter(name=NAME).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("bots", "0007_version_language"),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
    ]

    operations = [
        migrations.AddField(
            model_name="botversion",
            name="check_started_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="botversion",
            name="check_seconds",
            field=models.FloatField(default=0),
        ),
        migrations.RunPython(add_schedule, remove_schedule),
    ]
