"""``Match.error_kind``: why an ``error`` match failed, as a kind (arena.contract.ErrorKind),
and the kinds of the stored error matches read once from their sentences, the only thing
they had. The sentences are copied here as they were written then (a migration is history:
it must not follow later code)."""

from typing import Any

from django.db import migrations, models
from django.db.models import Q

#: (kind, the stored sentences of that kind), the first that matches wins.
_BY_SENTENCE = (
    ("no_boundary", Q(error__contains="not a security boundary")),
    ("refused", Q(error__startswith="match refused: ")),
    ("time_limit", Q(error__startswith="the match took over ")),
    ("setup", Q(error__startswith="The match could not be set up")),
    ("lost", Q(error__startswith="no worker finished this match in ")),
)


def kinds_from_sentences(apps: Any, schema_editor: Any) -> None:
    Match = apps.get_model("matches", "Match")
    for kind, sentence in _BY_SENTENCE:
        Match.objects.filter(sentence, status="error", error_kind="").update(error_kind=kind)


class Migration(migrations.Migration):
    dependencies = [("matches", "0010_match_lease_until")]

    operations = [
        migrations.AddField(
            model_name="match",
            name="error_kind",
            field=models.CharField(
                blank=True,
                choices=[
                    ("refused", "refused"),
                    ("no_boundary", "no_boundary"),
                    ("sandbox", "sandbox"),
                    ("time_limit", "time_limit"),
                    ("engine", "engine"),
                    ("setup", "setup"),
                    ("outcome", "outcome"),
                    ("worker", "worker"),
                    ("lost", "lost"),
                ],
                max_length=16,
            ),
        ),
        migrations.RunPython(kinds_from_sentences, migrations.RunPython.noop),
    ]
