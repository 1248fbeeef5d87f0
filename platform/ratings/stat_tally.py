"""Counters that explain a rating, added up match by match (``ratings.stats`` keeps them as
each rated match is recorded; the migration that made them replays the rated history through
the same code, in batches).

Nothing here imports a model: the counters are saved through the model classes given to
:func:`save_tally`, so a migration can pass its historical models.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

#: A version's rating series keeps at most this many points, evenly spread over its period.
MAX_POINTS = 100


@dataclass(frozen=True)
class SeatResult:
    """One seat of a rated match, with what the match did to its bot's Elo."""

    seat: int
    bot_id: int
    version_id: int
    rank: int | None
    elo_before: float
    elo_after: float


@dataclass
class Period:
    """The bot's Elo over the rated matches one version played (its active period)."""

    matches: int = 0
    first_at: datetime | None = None
    last_at: datetime | None = None
    elo_start: float = 0.0
    elo_end: float = 0.0
    elo_high: float = 0.0
    elo_low: float = 0.0
    #: Elo after every ``stride``-th match of the version (``points[i]``: after match
    #: ``(i + 1) * stride``); halved to every other point, stride doubled, past MAX_POINTS.
    points: list[float] = field(default_factory=list)
    stride: int = 1

    def add(self, elo_before: float, elo_after: float, at: datetime | None) -> None:
        if self.matches == 0:
            self.first_at = at
            self.elo_start = self.elo_high = self.elo_low = elo_before
        self.matches += 1
        self.last_at = at or self.last_at
        self.elo_end = elo_after
        self.elo_high = max(self.elo_high, elo_after)
        self.elo_low = min(self.elo_low, elo_after)
        if self.matches % self.stride == 0:
            self.points.append(round(elo_after, 2))
            if len(self.points) > MAX_POINTS:
                self.points = self.points[1::2]
                self.stride *= 2


PERIOD_FIELDS = (
    "matches",
    "first_at",
    "last_at",
    "elo_start",
    "elo_end",
    "elo_high",
    "elo_low",
    "points",
    "stride",
)
SEAT_FIELDS = ("played", "firsts", "rank_sum", "elo_change")
OPPONENT_FIELDS = ("met", "ahead", "level", "behind")


@dataclass
class Tally:
    """What some rated matches add to the counters (matches given in the order they were
    rated). Keys: ``seats[(version, players, seat)]``, ``opponents[(version, opponent bot)]``."""

    bot_of: dict[int, int] = field(default_factory=dict)
    seats: dict[tuple[int, int, int], list[float]] = field(
        default_factory=lambda: defaultdict(lambda: [0, 0, 0, 0.0])
    )
    opponents: dict[tuple[int, int], list[int]] = field(
        default_factory=lambda: defaultdict(lambda: [0, 0, 0, 0])
    )
    #: Per version, its matches' Elo moves in order: ``(elo_before, elo_after, at)``.
    moves: dict[int, list[tuple[float, float, datetime | None]]] = field(
        default_factory=lambda: defaultdict(list)
    )

    def add(self, results: list[SeatResult], at: datetime | None) -> None:
        players = len(results)
        for r in results:
            self.bot_of[r.version_id] = r.bot_id
            row = self.seats[(r.version_id, players, r.seat)]
            row[0] += 1
            row[1] += 1 if r.rank == 1 else 0
            row[2] += r.rank or players
            row[3] += r.elo_after - r.elo_before
            self.moves[r.version_id].append((r.elo_before, r.elo_after, at))
            for other in results:
                if other.bot_id == r.bot_id:
                    continue
                met = self.opponents[(r.version_id, other.bot_id)]
                met[0] += 1
                if r.rank is None or other.rank is None or r.rank == other.rank:
                    met[2] += 1
                elif r.rank < other.rank:
                    met[1] += 1
                else:
                    met[3] += 1

    def __bool__(self) -> bool:
        return bool(self.moves)


def save_tally(tally: Tally, seat_model: Any, opponent_model: Any, period_model: Any) -> None:
    """Add ``tally`` to the stored counters: read the rows it touches (three queries), add,
    then update and create in bulk. The caller serialises writers of the same bots (the live
    path holds their rating rows' locks; the migration runs alone)."""
    if not tally:
        return
    versions = list(tally.moves)
    _merge(
        seat_model,
        seat_model.objects.filter(version_id__in=versions, players__in={k[1] for k in tally.seats}),
        lambda r: (r.version_id, r.players, r.seat),
        tally.seats,
        SEAT_FIELDS,
        lambda k: {"version_id": k[0], "players": k[1], "seat": k[2], "bot_id": tally.bot_of[k[0]]},
    )
    _merge(
        opponent_model,
        opponent_model.objects.filter(
            version_id__in=versions, opponent_id__in={k[1] for k in tally.opponents}
        ),
        lambda r: (r.version_id, r.opponent_id),
        tally.opponents,
        OPPONENT_FIELDS,
        lambda k: {"version_id": k[0], "opponent_id": k[1], "bot_id": tally.bot_of[k[0]]},
    )
    stored = {p.version_id: p for p in period_model.objects.filter(version_id__in=versions)}
    changed, new = [], []
    for version_id, moves in tally.moves.items():
        row = stored.get(version_id)
        period = Period(**{f: getattr(row, f) for f in PERIOD_FIELDS}) if row else Period()
        for before, after, at in moves:
            period.add(before, after, at)
        values = {f: getattr(period, f) for f in PERIOD_FIELDS}
        if row is None:
            new.append(
                period_model(version_id=version_id, bot_id=tally.bot_of[version_id], **values)
            )
        else:
            for name, value in values.items():
                setattr(row, name, value)
            changed.append(row)
    period_model.objects.bulk_update(changed, PERIOD_FIELDS)
    period_model.objects.bulk_create(new)


def _merge(
    model: Any, rows: Any, key: Any, deltas: dict[Any, Any], fields: tuple[str, ...], ident: Any
) -> None:
    existing = {key(r): r for r in rows if key(r) in deltas}
    changed, new = [], []
    for k, add in deltas.items():
        row = existing.get(k)
        if row is None:
            new.append(model(**ident(k), **dict(zip(fields, add, strict=True))))
            continue
        for name, value in zip(fields, add, strict=True):
            setattr(row, name, getattr(row, name) + value)
        changed.append(row)
    model.objects.bulk_update(changed, fields)
    model.objects.bulk_create(new)


def restricted(tally: Tally, bots: set[int]) -> Tally:
    """A copy of the part of ``tally`` that belongs to ``bots`` (their versions' rows)."""
    part = Tally()
    mine = {v for v, b in tally.bot_of.items() if b in bots}
    part.bot_of.update({v: tally.bot_of[v] for v in mine})
    part.seats.update({k: list(row) for k, row in tally.seats.items() if k[0] in mine})
    part.opponents.update({k: list(row) for k, row in tally.opponents.items() if k[0] in mine})
    part.moves.update({v: list(tally.moves[v]) for v in mine if v in tally.moves})
    return part
