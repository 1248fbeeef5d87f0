"""Rows into PostgreSQL with ``COPY`` (row by row through the ORM took 18 minutes at scale 1),
every concrete column named, so the fill follows schema changes; and the ids rows take."""

from __future__ import annotations

import json
from typing import Any

from django.apps import apps
from django.core.management.color import no_style
from django.db import connection, models


def model(label: str) -> type[models.Model] | None:
    """The model called ``label``, or None on a schema that does not have it (yet)."""
    try:
        return apps.get_model(label)
    except LookupError:
        return None


def rating_model() -> type[models.Model]:
    """Ratings live in ``competitions`` or, after issue 9, in their own app."""
    for label in ("ratings.Rating", "competitions.Rating"):
        if (m := model(label)) is not None:
            return m
    raise SystemExit("no Rating model found")


class RawJson(str):
    """JSON text already serialised (a replay copied thousands of times is dumped once)."""


def _cell(field: models.Field, value: Any) -> Any:
    if value is None or isinstance(value, RawJson):
        return value
    if isinstance(field, models.JSONField):
        return json.dumps(value)
    return value


def copy_rows(m: type[models.Model], rows: list[dict[str, Any]]) -> None:
    """COPY ``rows`` (dicts by attname; missing fields take the model's default) into ``m``'s
    table, every concrete column named, so the script follows schema changes."""
    if not rows:
        return
    fields = [f for f in m._meta.concrete_fields]
    cols = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    table = connection.ops.quote_name(m._meta.db_table)
    defaults = {f.attname: f.get_default() for f in fields}
    with connection.cursor() as cur, cur.cursor.copy(f"COPY {table} ({cols}) FROM STDIN") as cp:
        for row in rows:
            cp.write_row(
                [
                    _cell(f, row[f.attname] if f.attname in row else defaults[f.attname])
                    for f in fields
                ]
            )


def reset_sequences(*labels: str) -> None:
    """Move the id sequences of ``labels`` past the copied ids (COPY does not advance them)."""
    sql = connection.ops.sequence_reset_sql(
        no_style(), [m for label in labels if (m := model(label)) is not None]
    )
    with connection.cursor() as cur:
        for stmt in sql:
            cur.execute(stmt)


def next_id(m: type[models.Model]) -> int:
    return (m._default_manager.aggregate(n=models.Max("pk"))["n"] or 0) + 1
