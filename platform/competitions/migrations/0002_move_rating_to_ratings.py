# The Rating model moved to the ``ratings`` app; its table (competitions_rating) and rows stay.

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("competitions", "0001_initial"),
        ("ratings", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="Rating")],
            database_operations=[],
        ),
    ]
