"""Admin pages that cost the same at any size (issue 24): a changelist counts a big table from
PostgreSQL's estimate instead of scanning it, never counts twice, and a delete confirmation
summarises what goes (a count per kind of row, a fixed number of queries) instead of listing
every row the deletion would touch or that protects the object."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, cast

from django.contrib import admin
from django.core.paginator import Paginator
from django.db import connections
from django.db.models import PROTECT, RESTRICT, ForeignObjectRel, Model, QuerySet
from django.db.models.deletion import (
    DO_NOTHING,
    SET_DEFAULT,
    SET_NULL,
    get_candidate_relations_to_delete,
)
from django.http import HttpRequest
from django.utils.functional import cached_property
from django.utils.text import capfirst

#: Below this many rows (by the estimate) a changelist counts exactly.
EXACT_COUNT_BELOW = 10_000
#: How deep a delete confirmation follows cascades (the schema's longest chain is shorter).
CASCADE_DEPTH = 4
#: Rows per changelist page.
LIST_PER_PAGE = 25
#: How many of the selected objects a bulk delete confirmation names.
NAMED_OBJECTS = 20


class EstimatedCountPaginator(Paginator):
    """Counts an unfiltered PostgreSQL table from ``pg_class.reltuples`` when it is big (an
    exact ``COUNT(*)`` reads every row); filtered lists and small tables count exactly."""

    @cached_property
    def count(self) -> int:
        qs = self.object_list
        if isinstance(qs, QuerySet) and not qs.query.where:
            estimate = _estimated_rows(qs)
            if estimate is not None and estimate >= EXACT_COUNT_BELOW:
                return estimate
        return super().count


def _estimated_rows(qs: QuerySet[Any]) -> int | None:
    connection = connections[qs.db]
    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT reltuples::bigint FROM pg_class WHERE oid = %s::regclass",
            [qs.model._meta.db_table],
        )
        row = cursor.fetchone()
    return int(row[0]) if row and row[0] >= 0 else None


def _deletes(on_delete: Any) -> bool:
    """Whether rows on this side of a relation are deleted with the object (CASCADE, or a
    custom cascade such as competitions' ``delete_with_matches``; ``SET(...)`` keeps them)."""
    if on_delete in (SET_NULL, SET_DEFAULT, DO_NOTHING, PROTECT, RESTRICT):
        return False
    return not hasattr(on_delete, "deconstruct")


def _relations(
    model: type[Model], path: str, seen: tuple[type[Model], ...]
) -> Iterator[tuple[type[Model], str, bool]]:
    """(related model, lookup to the deleted objects, protects?) along every cascade."""
    if len(seen) > CASCADE_DEPTH:
        return
    for candidate in get_candidate_relations_to_delete(model._meta):
        rel = cast(ForeignObjectRel, candidate)
        related = cast(type[Model], rel.related_model)
        lookup = f"{rel.field.name}__{path}"
        if rel.on_delete in (PROTECT, RESTRICT):
            yield related, lookup, True
        elif _deletes(rel.on_delete) and related not in seen:
            yield related, lookup, False
            yield from _relations(related, lookup, (*seen, related))


def deletion_summary(
    admin_site: admin.AdminSite, request: HttpRequest, objs: Iterable[Model] | QuerySet[Any]
) -> tuple[list[Any], dict[str, int], set[str], list[str]]:
    """What ``ModelAdmin.get_deleted_objects`` returns, from one COUNT per relation path."""
    roots: QuerySet[Any] | list[Model]
    if isinstance(objs, QuerySet):
        model, roots = objs.model, objs
        total = objs.count()
        named = [str(o) for o in objs[:NAMED_OBJECTS]]
    else:
        listed = list(objs)
        model, roots, total = type(listed[0]), listed, len(listed)
        named = [str(o) for o in listed[:NAMED_OBJECTS]]
    opts = model._meta
    if total > len(named):
        named.append(f"… and {total - len(named)} more")
    counts: dict[type[Model], int] = {}
    protected: list[str] = []
    for related, lookup, protects in _relations(model, "in", (model,)):
        n = related._default_manager.filter(**{lookup: roots}).count()
        if not n:
            continue
        if protects:
            protected.append(f"{n} {_name(related, n)} ({related._meta.label}) point at it")
        else:
            counts[related] = counts.get(related, 0) + n
    perms_needed = {
        str(capfirst(m._meta.verbose_name))
        for m in (model, *counts)
        if m in admin_site._registry and not admin_site._registry[m].has_delete_permission(request)
    }
    model_count = {str(opts.verbose_name_plural): total}
    model_count |= {str(m._meta.verbose_name_plural): n for m, n in counts.items()}
    details = [f"{n} {_name(m, n)}" for m, n in counts.items()]
    return [*named, details] if details else named, model_count, perms_needed, protected


def _name(model: type[Model], n: int) -> str:
    return str(model._meta.verbose_name if n == 1 else model._meta.verbose_name_plural)


class BoundedAdmin(admin.ModelAdmin):
    """A ModelAdmin whose changelist and delete confirmation cost the same at any size."""

    show_full_result_count = False
    paginator = EstimatedCountPaginator
    #: Rows a changelist draws (Django's 100 cost ~2 ms of CPU each: links, checkboxes).
    list_per_page = LIST_PER_PAGE

    def get_deleted_objects(
        self, objs: Any, request: HttpRequest
    ) -> tuple[list[Any], dict[str, int], set[str], list[str]]:
        return deletion_summary(self.admin_site, request, objs)
