"""One match as the ratings read it: :class:`MatchRecord`, from JSON or the referee's outcome."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from arena.contract import MatchStatus, SeatStatus
from arena.ratings.checks import RatingError, as_tuple, check_ranks

#: Seat statuses, as the match contract defines them (arena.contract.SeatStatus).
SEAT_OK = SeatStatus.OK.value
PLAYER_FAULTS = frozenset(s.value for s in SeatStatus if s.is_fault)
SEAT_STATUSES = frozenset(s.value for s in SeatStatus)
#: Match statuses: ``ok`` (a plain record) or ``finished`` (the contract's word) are rated;
#: ``error`` (a system failure) is ignored.
MATCH_OK = "ok"
MATCH_ERROR = MatchStatus.ERROR.value
MATCH_STATUSES = frozenset({MATCH_OK, MatchStatus.FINISHED.value, MATCH_ERROR})


@dataclass(frozen=True)
class MatchRecord:
    """One finished match, seat by seat (all tuples have one entry per seat).

    ``scores`` may be empty (no score shown); ``seat_status`` empty means every seat ``ok``.
    ``status`` is ``"ok"`` (or ``"finished"``) or ``"error"``: a system failure, ignored and so
    not checked further. Build one from JSON-like dicts with :meth:`from_json`.
    """

    bots: tuple[str, ...]
    ranks: tuple[int, ...]
    scores: tuple[float, ...] = ()
    seat_status: tuple[str, ...] = ()
    status: str = MATCH_OK
    id: str | None = None

    def __post_init__(self) -> None:
        where = f"match {self.id}" if self.id is not None else "match"
        for name in ("bots", "ranks", "scores", "seat_status"):
            value = getattr(self, name)
            if isinstance(value, str | bytes) or not isinstance(value, Sequence):
                raise RatingError(f"{where}: {name} must be a list, got {value!r}")
            object.__setattr__(self, name, tuple(value))
        if self.status not in MATCH_STATUSES:
            raise RatingError(
                f"{where}: status must be one of {sorted(MATCH_STATUSES)}, got {self.status!r}"
            )
        if self.status == MATCH_ERROR:
            return
        n = len(self.bots)
        if n == 0:
            raise RatingError(f"{where}: no seats")
        for bot in self.bots:
            if not isinstance(bot, str) or not bot:
                raise RatingError(f"{where}: bots must be non-empty strings, got {bot!r}")
        try:
            check_ranks(self.ranks, n)
        except RatingError as e:
            raise RatingError(f"{where}: {e}") from None
        if self.scores:
            if len(self.scores) != n:
                raise RatingError(f"{where}: {len(self.scores)} scores for {n} seats")
            for s in self.scores:
                if isinstance(s, bool) or not isinstance(s, int | float) or not math.isfinite(s):
                    raise RatingError(f"{where}: scores must be finite numbers, got {s!r}")
        if self.seat_status:
            if len(self.seat_status) != n:
                raise RatingError(f"{where}: {len(self.seat_status)} seat statuses for {n} seats")
            for st in self.seat_status:
                if st not in SEAT_STATUSES:
                    raise RatingError(
                        f"{where}: seat status must be one of {sorted(SEAT_STATUSES)}, got {st!r}"
                    )

    @property
    def rated(self) -> bool:
        """True when this match moves ratings: not an error, 2+ seats, all bots distinct."""
        return (
            self.status != MATCH_ERROR
            and len(self.bots) >= 2
            and len(set(self.bots)) == len(self.bots)
        )

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> MatchRecord:
        """Read a match from plain JSON. Two shapes are accepted:

        * flat: ``{"bots", "ranks", "scores"?, "seat_status"?, "status"?, "id"?}``;
        * per seat, as the referee writes it (``MatchOutcome.to_json()``):
          ``{"match_id"?, "status", "seats": [{"bot", "rank", "score"?, "status"?}, ...]}``.

        Other keys (``game``, ``seed``, ``result``, a seat's ``faults``...) are ignored.
        """
        if not isinstance(data, Mapping):
            raise RatingError(f"a match must be an object, got {type(data).__name__}")
        raw_id = data.get("id", data.get("match_id"))
        match_id = None if raw_id is None else str(raw_id)
        where = f"match {match_id}" if match_id is not None else "match"
        status = data.get("status", MATCH_OK)
        if status == MATCH_ERROR:
            return cls(bots=(), ranks=(), status=MATCH_ERROR, id=match_id)
        if "seats" in data:
            seats = data["seats"]
            if not isinstance(seats, list) or not all(isinstance(s, Mapping) for s in seats):
                raise RatingError(f"{where}: seats must be a list of objects")
            try:
                bots = [s["bot"] for s in seats]
                ranks = [s["rank"] for s in seats]
            except KeyError as e:
                raise RatingError(f"{where}: every seat needs {e.args[0]!r}") from None
            scored = [s.get("score") is not None for s in seats]
            if any(scored) and not all(scored):
                raise RatingError(f"{where}: some seats have a score, others not")
            scores = [s["score"] for s in seats] if all(scored) else []
            statuses = [s.get("status", SEAT_OK) for s in seats]
        else:
            if "bots" not in data or "ranks" not in data:
                raise RatingError(f"{where}: needs 'bots' and 'ranks' (or 'seats')")
            bots, ranks = data["bots"], data["ranks"]
            scores = data.get("scores") or []
            statuses = data.get("seat_status") or []
        return cls(
            bots=as_tuple(where, "bots", bots),
            ranks=as_tuple(where, "ranks", ranks),
            scores=as_tuple(where, "scores", scores),
            seat_status=as_tuple(where, "seat_status", statuses),
            status=status,
            id=match_id,
        )


def as_record(match: MatchRecord | Mapping[str, Any] | Any) -> MatchRecord:
    """A :class:`MatchRecord` from a record, a JSON-like dict, or any object with a
    ``to_json()`` giving one (such as the referee's ``MatchOutcome``)."""
    if isinstance(match, MatchRecord):
        return match
    if not isinstance(match, Mapping) and callable(getattr(match, "to_json", None)):
        match = match.to_json()
    return MatchRecord.from_json(match)
