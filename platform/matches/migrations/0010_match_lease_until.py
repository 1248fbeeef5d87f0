from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("matches", "0009_match_audience")]

    operations = [
        migrations.AddField(
            model_name="match",
            name="lease_until",
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
