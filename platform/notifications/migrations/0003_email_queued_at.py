"""An email's record notes when its task reached the broker (``queued_at``); a record whose
send failed is sent again by the emails' sweeper (``notifications.sweep_emails``, every minute
under Celery beat, editable in the admin, "Periodic tasks"). Records made before this were
queued when they were made."""

from django.db import migrations, models
from django.db.models import F

NAME = "Sweep unsent emails"


def add_schedule(apps, schema_editor):  # type: ignore[no-untyped-def]
    apps.get_model("notifications", "EmailDelivery").objects.update(queued_at=F("created_at"))
    IntervalSchedule = apps.get_model("django_celery_beat", "IntervalSchedule")
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    every, _ = IntervalSchedule.objects.get_or_create(every=60, period="seconds")
    PeriodicTask.objects.get_or_create(
        name=NAME,
        defaults={
            "task": "notifications.sweep_emails",
            "interval": every,
            "description": "Send again the notification emails whose send failed while the "
            "broker was down (notifications.email_sweeper.sweep_emails).",
        },
    )


def remove_schedule(apps, schema_editor):  # type: ignore[no-untyped-def]
    apps.get_model("django_celery_beat", "PeriodicTask").objects.filter(name=NAME).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("notifications", "0002_email_deliveries"),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
    ]

    operations = [
        migrations.AddField(
            model_name="emaildelivery",
            name="queued_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddIndex(
            model_name="emaildelivery",
            index=models.Index(
                condition=models.Q(("queued_at__isnull", True), ("status", "pending")),
                fields=["created_at"],
                name="email_delivery_unsent",
            ),
        ),
        migrations.RunPython(add_schedule, remove_schedule),
    ]
