"""Recalculating a game's ratings from its history while matches keep being recorded.

The live path (``services.rate_match``) moves ratings one match at a time under the locks of
the match's rating rows, and keeps a ``RatingChange`` per seat whose ``id`` order is the order
ratings moved. A recalculation replays that order in memory and writes what differs in short
transactions, never holding a lock a recording needs for longer than one short step:

0. **Place** finished, rated matches that no live path rated (imported history): their
   changes are inserted with placeholder values, in finishing order, so that they take their
   place in the order (after everything rated so far).
1. **Mark the end** (the game's gate, ``ratings.game_lock``, held exclusive for one query):
   ``cutoff`` = the highest change id. Every change up to it is committed; every rating of
   the game that commits later gets a higher id.
2. **Replay** the changes up to ``cutoff`` in id order, ``batch`` changes at a time, from fresh
   ratings, in memory; each batch rewrites the stored changes whose values differ (one short
   transaction; the live path never writes an old change). The bots' end ratings (``base``)
   and their counters (``ratings.stats``) stay in memory.
3. **Count**: bot by bot, in batches, under those bots' rating-row locks (the live path counts
   under them too), each bot's counters become ``base`` plus the changes stored after
   ``cutoff`` (matches recorded meanwhile, rated from the old ratings). The live path keeps
   adding its matches to them.
4. **Swap** (the gate held exclusive, one transaction): replay the matches rated after
   ``cutoff`` on top of ``base``, rewrite their changes that differ, write every rating that
   differs and the counters of the bots those matches moved differently. Its length grows
   with the matches recorded during the run, not with the history.

A match recorded before the swap is replayed in it; one recorded after it is rated from the
installed ratings: either way it moves ratings exactly as a serial replay in change-id order
would, so the end state equals a recalculation run alone afterwards.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import connection, transaction
from django.db.models import Max, Model
from django.utils import timezone

from ratings import game_lock, history
from ratings.history import Played
from ratings.models import OpponentStat, Rating, RatingChange, SeatStat, VersionPeriod
from ratings.moves import FRESH, Standing, change_row, moved, rated_by_rule
from ratings.stat_tally import SeatResult, Tally, restricted, save_tally

#: Rating changes replayed per transaction (a few hundred matches).
BATCH = 2000
#: ``progress(stage, done)``: called after each committed step, outside any transaction.
Progress = Callable[[str, int], None]
RATING_FIELDS = ["elo", "mu", "sigma", "ordinal", "matches_played", "provisional", "updated_at"]
CHANGE_FIELDS = ["bot_id", *history.CHANGE_COLUMNS[4:]]


class AlreadyRunning(RuntimeError):
    """Another session is recalculating the same game's ratings."""


@dataclass
class Writes:
    """What a replay changes in the stored rating changes."""

    update: list[RatingChange] = field(default_factory=list)
    create: list[RatingChange] = field(default_factory=list)
    delete: list[int] = field(default_factory=list)

    def save(self) -> None:
        update_rows(RatingChange, CHANGE_FIELDS, self.update)
        RatingChange.objects.bulk_create(self.create)
        RatingChange.objects.filter(pk__in=self.delete).delete()

    def __len__(self) -> int:
        return len(self.update) + len(self.create) + len(self.delete)


def update_rows(model: type[Model], fields: list[str], rows: Sequence[Model]) -> None:
    """Write ``fields`` of ``rows`` by primary key: on PostgreSQL one ``UPDATE ... FROM
    (VALUES ...)`` per thousand rows (``bulk_update``'s CASE per row costs its CPU and the
    server's time quadratically in the batch), elsewhere ``bulk_update``."""
    if connection.vendor != "postgresql":
        model._default_manager.bulk_update(rows, fields, batch_size=500)
        return
    qn = connection.ops.quote_name
    columns: list[Any] = [model._meta.get_field(f) for f in fields]
    sets = ", ".join(f"{qn(c.column)} = v.{qn(c.column)}::{c.db_type(connection)}" for c in columns)
    names = ", ".join(["pk", *(qn(c.column) for c in columns)])
    pk = qn(model._meta.pk.column)
    row = "(" + ", ".join(["%s"] * (len(fields) + 1)) + ")"
    for start in range(0, len(rows), 1000):
        chunk = rows[start : start + 1000]
        sql = (
            f"UPDATE {qn(model._meta.db_table)} AS t SET {sets} "
            f"FROM (VALUES {', '.join([row] * len(chunk))}) AS v({names}) WHERE t.{pk} = v.pk"
        )
        params = [
            value
            for r in chunk
            for value in (
                r.pk,
                *(c.get_db_prep_save(getattr(r, c.attname), connection) for c in columns),
            )
        ]
        with connection.cursor() as cur:
            cur.execute(sql, params)


def replay(
    match: Played, game_id: int, states: dict[int, Standing], writes: Writes
) -> list[SeatResult] | None:
    """Rate ``match`` from ``states`` (updated in place), recording in ``writes`` how its
    stored changes differ. Returns its seats' results, or None when it is not rated."""
    bots = [bot for _, _, bot, _ in match.seats]
    ranks = [int(rank or 0) for *_, rank in match.seats]
    stored = dict(match.stored)
    if not rated_by_rule(match.rated, match.finished, bots, ranks):
        writes.delete.extend(row[0] for row in stored.values())
        return None
    before = [states.get(b, FRESH) for b in bots]
    after = moved(before, ranks)
    results = []
    for (seat, version, bot, rank), old, new in zip(match.seats, before, after, strict=True):
        states[bot] = new
        results.append(SeatResult(seat, bot, version, rank, old.elo, new.elo))
        values = (bot, old.elo, new.elo, old.mu, new.mu, old.sigma, new.sigma)
        row = stored.pop(seat, None)
        change = change_row(match.pk, game_id, seat, bot, old, new)
        if row is None:
            writes.create.append(change)
        elif (row[3], *row[4:]) != values:
            change.pk = row[0]
            writes.update.append(change)
    writes.delete.extend(row[0] for row in stored.values())
    return results


@dataclass
class Recalculation:
    """One game's recalculation, phase by phase (see the module's docstring)."""

    game_id: int
    batch: int = BATCH
    progress: Progress | None = None
    cutoff: int = 0
    #: Every bot's rating after the changes up to ``cutoff``.
    base: dict[int, Standing] = field(default_factory=dict)
    #: The counters of those matches.
    tally: Tally = field(default_factory=Tally)
    rated: int = 0

    def run(self) -> int:
        if not game_lock.claim_run(self.game_id):
            raise AlreadyRunning(f"the ratings of game {self.game_id} are being recalculated")
        try:
            self.place_never_rated()
            self.mark_end()
            self.replay_history()
            self.count()
            self.swap()
        finally:
            game_lock.release_run(self.game_id)
        return self.rated

    def _done(self, stage: str, n: int) -> None:
        if self.progress is not None:
            self.progress(stage, n)

    def place_never_rated(self) -> None:
        pending = history.never_rated(self.game_id)
        step = max(1, self.batch // 4)
        for start in range(0, len(pending), step):
            chunk = pending[start : start + step]
            found = history.played(chunk)
            writes = Writes()
            for pk in chunk:
                m = found[pk]
                if rated_by_rule(
                    m.rated, m.finished, [s[2] for s in m.seats], [int(s[3] or 0) for s in m.seats]
                ):
                    writes.create.extend(
                        change_row(pk, self.game_id, seat, bot, FRESH, FRESH)
                        for seat, _, bot, _ in m.seats
                    )
            writes.save()  # one INSERT: ids in this order
            self._done("placed", start + len(chunk))

    def mark_end(self) -> None:
        with transaction.atomic():
            game_lock.hold(self.game_id)
            self.cutoff = RatingChange.objects.aggregate(top=Max("id"))["top"] or 0

    def replay_history(self) -> None:
        for chunk in history.rated_chunks(self.game_id, self.cutoff, self.batch):
            writes = Writes()
            for match in chunk:
                results = replay(match, self.game_id, self.base, writes)
                if results is not None:
                    self.tally.add(results, match.finished_at)
                    self.rated += 1
            if writes:
                with transaction.atomic():
                    writes.save()
            self._done("replayed", self.rated)

    def count(self) -> None:
        owners: set[int] = set(self.base)
        for model in (SeatStat, OpponentStat, VersionPeriod):
            owners.update(
                model.objects.filter(bot__game_id=self.game_id)
                .values_list("bot_id", flat=True)
                .distinct()
            )
        bots = sorted(owners)
        step = max(1, self.batch // 80)  # bots per transaction: 25 by default
        for start in range(0, len(bots), step):
            chunk = bots[start : start + step]
            with transaction.atomic():
                # The live path's protocol: insert in bot order, lock in primary-key order.
                Rating.objects.bulk_create(
                    [Rating(bot_id=b, game_id=self.game_id) for b in chunk], ignore_conflicts=True
                )
                list(
                    Rating.objects.select_for_update()
                    .filter(game_id=self.game_id, bot_id__in=chunk)
                    .order_by("pk")
                    .values_list("pk", flat=True)
                )
                later = history.rated_after(self.game_id, self.cutoff, bots=chunk)
                replace_counters(set(chunk), self.tally, (_stored_results(m) for m in later))
            self._done("counted", start + len(chunk))

    def swap(self) -> None:
        with transaction.atomic():
            game_lock.hold(self.game_id)
            states = dict(self.base)
            writes, results, moved_bots = Writes(), [], set[int]()

            for match in history.rated_after(self.game_id, self.cutoff):
                before = len(writes)
                seats = replay(match, self.game_id, states, writes)
                if len(writes) != before:
                    moved_bots.update(bot for _, _, bot, _ in match.seats)
                if seats is not None:
                    results.append((seats, match.finished_at))
                    self.rated += 1
            writes.save()
            install_ratings(self.game_id, states)
            if moved_bots:
                replace_counters(moved_bots, self.tally, results)
        self._done("swapped", self.rated)


def _stored_results(match: Played) -> tuple[list[SeatResult], object]:
    """A match's seats with the Elo moves stored for them (what the live path counted)."""
    rows = match.stored
    seats = [
        SeatResult(seat, bot, version, rank, rows[seat][4], rows[seat][5])
        for seat, version, bot, rank in match.seats
        if seat in rows
    ]
    return seats, match.finished_at


def replace_counters(
    bots: set[int], base: Tally, later: Iterable[tuple[list[SeatResult], object]]
) -> None:
    """Set the counters of ``bots`` to ``base`` plus the ``later`` matches' results (their
    rating rows locked, or the game's gate held)."""
    tally = restricted(base, bots)
    for seats, at in later:
        tally.add(seats, at)  # type: ignore[arg-type]
    for model in (SeatStat, OpponentStat, VersionPeriod):
        model.objects.filter(bot_id__in=bots).delete()
    save_tally(restricted(tally, bots), SeatStat, OpponentStat, VersionPeriod)


def install_ratings(game_id: int, states: dict[int, Standing]) -> None:
    """Make the game's rating rows equal ``states``: write the ones that differ, create the
    missing ones, delete those of bots with no rated match."""
    stored = {
        row[1]: row
        for row in Rating.objects.filter(game_id=game_id).values_list(
            "pk", "bot_id", "elo", "mu", "sigma", "ordinal", "matches_played", "provisional"
        )
    }
    now = timezone.now()
    update: list[Rating] = []
    create: list[Rating] = []
    for bot, s in states.items():
        values = (s.elo, s.mu, s.sigma, s.ordinal, s.played, s.provisional)
        row = stored.pop(bot, None)
        if row is not None and row[2:] == values:
            continue
        rating = Rating(pk=row[0] if row else None, bot_id=bot, game_id=game_id, updated_at=now)
        rating.elo, rating.mu, rating.sigma, rating.ordinal = values[:4]
        rating.matches_played, rating.provisional = s.played, s.provisional
        (update if row else create).append(rating)
    update_rows(Rating, RATING_FIELDS, update)
    Rating.objects.bulk_create(create)
    Rating.objects.filter(pk__in=[row[0] for row in stored.values()]).delete()


def recalculate_game(game_id: int, *, batch: int = BATCH, progress: Progress | None = None) -> int:
    """Recalculate one game's ratings (see the module's docstring); returns how many matches
    moved ratings. Raises ``AlreadyRunning`` when another session recalculates the game."""
    return Recalculation(game_id, batch=batch, progress=progress).run()
