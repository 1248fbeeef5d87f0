"""Reading the rated history of a game in short queries, as plain values (what
``ratings.recalculation`` replays): matches with their seats, and the rating changes stored
for them, keyed by match and seat."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import Exists, OuterRef
from matches.models import Match, MatchSeat

from arena.contract import MatchStatus
from ratings.models import RatingChange

#: The columns of a stored rating change, in this order.
CHANGE_COLUMNS = (
    "id",
    "match_id",
    "seat",
    "bot_id",
    "elo_before",
    "elo_after",
    "mu_before",
    "mu_after",
    "sigma_before",
    "sigma_after",
)
#: A stored change as read: ``(id, match_id, seat, bot_id, elo_before, ..., sigma_after)``.
Stored = tuple[int, int, int, int, float, float, float, float, float, float]


@dataclass
class Played:
    """One match as the replay needs it; ``seats``: ``(seat, version, bot, rank)`` in order."""

    pk: int
    finished_at: datetime | None
    rated: bool
    finished: bool
    seats: list[tuple[int, int, int, int | None]] = field(default_factory=list)
    #: Its stored rating changes by seat.
    stored: dict[int, Stored] = field(default_factory=dict)


def played(ids: Iterable[int]) -> dict[int, Played]:
    """The matches ``ids`` with their seats and stored changes (three queries)."""
    ids = list(ids)
    found = {
        pk: Played(pk, at, rated, status == MatchStatus.FINISHED)
        for pk, at, rated, status in Match.objects.filter(pk__in=ids).values_list(
            "pk", "finished_at", "rated", "status"
        )
    }
    for match_id, seat, version, bot, rank in (
        MatchSeat.objects.filter(match_id__in=ids)
        .order_by("match_id", "seat")
        .values_list("match_id", "seat", "bot_version_id", "bot_version__bot_id", "rank")
    ):
        found[match_id].seats.append((seat, version, bot, rank))
    for row in RatingChange.objects.filter(match_id__in=ids).values_list(*CHANGE_COLUMNS):
        if row[1] in found:
            found[row[1]].stored[row[2]] = row
    return found


def first_changes(match_ids: Iterable[int]) -> dict[int, int]:
    """Each match's first rating change id: its place in the order ratings moved."""
    first: dict[int, int] = {}
    for cid, match_id in (
        RatingChange.objects.filter(match_id__in=list(match_ids))
        .order_by("id")
        .values_list("id", "match_id")
    ):
        first.setdefault(match_id, cid)
    return first


def rated_chunks(game_id: int, upto: int, batch: int) -> Iterator[list[Played]]:
    """The game's matches rated up to change id ``upto``, in the order their ratings moved,
    a batch of ``batch`` changes at a time (a match comes in the batch of its first change)."""
    cursor = 0
    while True:
        ids = list(
            RatingChange.objects.filter(game_id=game_id, id__gt=cursor, id__lte=upto)
            .order_by("id")
            .values_list("id", "match_id")[:batch]
        )
        if not ids:
            return
        low, cursor = ids[0][0], ids[-1][0]
        first = first_changes({m for _, m in ids})
        todo = sorted((c, m) for m, c in first.items() if low <= c <= cursor)
        found = played(m for _, m in todo)
        yield [found[m] for _, m in todo if m in found]


def rated_after(game_id: int, after: int, bots: Iterable[int] | None = None) -> list[Played]:
    """The game's matches whose ratings moved after change id ``after`` (only those of
    ``bots`` when given), in the order they moved."""
    changes = RatingChange.objects.filter(game_id=game_id, id__gt=after)
    if bots is not None:
        changes = changes.filter(bot_id__in=list(bots))
    match_ids = set(changes.values_list("match_id", flat=True))
    if not match_ids:
        return []
    first = first_changes(match_ids)
    found = played(match_ids)
    return [found[m] for m in sorted(found, key=lambda m: first.get(m, 0))]


def never_rated(game_id: int) -> list[int]:
    """The game's finished matches meant to be rated that have no rating change (rated by no
    live path: imported, or made rated afterwards), in finishing order."""
    return list(
        Match.objects.filter(game_id=game_id, status=MatchStatus.FINISHED, rated=True)
        .filter(~Exists(RatingChange.objects.filter(match=OuterRef("pk"))))
        .order_by("finished_at", "pk")
        .values_list("pk", flat=True)
    )
