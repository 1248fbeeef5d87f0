"""Counting the stats of ``ratings.stats`` from the rated history already stored, in batches
(the migration that made the counters runs it once; ``manage.py`` never needs to again, since
the live path counts every match after it).

Matches are replayed in the order their ratings moved (the ids of their rating changes), a
batch of ``batch`` changes at a time: three reads per batch, the counters written per batch,
memory bounded by the batch whatever the history."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ratings.stat_tally import SeatResult, Tally, save_tally

#: Rating changes read per batch (a few hundred matches).
BATCH = 2000


def backfill(
    get_model: Callable[[str, str], Any], *, batch: int = BATCH, game_id: int | None = None
) -> int:
    """Count every rated match (of one game, or all) into the (empty) counters; returns how
    many matches. ``get_model``: ``apps.get_model`` of a migration, or
    ``django.apps.apps.get_model``."""
    change_model = get_model("ratings", "RatingChange")
    seat_model = get_model("matches", "MatchSeat")
    match_model = get_model("matches", "Match")
    stat_models = [get_model("ratings", n) for n in ("SeatStat", "OpponentStat", "VersionPeriod")]
    changes_of = change_model.objects.all()
    if game_id is not None:
        changes_of = changes_of.filter(game_id=game_id)
    cursor, counted = 0, 0
    while True:
        ids = list(
            changes_of.filter(id__gt=cursor).order_by("id").values_list("id", "match_id")[:batch]
        )
        if not ids:
            return counted
        low, cursor = ids[0][0], ids[-1][0]
        # A match is counted in the batch that holds its first change, with all its changes.
        changes: dict[int, dict[int, tuple[float, float]]] = {}
        first: dict[int, int] = {}
        for cid, match_id, seat, before, after in (
            change_model.objects.filter(match_id__in={m for _, m in ids})
            .order_by("id")
            .values_list("id", "match_id", "seat", "elo_before", "elo_after")
        ):
            first.setdefault(match_id, cid)
            changes.setdefault(match_id, {})[seat] = (before, after)
        todo = sorted((c, m) for m, c in first.items() if low <= c <= cursor)
        counted += _count(todo, changes, seat_model, match_model, stat_models)


def _count(
    todo: list[tuple[int, int]],
    changes: dict[int, dict[int, tuple[float, float]]],
    seat_model: Any,
    match_model: Any,
    stat_models: list[Any],
) -> int:
    match_ids = [m for _, m in todo]
    finished = dict(match_model.objects.filter(pk__in=match_ids).values_list("pk", "finished_at"))
    seats: dict[int, list[tuple[int, int, int, int | None]]] = {}
    for match_id, seat, version_id, bot_id, rank in (
        seat_model.objects.filter(match_id__in=match_ids)
        .order_by("match_id", "seat")
        .values_list("match_id", "seat", "bot_version_id", "bot_version__bot_id", "rank")
    ):
        seats.setdefault(match_id, []).append((seat, version_id, bot_id, rank))
    tally = Tally()
    for _, match_id in todo:
        moved = changes[match_id]
        tally.add(
            [
                SeatResult(seat, bot_id, version_id, rank, *moved[seat])
                for seat, version_id, bot_id, rank in seats.get(match_id, [])
                if seat in moved
            ],
            finished.get(match_id),
        )
    save_tally(tally, *stat_models)
    return len(todo)
